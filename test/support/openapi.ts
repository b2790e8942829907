// Checks REST responses against the OpenAPI document: the schema of the documented response for the request's
// method, path template and status (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses).
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import request, { type Response, type Test } from "supertest";
import { openApiDocument } from "../../src/rest/openapi";

export const doc = openApiDocument() as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The whole document as one schema resource, so the "#/components/schemas/…" references resolve inside it.
ajv.addSchema(doc as object, "openapi");

const templates = Object.keys(doc.paths)
  .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`) }))
  // Literal segments before parameters: /v1/reports/search before /v1/reports/{reportId}.
  .sort((a, b) => b.template.split("{").length - a.template.split("{").length)
  .reverse();

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

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
  const validate = ajv.getSchema(`openapi#/${pointer("paths", template, method, "responses", String(res.status), "content", type, "schema")}`);
  if (!validate) throw new Error(`${method} ${template} ${res.status} has no ${type} schema`);
  if (!validate(type === "application/json" ? res.body : res.text)) {
    throw new Error(`${method} ${path} ${res.status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body)}`);
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
