// Nested lookups are planned into a constant number of SQL statements, whatever the page size.
import request from "supertest";
import { config } from "../src/config";
import { prisma } from "../src/db";
import { countStatements, createTeam, isHousekeeping, startTestApp, type TestApp } from "./support/app";

let t: TestApp;
afterAll(() => t.close());

const NESTED = `query($limit: Int!) {
  reports(limit: $limit) {
    items {
      id address showingsCount
      comparables { id address distanceMiles }
      showings { id attendeeName eventType }
      socialMediaPosts { id platform likes }
      agentInsights { id title body }
      team { id name }
    }
  }
}`;

/** Timed writes that are not part of any one request: usage flushes and the once-a-minute last_used_at. */
/** The auth middleware's API-key lookup (one statement, alone or batched; not part of the query's plan). */
const isKeyLookup = (sql: string) => /FROM api_keys WHERE key_hash = ANY/.test(sql);

/** A team with `n` reports, each with `per` items in every collection. */
async function seedTeam(n: number, per: number) {
  const team = await createTeam();
  for (let i = 0; i < n; i++) {
    const address = `${i + 1} Batch Way`;
    await prisma.report.create({
      data: {
        teamId: team.teamId,
        address,
        addressKey: address.toLowerCase(),
        searchKey: address.toLowerCase(),
        listingAgent: "Agent",
        createdBy: "Seed",
        comparables: { create: Array.from({ length: per }, (_, j) => ({ address: `${j} Comp St`, distanceMiles: j / 10 })) },
        showings: { create: Array.from({ length: per }, (_, j) => ({ attendeeName: `Visitor ${j}` })) },
        socialMediaPosts: { create: Array.from({ length: per }, (_, j) => ({ platform: "instagram", externalId: `ig-${j}`, likes: j })) },
        agentInsights: { create: Array.from({ length: per }, (_, j) => ({ author: "Agent", body: `Insight ${j}` })) },
      },
    });
  }
  return team;
}

it("runs one statement for 1 and for 50 reports with all collections, the showing counts and the team", async () => {
  t = await startTestApp();
  const team = await seedTeam(50, 3);
  const counts: number[] = [];
  // 50 reports of four 100-item collections with their text could answer 113 MiB, past the size bound
  // (test/response-size.test.ts): it is raised for this count of statements.
  const maxResponseBytes = config.MAX_RESPONSE_BYTES;
  config.MAX_RESPONSE_BYTES = 2 ** 30;
  try {
    for (const limit of [1, 50]) {
      const { result, statements } = await countStatements(() => request(t.app).post("/graphql").set(team.auth).send({ query: NESTED, variables: { limit } }));
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data.reports.items).toHaveLength(limit);
      expect(result.body.data.reports.items[0].showings).toHaveLength(3);
      expect(result.body.data.reports.items[0].team.id).toBe(team.teamId);
      counts.push(statements.filter((sql) => !isHousekeeping(sql) && !isKeyLookup(sql)).length);
    }
  } finally {
    config.MAX_RESPONSE_BYTES = maxResponseBytes;
  }
  // The key lookup and housekeeping aside: the reports, their four collections, the showing counts and the team
  // come in one statement (Prisma relationJoins), whatever the page size.
  expect(counts).toEqual([1, 1]);
});

it("stays at one statement with the collections' limit/offset arguments and computed fields, and two with valuations", async () => {
  const team = await seedTeam(50, 4);
  const paged = (valuation: string) => `query($limit: Int!) {
    reports(limit: $limit) {
      items {
        id ${valuation}
        comparables(limit: 2, offset: 1) { id adjustedPrice pricePerSqft adjustments }
        showings(limit: 2, offset: 1) { id }
        socialMediaPosts(limit: 2, offset: 1) { id }
        agentInsights(limit: 2, offset: 1) { id source }
      }
    }
  }`;
  for (const [query, expected] of [[paged(""), 1], [paged("valuation { comparablesTotal estimatedValue warnings }"), 2]] as const) {
    const counts: number[] = [];
    for (const limit of [1, 50]) {
      const { result, statements } = await countStatements(() => request(t.app).post("/graphql").set(team.auth).send({ query, variables: { limit } }));
      expect(result.body.errors).toBeUndefined();
      expect(result.body.data.reports.items).toHaveLength(limit);
      for (const report of result.body.data.reports.items) {
        expect(report.comparables).toHaveLength(2);
        expect(report.agentInsights).toHaveLength(2);
        if (report.valuation) expect(report.valuation.comparablesTotal).toBe(4);
      }
      counts.push(statements.filter((sql) => !isHousekeeping(sql) && !isKeyLookup(sql)).length);
    }
    // A valuation reads all of a report's comparables, the page only two of them: one more statement for all reports.
    expect(counts).toEqual([expected, expected]);
  }
});

it("plans a REST document once: every GET /v1/reports/{id} after the first is one statement in all, its key's check included", async () => {
  const team = await seedTeam(3, 2);
  const items: Array<{ id: string; address: string }> = (await request(t.app).get("/v1/reports").set(team.auth)).body.data;
  expect(items).toHaveLength(3);
  const counts: number[] = [];
  for (const report of [...items, ...items]) {
    const { result, statements } = await countStatements(() => request(t.app).get(`/v1/reports/${report.id}`).set(team.auth));
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: report.id, address: report.address });
    expect(result.body.data.showing_events).toHaveLength(2);
    expect(result.body.data.comparable_properties).toHaveLength(2);
    // Housekeeping aside: the report with its collections and (on PostgreSQL, for a key this process has seen; the
    // embedded database's key rows are cached) the check of the key, one statement.
    counts.push(statements.filter((sql) => !isHousekeeping(sql)).length);
  }
  expect(counts).toEqual(counts.map(() => 1));
});
