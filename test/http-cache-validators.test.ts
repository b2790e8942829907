// HTTP caching's validators (README "Trusted documents and HTTP caching", docs/api.md "HTTP caching"): If-None-Match
// `*` answers 304 only when the resource exists for the key; a change to the team's own row moves the ETag of answers
// that show it; answers that count days up to today (valuation, similarity) hold for the UTC day at most.
import request from "supertest";
import { prisma } from "../src/db";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
let reportId: string;
let theirReportId: string;

const UNKNOWN = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ name: "Validators Realty" });
  other = await createTeam();
  const made = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "1 Validator Way", price: 500000, sqft: 1500 });
  expect(made.status).toBe(201);
  reportId = made.body.data.id;
  // Sold on 2025-12-01 (at 15:00 UTC): more than 365 calendar days old from the first instant of 2026-12-02 UTC —
  // not from 15:00 that day: a figure counting days changes when the validators do, at midnight UTC.
  const comparable = { address: "3 Validator Way", price: 480000, sqft: 1500, status: "sold", sale_date: "2025-12-01T15:00:00Z" };
  expect((await request(t.app).post(`/v1/reports/${reportId}/comparables`).set(team.auth).send(comparable)).status).toBe(201);
  theirReportId = (await request(t.app).post("/v1/reports").set(other.auth).send({ address: "9 Elsewhere Rd" })).body.data.id;
});
afterAll(() => t.close());

const graphqlGet = (query: string, etag?: string) => {
  const req = request(t.app).get("/graphql").query({ query }).set(team.auth).set("Accept", "application/graphql-response+json");
  return etag ? req.set("If-None-Match", etag) : req;
};
const restGet = (path: string, etag?: string) => {
  const req = request(t.app).get(path).set(team.auth);
  return etag ? req.set("If-None-Match", etag) : req;
};

describe("If-None-Match: *", () => {
  it("answers REST's 404 for a report that does not exist or is another team's, and 304 for one that exists", async () => {
    for (const id of [UNKNOWN, theirReportId]) {
      for (const path of [`/v1/reports/${id}`, `/v1/reports/${id}/comparables`, `/v1/reports/${id}/valuation`]) {
        const res = await restGet(path, "*");
        expect({ path, status: res.status, message: res.body.error?.message }).toEqual({ path, status: 404, message: "Report not found" });
        expect(res.headers.etag).toBeUndefined();
      }
    }
    const found = await restGet(`/v1/reports/${reportId}`, "*");
    expect(found.status).toBe(304);
    expect(found.text).toBe("");
    expect(found.headers.etag).toBe((await restGet(`/v1/reports/${reportId}`)).headers.etag);
  });

  it("answers GraphQL's error for an unknown or foreign report, and 304 for a report whose answer exists", async () => {
    for (const id of [UNKNOWN, theirReportId]) {
      const res = await graphqlGet(`{ report(id: "${id}") { id address } }`, "*");
      expect(res.status).not.toBe(304);
      expect(res.body.errors?.[0]?.message).toBe("Report not found");
    }
    const query = `{ report(id: "${reportId}") { id address } }`;
    const first = await graphqlGet(query);
    expect(first.body.data.report.address).toBe("1 Validator Way");
    const again = await graphqlGet(query, "*");
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
  });
});

describe("the team's own row", () => {
  const TEAM = () => `{ report(id: "${reportId}") { id team { name plan } } }`;

  it("moves the ETag and the cached answer when the team's name or plan changes (as psql would change them)", async () => {
    const first = await graphqlGet(TEAM());
    expect(first.body.data.report.team).toEqual({ name: "Validators Realty", plan: "standard" });
    expect((await graphqlGet(TEAM(), first.headers.etag)).status).toBe(304);

    await prisma.team.update({ where: { id: team.teamId }, data: { name: "Renamed Realty" } });
    const renamed = await graphqlGet(TEAM(), first.headers.etag);
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.report.team).toEqual({ name: "Renamed Realty", plan: "standard" });
    expect((await graphqlGet(TEAM())).body.data.report.team.name).toBe("Renamed Realty"); // not the cached answer

    await prisma.$executeRaw`UPDATE teams SET plan = 'pro' WHERE id = ${team.teamId}::uuid`;
    const upgraded = await graphqlGet(TEAM(), renamed.headers.etag);
    expect(upgraded.status).toBe(200);
    expect(upgraded.body.data.report.team).toEqual({ name: "Renamed Realty", plan: "pro" });
  });

  it("moves only the changed team's version, and only when the row changed", async () => {
    const theirs = await request(t.app).get(`/v1/reports/${theirReportId}`).set(other.auth);
    const first = await graphqlGet(TEAM());
    await prisma.team.update({ where: { id: team.teamId }, data: { memberCount: 4 } });
    await prisma.$executeRaw`UPDATE teams SET name = name WHERE id = ${other.teamId}::uuid`;
    expect((await graphqlGet(TEAM(), first.headers.etag)).status).toBe(200);
    const again = await request(t.app).get(`/v1/reports/${theirReportId}`).set(other.auth).set("If-None-Match", theirs.headers.etag);
    expect(again.status).toBe(304);
  });
});

describe("answers that count days up to today", () => {
  const VALUATION = () => `{ report(id: "${reportId}") { valuation { estimatedValue warnings } comparables { similarity } } }`;
  const REST = () => `/v1/reports/${reportId}/valuation`;
  afterEach(() => jest.useRealTimers());

  /** Only the clock is replaced (timers stay real: the database and supertest use them). */
  const clockAt = (iso: string) =>
    jest.useFakeTimers({
      now: new Date(iso),
      advanceTimers: true,
      doNotFake: ["nextTick", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout", "queueMicrotask", "hrtime", "performance"],
    });

  it("hold for the UTC day they were made on: a 304 until midnight, the new day's answer after it", async () => {
    clockAt("2026-12-01T08:00:00Z");
    const first = await graphqlGet(VALUATION());
    const rest = await restGet(REST());
    expect(first.status).toBe(200);
    expect(first.body.data.report.valuation.warnings).not.toContain("stale_comparables");
    expect(rest.body.data.warnings).not.toContain("stale_comparables");
    clockAt("2026-12-01T23:59:00Z");
    // What the 304 vouches for is still what a fresh read answers (counted in whole days, not 24-hour periods).
    expect((await restGet(REST())).body.data.warnings).not.toContain("stale_comparables");
    expect((await graphqlGet(VALUATION(), first.headers.etag)).status).toBe(304);
    expect((await restGet(REST(), rest.headers.etag)).status).toBe(304);

    // Past midnight UTC the comparable's sale is more than 365 days old: the valuation warns, a 304 would hide it.
    clockAt("2026-12-02T00:00:30Z");
    const next = await graphqlGet(VALUATION(), first.headers.etag);
    expect(next.status).toBe(200);
    expect(next.headers.etag).not.toBe(first.headers.etag);
    expect(next.body.data.report.valuation.warnings).toContain("stale_comparables");
    expect(next.body.data.report.comparables[0].similarity).toBeLessThanOrEqual(first.body.data.report.comparables[0].similarity);
    const restNext = await restGet(REST(), rest.headers.etag);
    expect(restNext.status).toBe(200);
    expect(restNext.body.data.warnings).toContain("stale_comparables");
  });
});
