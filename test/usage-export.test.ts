// The usage export (docs/api.md "Usage export"): GET /v1/usage per key and hour or day, as JSON or
// CSV, whose numbers are what the rate limiter and the monthly counter counted (a mutation request of two root
// fields counts 2 in all three). GET /v1/usage/routes: each key's answers per route and outcome.
// Tier budgets are read from the configuration when src modules load: the free tier's is made small before the imports.
const previousFree = process.env.RATE_LIMIT_FREE;
process.env.RATE_LIMIT_FREE = "5";

import request from "supertest";
import { hashApiKey } from "../src/auth/keys";
import { prisma } from "../src/db";
import { addKey, createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";

let t: TestApp;
let admin: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTeam({ permissions: "api_keys:read,reports:read,reports:create" });
});
afterAll(async () => {
  await t.close();
  if (previousFree === undefined) delete process.env.RATE_LIMIT_FREE;
  else process.env.RATE_LIMIT_FREE = previousFree;
});

/** The CSV's rows as objects of its header's names. */
function parseCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split("\r\n");
  const names = header.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((value, i) => [names[i], value])));
}

it("answers what the rate limiter and the monthly counter counted, as CSV and JSON", async () => {
  const reader = await addKey(admin.teamId, "reports:read");
  const readerId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(reader.Authorization.slice(7)) } })).id;
  const adminId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(admin.key) } })).id;
  for (let i = 0; i < 3; i++) expect((await request(t.app).get("/v1/reports").set(reader)).status).toBe(200);
  // One request of two root mutation fields: two points, two calls.
  const two = await request(t.app)
    .post("/graphql")
    .set(admin.auth)
    .send({ query: `mutation { a: createReport(input: { address: "1 Count St" }) { id } b: createReport(input: { address: "2 Count St" }) { id } }` });
  expect(two.body.errors).toBeUndefined();

  const csv = await restClient(t.app, admin.auth).get("/v1/usage?format=csv");
  expect(csv.status).toBe(200);
  expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers["content-disposition"]).toMatch(/^attachment; filename="usage-hour\.csv"$/);
  expect(csv.text.split("\r\n")[0]).toBe("key_id,key_name,key_prefix,period_start,requests");
  const rows = parseCsv(csv.text);
  const byKey = (id: string) => rows.filter((r) => r.key_id === id).reduce((n, r) => n + Number(r.requests), 0);
  // The export's own request is counted before it runs.
  expect(byKey(readerId)).toBe(3);
  expect(byKey(adminId)).toBe(3);
  expect(rows.find((r) => r.key_id === readerId)).toMatchObject({ key_name: "key reports:read", key_prefix: reader.Authorization.slice(7, 23) });
  expect(new Date(rows[0].period_start).getTime() % 3_600_000).toBe(0);

  // The monthly counter and the rate limiter, each read by one more request.
  const me = await request(t.app).get("/v1/users/me").set(admin.auth);
  expect(me.body.data.subscription.api_usage.calls_this_month).toBe(byKey(readerId) + byKey(adminId) + 1);
  const used = (res: request.Response) => Number(res.headers["x-ratelimit-limit"]) - Number(res.headers["x-ratelimit-remaining"]);
  expect(used(me)).toBe(byKey(adminId) + 1);
  expect(used(await request(t.app).get("/v1/users/me").set(reader))).toBe(byKey(readerId) + 1);

  // JSON: the same rows; per day: the same totals.
  const json = await restClient(t.app, admin.auth).get("/v1/usage?format=json&granularity=hour");
  expect(json.body.data.find((r: { key_id: string }) => r.key_id === readerId)).toMatchObject({ key_name: "key reports:read", requests: 4 }); // and its users/me
  const days = await restClient(t.app, admin.auth).get("/v1/usage?granularity=day");
  const dayTotal = days.body.data.reduce((n: number, r: { requests: number }) => n + r.requests, 0);
  expect(dayTotal).toBe(me.body.data.subscription.api_usage.calls_this_month + 3); // the reader's users/me and the two exports since
  for (const row of days.body.data) expect(new Date(row.period_start).getTime() % 86_400_000).toBe(0);
});

it("takes a range of at most 90 days and leaves out hours outside it", async () => {
  const keyId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(admin.key) } })).id;
  const old = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 30 * 86_400_000);
  await prisma.apiKeyHourlyUsage.create({ data: { keyId, hour: old, count: 11 } });
  const recent = await restClient(t.app, admin.auth).get("/v1/usage");
  expect(recent.body.data.map((r: { period_start: string }) => r.period_start)).not.toContain(old.toISOString());
  const from = new Date(old.getTime() - 86_400_000).toISOString();
  const to = new Date(old.getTime() + 3_600_000).toISOString();
  const range = await restClient(t.app, admin.auth).get(`/v1/usage?from=${from}&to=${to}`);
  expect(range.body.data).toEqual([{ key_id: keyId, key_name: "test key", key_prefix: admin.key.slice(0, 16), period_start: old.toISOString(), requests: 11 }]);
});

it("refuses bad parameters with a 400 naming them, and keys without api_keys:read", async () => {
  for (const [query, message] of [
    ["granularity=week", "granularity must be one of hour, day"],
    ["format=xml", "format must be one of json, csv"],
    ["from=last-week", "from must be an ISO 8601 date-time"],
    ["to=2026-13-45T00:00:00Z", "to must be an ISO 8601 date-time"],
    ["from=2026-06-01T00:00:00Z&to=2026-01-01T00:00:00Z", "from must be before to"],
    ["from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z", "from and to must be at most 90 days apart"],
  ]) {
    const res = await restClient(t.app, admin.auth).get(`/v1/usage?${query}`);
    expect(errorOf(res)).toEqual({ status: 400, message: expect.stringContaining(message) });
  }
  const reader = await addKey(admin.teamId, "reports:read");
  expect(errorOf(await restClient(t.app, reader).get("/v1/usage"))).toEqual({ status: 403, message: "Permission denied: api_keys:read" });
});

describe("GET /v1/usage/routes", () => {
  it("answers each key's answers per route template by outcome — refusals and 429s included — as JSON and CSV", async () => {
    // The limited key: the team's own (free tier: 5 requests an hour); the export is read with a second key.
    const team = await createTeam({ tier: "free", permissions: "reports:read" });
    const reader = team.auth;
    const readerId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(team.key) } })).id;
    const exporter = await addKey(team.teamId, "api_keys:read");
    const statuses = [
      (await request(t.app).get("/v1/reports").set(reader)).status,
      (await request(t.app).get("/v1/reports/00000000-0000-4000-8000-000000000000").set(reader)).status,
      (await request(t.app).post("/v1/reports").set(reader).send({ address: "1 Refused Rd" })).status,
      (await request(t.app).get("/v1/reports").set(reader)).status,
      (await request(t.app).get("/v1/reports?limit=1").set(reader)).status,
      (await request(t.app).get("/v1/reports").set(reader)).status,
      (await request(t.app).post("/graphql").set(reader).send({ query: "{ reports { total } }" })).status,
    ];
    expect(statuses).toEqual([200, 404, 403, 200, 200, 429, 429]);

    const json = await restClient(t.app, exporter).get("/v1/usage/routes");
    expect(json.status).toBe(200);
    const row = (route: string) => ({ key_id: readerId, key_name: "test key", key_prefix: team.key.slice(0, 16), route });
    expect(json.body.data).toEqual(
      [
        { ...row("GET /v1/reports"), succeeded: 3, client_errors: 0, rate_limited: 1, server_errors: 0, total: 4 },
        { ...row("GET /v1/reports/{reportId}"), succeeded: 0, client_errors: 1, rate_limited: 0, server_errors: 0, total: 1 },
        { ...row("POST /graphql"), succeeded: 0, client_errors: 0, rate_limited: 1, server_errors: 0, total: 1 },
        { ...row("POST /v1/reports"), succeeded: 0, client_errors: 1, rate_limited: 0, server_errors: 0, total: 1 },
      ].sort((a, b) => a.route.localeCompare(b.route)),
    );

    // CSV: the same names, the same rows, and the JSON export just sent (the second key's).
    const csv = await restClient(t.app, exporter).get("/v1/usage/routes?format=csv");
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="usage-routes.csv"');
    expect(csv.text.split("\r\n")[0]).toBe("key_id,key_name,key_prefix,route,succeeded,client_errors,rate_limited,server_errors,total");
    const rows = parseCsv(csv.text);
    expect(rows.filter((r) => r.key_id === readerId).map((r) => [r.route, r.total])).toEqual(json.body.data.map((r: { route: string; total: number }) => [r.route, String(r.total)]));
    expect(rows.find((r) => r.key_id !== readerId)).toMatchObject({ route: "GET /v1/usage/routes", succeeded: "1", total: "1" });

    // A range before any of it: nothing; a reversed one: 400.
    expect((await restClient(t.app, exporter).get("/v1/usage/routes?to=2026-01-01T00:00:00Z")).body.data).toEqual([]);
    expect(errorOf(await restClient(t.app, exporter).get("/v1/usage/routes?from=2026-06-01T00:00:00Z&to=2026-01-01T00:00:00Z"))).toEqual({
      status: 400,
      message: expect.stringContaining("from must be before to"),
    });
  });

  it("counts the dashboard's own requests apart (as '… (dashboard)' routes), within the same key's month and limits", async () => {
    const team = await createTeam({ permissions: "reports:read,api_keys:read" });
    const query = { query: "{ reports { total } me { subscription { apiUsage { callsThisMonth } } } }" };
    const calls = async (headers: Record<string, string>) => (await request(t.app).post("/graphql").set(team.auth).set(headers).send(query)).body.data.me.subscription.apiUsage.callsThisMonth;
    const first = await calls({});
    expect(await calls({ "X-PRS-Client": "dashboard" })).toBe(first + 1); // a call of the month like any other
    expect((await request(t.app).get("/v1/reports").set(team.auth).set("X-PRS-Client", "dashboard")).status).toBe(200);
    const routes = (await restClient(t.app, team.auth).get("/v1/usage/routes")).body.data.map((r: { route: string; total: number }) => [r.route, r.total]);
    expect(routes).toEqual([
      ["GET /v1/reports (dashboard)", 1],
      ["POST /graphql", 1],
      ["POST /graphql (dashboard)", 1],
    ]);
  });
});
