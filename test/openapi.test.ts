// The OpenAPI document: valid OpenAPI 3.1, version 1.0.1, every REST route with its parameters, bodies, responses
// and errors; and the /docs page served from swagger-ui-dist.
import { execFileSync } from "node:child_process";
import request from "supertest";
import { createTeam, startTestApp, type TestApp } from "./support/app";
import { templateOf } from "./support/openapi";

let t: TestApp;
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  const res = await request(t.app).get("/v1/openapi.json");
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(() => t.close());

// The validator is an ES module, which this CommonJS test build cannot load: it runs in its own node process.
const VALIDATE = `
import { Validator } from "@seriousme/openapi-schema-validator";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
console.log(JSON.stringify({ ...result, version: validator.version }));`;

it("is a valid OpenAPI 3.1 document at version 1.0.1", () => {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", VALIDATE], { input: JSON.stringify(doc), cwd: process.cwd() });
  const result = JSON.parse(out.toString());
  expect(result.errors ?? []).toEqual([]);
  expect(result).toMatchObject({ valid: true, version: "3.1" });
  expect(doc.openapi).toMatch(/^3\.1\./);
  expect(doc.info.version).toBe("1.0.1");
});

const ROUTES: Array<[string, string]> = [
  ["get", "/v1/reports"],
  ["post", "/v1/reports"],
  ["get", "/v1/reports/search"],
  ["get", "/v1/reports/{reportId}"],
  ["patch", "/v1/reports/{reportId}"],
  ["delete", "/v1/reports/{reportId}"],
  ["get", "/v1/showings"],
  ["post", "/v1/showings"],
  ["get", "/v1/showings/{showingId}"],
  ["patch", "/v1/showings/{showingId}"],
  ["delete", "/v1/showings/{showingId}"],
  ["get", "/v1/showings/{showingId}/sign-in-links"],
  ["post", "/v1/showings/{showingId}/sign-in-links"],
  ["delete", "/v1/showings/{showingId}/sign-in-links/{signInLinkId}"],
  ["get", "/v1/showings/{showingId}/sign-in-links/{signInLinkId}/qr.svg"],
  ["get", "/v1/showings/{showingId}/sign-in-links/{signInLinkId}/qr.png"],
  ["get", "/v1/attendees/consents"],
  ["post", "/v1/attendees/consents/{consentId}/withdraw"],
  ["get", "/v1/attendees"],
  ["post", "/v1/attendees/erase"],
  ["get", "/v1/reports/{reportId}/comparables"],
  ["post", "/v1/reports/{reportId}/comparables"],
  ["put", "/v1/reports/{reportId}/comparables"],
  ["get", "/v1/comparables/{comparableId}"],
  ["patch", "/v1/comparables/{comparableId}"],
  ["delete", "/v1/comparables/{comparableId}"],
  ["get", "/v1/reports/{reportId}/photos"],
  ["post", "/v1/reports/{reportId}/photos"],
  ["patch", "/v1/reports/{reportId}/photos/{photoId}"],
  ["delete", "/v1/reports/{reportId}/photos/{photoId}"],
  ["get", "/v1/reports/{reportId}/photos/{photoId}/image"],
  ["get", "/v1/reports/{reportId}/comparables/{comparableId}/photos"],
  ["post", "/v1/reports/{reportId}/comparables/{comparableId}/photos"],
  ["patch", "/v1/reports/{reportId}/comparables/{comparableId}/photos/{photoId}"],
  ["delete", "/v1/reports/{reportId}/comparables/{comparableId}/photos/{photoId}"],
  ["get", "/v1/reports/{reportId}/comparables/{comparableId}/photos/{photoId}/image"],
  ["get", "/v1/reports/{reportId}/valuation"],
  ["get", "/v1/reports/{reportId}/insights"],
  ["post", "/v1/reports/{reportId}/insights"],
  ["get", "/v1/insights/{insightId}"],
  ["patch", "/v1/insights/{insightId}"],
  ["delete", "/v1/insights/{insightId}"],
  ["get", "/v1/reports/{reportId}/social-posts"],
  ["post", "/v1/reports/{reportId}/social-posts/import"],
  ["get", "/v1/social-posts/{postId}"],
  ["delete", "/v1/social-posts/{postId}"],
  ["get", "/v1/reports/{reportId}/social-engagement"],
  ["get", "/v1/reports/{reportId}/summary"],
  ["post", "/v1/reports/{reportId}/summary"],
  ["get", "/v1/reports/{reportId}/share-links"],
  ["post", "/v1/reports/{reportId}/share-links"],
  ["delete", "/v1/reports/{reportId}/share-links/{linkId}"],
  ["get", "/v1/reports/{reportId}/pdf"],
  ["get", "/v1/webhooks/event-types"],
  ["get", "/v1/webhooks"],
  ["post", "/v1/webhooks"],
  ["get", "/v1/webhooks/{webhookId}"],
  ["patch", "/v1/webhooks/{webhookId}"],
  ["delete", "/v1/webhooks/{webhookId}"],
  ["post", "/v1/webhooks/{webhookId}/rotate-secret"],
  ["post", "/v1/webhooks/{webhookId}/test"],
  ["get", "/v1/webhooks/{webhookId}/deliveries"],
  ["post", "/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver"],
  ["get", "/v1/crm-destinations"],
  ["post", "/v1/crm-destinations"],
  ["get", "/v1/crm-destinations/{destinationId}"],
  ["patch", "/v1/crm-destinations/{destinationId}"],
  ["delete", "/v1/crm-destinations/{destinationId}"],
  ["get", "/v1/crm-destinations/{destinationId}/deliveries"],
  ["post", "/v1/crm-destinations/{destinationId}/deliveries/{deliveryId}/redeliver"],
  ["get", "/v1/events"],
  ["get", "/v1/events/{eventId}"],
  ["get", "/v1/users/me"],
  ["get", "/v1/audit-log"],
  ["get", "/v1/usage"],
  ["get", "/v1/usage/routes"],
  ["post", "/v1/graphql/documents"],
  ["get", "/v1/graphql/documents"],
];

it("documents every route with its success and error responses", () => {
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((method) => [method, path]));
  expect(documented.sort()).toEqual([...ROUTES].sort());
  for (const [method, path] of ROUTES) {
    const responses = doc.paths[path][method].responses;
    const success = /\/(test|redeliver)$/.test(path) ? "202" : method === "post" && !/\/(import|summary|rotate-secret|withdraw|erase)$/.test(path) ? "201" : "200";
    const media = path.endsWith("/pdf") ? "application/pdf" : path.endsWith("/qr.svg") ? "image/svg+xml" : path.endsWith("/qr.png") ? "image/png" : path.endsWith("/image") ? "image/*" : "application/json";
    expect(responses[success].content[media].schema).toBeDefined();
    for (const status of ["401", "405", "429"]) expect(responses[status].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    if (path !== "/v1/users/me") expect(responses["403"]).toBeDefined();
    if (path.includes("{")) expect(responses["404"]).toBeDefined();
    if (method === "post" || method === "put" || method === "patch") for (const status of ["400", "413", "415"]) expect(responses[status]).toBeDefined();
  }
  expect(doc.paths["/v1/showings"].post.responses["409"]).toBeDefined();
  for (const status of ["422", "502", "504"]) expect(doc.paths["/v1/reports/{reportId}/summary"].post.responses[status]).toBeDefined();
  expect(doc.paths["/v1/reports/{reportId}/summary"].post.requestBody.required).toBe(false);
  // A photo's upload is multipart/form-data: the file (binary), its alt text and position.
  const upload = doc.paths["/v1/reports/{reportId}/photos"].post.requestBody;
  expect(Object.keys(upload.content)).toEqual(["multipart/form-data"]);
  expect(upload.content["multipart/form-data"].schema).toMatchObject({ required: ["file", "alt"], properties: { file: { type: "string", format: "binary" }, position: { type: "integer", minimum: 0, maximum: 39 } } });
});

it("documents parameters and bodies from the route schemas", () => {
  const params = (method: string, path: string) => Object.fromEntries(doc.paths[path][method].parameters.map((p: any) => [`${p.in}:${p.name}`, p]));
  const list = params("get", "/v1/reports");
  expect(list["query:limit"].schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 50 });
  expect(list["query:offset"].schema).toMatchObject({ type: "integer", minimum: 0, default: 0 });
  expect(list["query:status"].schema.enum).toEqual(["draft", "published", "all"]);
  expect(list["query:address"]).toBeDefined();
  expect(params("get", "/v1/reports/search")["query:address"].required).toBe(true);
  expect(params("get", "/v1/reports/{reportId}")["path:reportId"].required).toBe(true);
  expect(params("get", "/v1/showings")["query:report_id"].schema.format).toBe("uuid");

  const schemas = doc.components.schemas;
  expect(schemas.CreateReportBody.required).toEqual(["address"]);
  expect(Object.keys(schemas.CreateReportBody.properties)).toEqual(expect.arrayContaining(["beds", "bedrooms", "baths", "bathrooms", "sqft", "square_feet", "portal_property_id", "primary_color", "secondary_color", "custom_agent_name", "custom_agent_email", "mls_id", "lot_size"]));
  expect(Object.keys(schemas.UpdateReportBody.properties)).toEqual(expect.arrayContaining(["status", "is_draft", "show_social_media_on_report", "show_social_on_report"]));
  // The branding fields, bounded in both bodies (the fuzz suite builds report bodies from these schemas).
  for (const body of [schemas.CreateReportBody, schemas.UpdateReportBody]) {
    expect(body.properties).toMatchObject({ agent_phone: { maxLength: 100 }, brokerage_name: { maxLength: 1000 }, agent_license: { maxLength: 100 } });
  }
  expect(schemas.CreateShowingBody.required).toEqual(["report_id"]);
  expect(schemas.CreateShowingBody.properties.rating).toMatchObject({ minimum: 1, maximum: 5 });
  expect(schemas.UpdateShowingBody.properties.event_type).toBeDefined();
});

it("matches concrete paths to templates with literal segments first", () => {
  expect(templateOf("/v1/reports/search")).toBe("/v1/reports/search");
  expect(templateOf("/v1/reports/abc")).toBe("/v1/reports/{reportId}");
  expect(templateOf("/v1/nothing")).toBeUndefined();
});

it("serves the interactive reference from the swagger-ui-dist package", async () => {
  const page = await request(t.app).get("/docs");
  expect(page.status).toBe(200);
  expect(page.type).toBe("text/html");
  expect(page.text).not.toMatch(/https?:\/\//);
  for (const asset of [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])) {
    const res = await request(t.app).get(asset);
    expect(res.status).toBe(200);
    // Versioned files: kept for a year, never revalidated.
    if (asset.startsWith("/docs/assets/")) expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  }
  expect((await request(t.app).get("/docs/init.js")).text).toContain("/v1/openapi.json");
  const missing = await request(t.app).get("/docs/assets/nope.js");
  expect(missing.status).toBe(404);
  expect(missing.body.error.status).toBe(404);
});

describe("operation ids and examples", () => {
  it("names every operation with a unique operationId", () => {
    const ids = Object.values(doc.paths).flatMap((item: any) => Object.values(item).map((op: any) => op.operationId));
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  /** The body Swagger UI's "Try it out" pre-fills: every property's example. */
  function exampleBody(schema: any): Record<string, unknown> {
    const first = schema.anyOf ? schema.anyOf[0] : schema; // several body forms (this API's, RESO): it pre-fills the first
    const resolved = first.$ref ? doc.components.schemas[first.$ref.split("/").pop()] : first;
    return Object.fromEntries(
      Object.entries(resolved.properties as Record<string, any>)
        .filter(([, property]) => property.example !== undefined && !/^Alias of/.test(property.description ?? ""))
        .map(([name, property]) => [name, property.example]),
    );
  }

  it("pre-fills POST /v1/reports and PATCH /v1/reports/{id} with examples the API accepts", async () => {
    const team = await createTeam();
    const create = exampleBody(doc.paths["/v1/reports"].post.requestBody.content["application/json"].schema);
    expect(create.address).toBeDefined();
    const created = await request(t.app).post("/v1/reports").set(team.auth).send(create);
    expect(created.status).toBe(201);
    const update = exampleBody(doc.paths["/v1/reports/{reportId}"].patch.requestBody.content["application/json"].schema);
    const updated = await request(t.app).patch(`/v1/reports/${created.body.data.id}`).set(team.auth).send(update);
    expect(updated.status).toBe(200);
  });

  it("pre-fills the comparable and insight bodies with examples the API accepts", async () => {
    const team = await createTeam();
    const report = (await request(t.app).post("/v1/reports").set(team.auth).send({ address: "1 Example St" })).body.data;
    for (const [path, param] of [["comparables", "comparableId"], ["insights", "insightId"]]) {
      const create = exampleBody(doc.paths[`/v1/reports/{reportId}/${path}`].post.requestBody.content["application/json"].schema);
      const created = await request(t.app).post(`/v1/reports/${report.id}/${path}`).set(team.auth).send(create);
      expect(created.status).toBe(201);
      const update = exampleBody(doc.paths[`/v1/${path}/{${param}}`].patch.requestBody.content["application/json"].schema);
      const updated = await request(t.app).patch(`/v1/${path}/${created.body.data.id}`).set(team.auth).send(update);
      expect(updated.status).toBe(200);
    }
  });
});
