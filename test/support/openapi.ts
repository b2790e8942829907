// Checks REST responses against the OpenAPI document: the schema of the documented response for the request's
// method, path template and status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses). The document and the validators
// are made once per test run (./openapi-checks.ts, from the global setup).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import request, { type Response, type Test } from "supertest";
import { answerKey } from "./openapi-checks";

interface Validate {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string }[] | null;
}

const CHECKS = process.env.PRS_OPENAPI_CHECKS!;

export const doc = JSON.parse(readFileSync(join(CHECKS, "document.json"), "utf8")) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
};
const index = JSON.parse(readFileSync(join(CHECKS, "index.json"), "utf8")) as Record<string, string>;
const validators = new Map<string, Validate>();

/** The validator of one documented answer, loaded on first use. */
function validatorOf(key: string): Validate | undefined {
  if (!validators.has(key) && index[key]) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module ajv generated for this document (see above)
    validators.set(key, require(join(CHECKS, index[key])) as Validate);
  }
  return validators.get(key);
}

/** ajv's own wording of a failed check: "data/items/0 must have required property 'id'". */
const errorsText = (errors: Validate["errors"]) => (errors ?? []).map((e) => `data${e.instancePath} ${e.message}`).join(", ");

const templates = Object.keys(doc.paths)
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
  // Literal segments before parameters: /v1/reports/search before /v1/reports/{reportId}.
  .sort((a, b) => b.template.split("{").length - a.template.split("{").length)
  .reverse();

/** The documented path template of a concrete path, or undefined. */
export function templateOf(path: string): string | undefined {
  return templates.find((t) => t.pattern.test(path))?.template;
}

/** Fails unless the response (status and body) is documented for its request. Returns the response. */
export function expectDocumented(res: Response): Response {
  const req = (res as unknown as { req: { method: string; path: string } }).req;
  const path = new URL(req.path, "http://x").pathname;
  const method = req.method.toLowerCase();
  const template = templateOf(path);
  if (!template) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  const response = doc.paths[template][method]?.responses[String(res.status)];
  if (!response) throw new Error(`${method} ${template} does not document status ${res.status}`);
  // A documented answer of another type (text/csv) is checked as text against that type's schema.
  const type = res.type !== "application/json" && response.content?.[res.type] ? res.type : "application/json";
  const validate = validatorOf(answerKey(template, method, String(res.status), type));
  if (!validate) throw new Error(`${method} ${template} ${res.status} has no ${type} schema`);
  if (!validate(type === "application/json" ? res.body : res.text)) {
    throw new Error(`${method} ${path} ${res.status} does not match the document: ${errorsText(validate.errors)}\n${JSON.stringify(res.body)}`);
  }
  return res;
}

type App = Parameters<typeof request>[0];

/** A supertest client for one key whose every response is checked against the document. */
export function restClient(app: App, auth: Record<string, string>) {
  const checked = async (test: Test) => expectDocumented(await test);
  return {
    get: (path: string) => checked(request(app).get(path).set(auth)),
    delete: (path: string) => checked(request(app).delete(path).set(auth)),
    post: (path: string, body: unknown) => checked(request(app).post(path).set(auth).send(body as object)),
    put: (path: string, body: unknown) => checked(request(app).put(path).set(auth).send(body as object)),
    patch: (path: string, body: unknown) => checked(request(app).patch(path).set(auth).send(body as object)),
  };
}
