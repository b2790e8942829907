// Reads priced by cost in measure mode (the default): every GraphQL operation and REST request is charged points
// from the limits' estimate (docs/api.md "Read cost"), shown in extensions.cost and X-Cost, counted in the key's
// points budget per clock hour, and never refused for it. Against the real stack (PGlite, or PostgreSQL + Redis).
const previous = process.env.READ_POINTS_FREE;
process.env.READ_POINTS_FREE = "40";

import request from "supertest";
import { prisma } from "../src/db";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  if (previous === undefined) delete process.env.READ_POINTS_FREE;
  else process.env.READ_POINTS_FREE = previous;
});

const gql = (team: TestTeam, query: string, variables: Record<string, unknown> = {}) =>
  request(t.app).post("/graphql").set(team.auth).send({ query, variables });

const NESTED = `query Nested($limit: Int!) {
  reports(limit: $limit) {
    total
    items {
      id address description
      comparables { id address price }
      showings { id attendeeName feedback }
      socialMediaPosts { id platform }
      agentInsights { id title body }
    }
  }
}`;

/** A report with `n` showings and comparables. */
async function reportWith(teamId: string, n: number) {
  const report = await seedReport(teamId, `${Math.random()} Cost Street`);
  await prisma.showing.createMany({ data: Array.from({ length: n }, (_, i) => ({ teamId, reportId: report.id, attendeeName: `A${i}`, showingDate: new Date(), eventType: "showing" })) });
  return report;
}

describe("read cost, measure mode: shown and counted, never refused", () => {
  it("prices a small read at the floor of 1 point and a page with its collections by objects and bytes", async () => {
    const team = await createTeam({ tier: "free" }); // 40 points here
    const report = await reportWith(team.teamId, 3);
    const small = await gql(team, `query($id: ID!) { report(id: $id) { id address } }`, { id: report.id });
    expect(small.status).toBe(200);
    expect(small.body.data.report.address).toBe(report.address);
    expect(small.body.extensions.cost).toEqual({
      requestedQueryCost: 1,
      actualQueryCost: 1,
      throttleStatus: { maximumAvailable: 40, currentlyAvailable: 39, restoreRate: 0.01 },
    });

    // 20 reports × (1 + 4 collections × 100) = 8,020 objects: 80 points, plus the floor, plus a point per MiB of the
    // estimated answer (long texts at their bounds); charged even though the page holds one report: the price is
    // what the query asks for. Measure mode lets it through past the 40 points, and says none are left.
    const nested = await gql(team, NESTED, { limit: 20 });
    expect(nested.status).toBe(200);
    expect(nested.body.data.reports.items).toHaveLength(1);
    const cost = nested.body.extensions.cost;
    expect(cost.requestedQueryCost).toBeGreaterThanOrEqual(81);
    expect(cost.actualQueryCost).toBe(cost.requestedQueryCost);
    expect(cost.throttleStatus).toEqual({ maximumAvailable: 40, currentlyAvailable: 0, restoreRate: 0.01 });
    // A smaller page costs less: 2 reports × 401 objects = 802 → 8 points + the floor + the bytes' points.
    const two = await gql(team, NESTED, { limit: 2 });
    expect(two.body.extensions.cost.requestedQueryCost).toBeGreaterThanOrEqual(9);
    expect(two.body.extensions.cost.requestedQueryCost).toBeLessThan(cost.requestedQueryCost);
  });

  it("charges a mutation one point per root field, in the points budget as in the request limit", async () => {
    const team = await createTeam({ tier: "standard", permissions: "reports:create,reports:read,api_keys:read" });
    const res = await gql(team, `mutation { a: createReport(input: { address: "1 A St" }) { id } b: createReport(input: { address: "2 B St" }) { id } c: createReport(input: { address: "3 C St" }) { id } }`);
    expect(res.status).toBe(200);
    expect(res.body.extensions.cost).toEqual({
      requestedQueryCost: 3,
      actualQueryCost: 3,
      throttleStatus: { maximumAvailable: 20_000, currentlyAvailable: 19_997, restoreRate: 5.56 },
    });
    // The key's points this hour, as the API shows them: the 3 and this read's own price, charged before it ran.
    const keys = await gql(team, `{ apiKeys { points { limit used remaining mode } } }`);
    const price = keys.body.extensions.cost.requestedQueryCost;
    expect(keys.body.data.apiKeys).toEqual([{ points: { limit: 20_000, used: 3 + price, remaining: 20_000 - 3 - price, mode: "measure" } }]);
  });

  it("answers REST reads with X-Cost beside the rate-limit headers; a 304 costs the floor point", async () => {
    const team = await createTeam({ tier: "free" });
    const report = await reportWith(team.teamId, 2);
    const detail = await request(t.app).get(`/v1/reports/${report.id}`).set(team.auth);
    expect(detail.status).toBe(200);
    expect(detail.headers["x-ratelimit-limit"]).toBe("100");
    const price = Number(detail.headers["x-cost"]);
    // The detail embeds its four collections (100 each at most): 401 objects → 4 points, plus the floor and bytes.
    expect(price).toBeGreaterThanOrEqual(5);
    const page = await request(t.app).get(`/v1/reports?limit=5`).set(team.auth);
    expect(page.status).toBe(200);
    expect(page.headers.etag).toBeDefined();
    const pagePrice = Number(page.headers["x-cost"]);
    expect(pagePrice).toBeGreaterThanOrEqual(1);
    const again = await request(t.app).get(`/v1/reports?limit=5`).set(team.auth).set("If-None-Match", page.headers.etag);
    expect(again.status).toBe(304);
    expect(again.headers["x-cost"]).toBe("1");
    expect(again.headers["x-ratelimit-remaining"]).toBe("97");
    // The budget holds what all three cost (the 304's point is counted without being waited for).
    await new Promise((r) => setTimeout(r, 50));
    const after = await gql(team, `{ __typename }`);
    expect(after.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(Math.max(0, 40 - price - pagePrice - 1 - 1));
    const missing = await request(t.app).get(`/v1/reports/00000000-0000-4000-8000-000000000000`).set(team.auth);
    expect(missing.status).toBe(404);
    expect(Number(missing.headers["x-cost"])).toBe(price);
    const bad = await request(t.app).get(`/v1/reports?limit=0`).set(team.auth);
    expect(bad.status).toBe(400);
    expect(bad.headers["x-cost"]).toBe("1");
  });

  it("writes a fresh extensions.cost into a GraphQL GET answered from the response cache", async () => {
    const team = await createTeam({ tier: "standard" });
    const report = await reportWith(team.teamId, 1);
    const url = `/graphql?query=${encodeURIComponent(`query($id: ID!) { report(id: $id) { id address } }`)}&variables=${encodeURIComponent(JSON.stringify({ id: report.id }))}`;
    const first = await request(t.app).get(url).set(team.auth).set("Accept", "application/json");
    expect(first.status).toBe(200);
    expect(first.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(19_999);
    const second = await request(t.app).get(url).set(team.auth).set("Accept", "application/json");
    expect(second.body.data).toEqual(first.body.data);
    expect(second.body.extensions.cost).toEqual({ ...first.body.extensions.cost, throttleStatus: { ...first.body.extensions.cost.throttleStatus, currentlyAvailable: 19_998 } });
    const notModified = await request(t.app).get(url).set(team.auth).set("Accept", "application/json").set("If-None-Match", first.headers.etag);
    expect(notModified.status).toBe(304);
    await new Promise((r) => setTimeout(r, 50));
    const after = await gql(team, `{ __typename }`);
    expect(after.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(19_996);
  });
});
