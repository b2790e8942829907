// The OpenAPI document and a validator of each documented answer, made once per test run in the global setup and
// kept while the document stays the same (test/support/openapi.ts checks every REST answer with them). Built in each
// test file instead, the document (zod-to-openapi) and the ajv validators a file used cost it ~0.5 s of CPU before
// its first check: each test file has its own module registry, so nothing compiled in one file serves the next.
//
// node_modules/.cache/prs/openapi-<hash of the document and ajv's release>/ holds document.json, one standalone ajv
// module per answer (ajv's standaloneCode: plain JavaScript, loaded on the first answer of its kind a file checks) and
// index.json, which names the module of each "<path template> <method> <status> <content type>".
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const CACHE = path.resolve(__dirname, "../../node_modules/.cache/prs");

/** The key of one documented answer in index.json. */
export const answerKey = (template: string, method: string, status: string, type: string) => `${template} ${method} ${status} ${type}`;

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
}

const ajvVersion = (name: string) => (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;

/**
 * Writes the directory for the service's current document when it is not there yet, and returns its path. The document
 * is the compiled service's (`processJs`: test/support/process-js.ts), as the global setup loads no TypeScript of the
 * service's beyond its database module.
 */
export function prepareOpenApiChecks(processJs: string): string {
  // Loaded here, not at the top: the test files load this module for answerKey alone.
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only by the global setup (see above) */
  const { openApiDocument } = require(path.join(processJs, "src/rest/openapi.js")) as typeof import("../../src/rest/openapi");
  const json = JSON.stringify(openApiDocument());
  // The modules are ajv's code for its own release (they require its runtime helpers): a new ajv makes them again.
  const release = `${ajvVersion("ajv")} ${ajvVersion("ajv-formats")}`;
  const dir = path.join(CACHE, `openapi-${createHash("sha256").update(release).update("\0").update(json).digest("hex").slice(0, 16)}`);
  if (existsSync(path.join(dir, "index.json"))) return dir;
  const { default: Ajv2020, _ } = require("ajv/dist/2020") as typeof import("ajv/dist/2020");
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  const { default: standaloneCode } = require("ajv/dist/standalone") as typeof import("ajv/dist/standalone");
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The formats are required by the generated modules at run time, as ajv-formats defines them.
  const ajv = new Ajv2020({ strict: false, allErrors: true, code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } });
  addFormats(ajv);
  const doc = JSON.parse(json) as Document;
  // The whole document as one schema resource, so the "#/components/schemas/…" references resolve inside it.
  ajv.addSchema(doc as object, "openapi");
  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
  const building = `${dir}.${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const index: Record<string, string> = {};
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, { responses }] of Object.entries(methods)) {
      for (const [status, { content = {} }] of Object.entries(responses)) {
        for (const type of Object.keys(content)) {
          const validate = ajv.getSchema(`openapi#/${pointer("paths", template, method, "responses", status, "content", type, "schema")}`)!;
          const file = `${Object.keys(index).length}.js`;
          writeFileSync(path.join(building, file), standaloneCode(ajv, validate));
          index[answerKey(template, method, status, type)] = file;
        }
      }
    }
  }
  writeFileSync(path.join(building, "document.json"), json);
  writeFileSync(path.join(building, "index.json"), JSON.stringify(index));
  // Those of earlier documents go; a run at the same time that made the same directory first keeps its own.
  for (const entry of readdirSync(CACHE)) {
    if (/^openapi-[0-9a-f]{16}$/.test(entry) && path.join(CACHE, entry) !== dir) rmSync(path.join(CACHE, entry), { recursive: true, force: true });
  }
  if (existsSync(dir)) rmSync(building, { recursive: true, force: true });
  else renameSync(building, dir);
  return dir;
}
