// HTTP edges of REST v1: unknown routes, wrong methods, bodies (malformed, too large, not JSON), the error envelope.
import request from "supertest";
import { type TestApp, type TestTeam } from "./support/app";
import { teamApp } from "./support/team-app";
import { expectDocumented } from "./support/openapi";

let t: TestApp, team: TestTeam;
beforeAll(async () => ({ t, team } = await teamApp()));
afterAll(() => t.close());

const envelope = (res: request.Response, status: number) => {
  expect(res.status).toBe(status);
  expect(res.type).toBe("application/json");
  expect(res.body).toEqual({ error: { message: expect.any(String), status } });
};

it("answers 404 with the envelope for unknown routes", async () => {
  for (const path of ["/v1/nothing", "/v1/reports/x/y", "/v2/reports"]) envelope(await request(t.app).get(path).set(team.auth), 404);
});

it("answers 405 with an Allow header for wrong methods", async () => {
  const cases: Array<[string, "put" | "delete" | "post" | "patch", string]> = [
    ["/v1/reports", "put", "GET, POST"],
    ["/v1/reports", "delete", "GET, POST"],
    ["/v1/reports/search", "post", "GET"],
    ["/v1/reports/00000000-0000-4000-8000-000000000000", "post", "GET, PATCH, DELETE"],
    ["/v1/showings", "patch", "GET, POST"],
    ["/v1/showings/abc", "put", "GET, PATCH, DELETE"],
    ["/v1/users/me", "post", "GET"],
  ];
  for (const [path, method, allow] of cases) {
    const res = await request(t.app)[method](path).set(team.auth);
    envelope(res, 405);
    expect(res.headers.allow).toBe(allow);
  }
});

it("answers 400 for malformed JSON and 400 for a missing body", async () => {
  const malformed = await request(t.app).post("/v1/reports").set(team.auth).type("json").send('{"address": ');
  envelope(malformed, 400);
  expect(malformed.body.error.message).toBe("Malformed JSON in request body");
  const empty = await request(t.app).post("/v1/showings").set(team.auth);
  envelope(empty, 400);
  expect(empty.body.error.message).toBe("Request body must be a JSON object");
});

it("answers 413 for a body over 1 MiB, and accepts one just under", async () => {
  const big = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "1 Big St", description: "x".repeat(1024 * 1024) });
  envelope(big, 413);
  expectDocumented(big);
  const fits = await request(t.app).patch("/v1/reports/00000000-0000-4000-8000-000000000000").set(team.auth).send({ padding: "x".repeat(1024 * 1024 - 100) });
  expect(fits.status).toBe(404);
});

it("answers 415 for a body that is not JSON", async () => {
  const form = await request(t.app).post("/v1/reports").set(team.auth).type("form").send("address=1+Form+St");
  envelope(form, 415);
  expectDocumented(form);
  const text = await request(t.app).patch("/v1/showings/abc").set(team.auth).set("Content-Type", "text/plain").send("hello");
  envelope(text, 415);
  const vendorJson = await request(t.app).post("/v1/reports").set(team.auth).set("Content-Type", "application/vnd.api+json").send(JSON.stringify({ address: "2 Vendor St" }));
  expect(vendorJson.status).toBe(201);
});

it("needs a key on every route (401 envelope) but not for the docs", async () => {
  for (const path of ["/v1/reports", "/v1/showings", "/v1/reports/search?address=x"]) envelope(await request(t.app).get(path), 401);
  expect((await request(t.app).get("/v1/openapi.json")).status).toBe(200);
  expect((await request(t.app).get("/docs")).status).toBe(200);
});

it("answers GET /v1/users/me as documented", async () => {
  const res = expectDocumented(await request(t.app).get("/v1/users/me").set(team.auth));
  expect(res.status).toBe(200);
});

it("carries the rate-limit headers on REST responses, errors included", async () => {
  for (const res of [await request(t.app).get("/v1/reports").set(team.auth), await request(t.app).get("/v1/reports?limit=0").set(team.auth)]) {
    for (const header of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(res.headers[header]).toMatch(/^\d+$/);
  }
});
