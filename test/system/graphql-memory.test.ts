// The second line of defence behind the GraphQL limits, heavy enough for the system tier: one
// request cannot build more than BUILT_ITEMS_LIMIT list items whatever gets past the limits (it stops there and
// answers QUERY_TOO_COMPLEX), and three concurrent requests at the largest size the limits allow leave the process
// far from its heap limit while /health keeps answering. (test/graphql-limits.test.ts: a single read past the row
// bound, refused before it runs.)
import { randomUUID } from "node:crypto";
import { getHeapStatistics } from "node:v8";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import { parse } from "graphql";
import request from "supertest";
import { TEAM_FULL_ACCESS } from "../../src/auth/permissions";
import { prisma } from "../../src/db";
import { schema } from "../../src/schema";
import { execute } from "../../src/schema/engine";
import { BUILT_ITEMS_LIMIT, LIMITS } from "../../src/schema/limits";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";

let t: TestApp;
let team: TestTeam;
let reportIds: string[];

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  // 100 reports of 100 showings each, with text in them.
  reportIds = Array.from({ length: 100 }, () => randomUUID());
  await prisma.report.createMany({
    data: reportIds.map((id, r) => ({ id, teamId: team.teamId, address: `${r} Heavy St`, addressKey: `${r} heavy st`, searchKey: `${r} heavy st`, listingAgent: "A", createdBy: "B", description: "d".repeat(1000) })),
  });
  await prisma.showing.createMany({
    data: reportIds.flatMap((reportId) => Array.from({ length: 100 }, (_, i) => ({ reportId, teamId: team.teamId, attendeeName: `Visitor ${i}`, feedback: "f".repeat(100) }))),
  });
});
afterAll(() => t.close());

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Runs `fn` while sampling the heap and asking GET /health; the heap's growth at its peak and /health's statuses. */
async function watched<T>(fn: () => Promise<T>): Promise<{ result: T; growth: number; health: number[] }> {
  global.gc?.();
  const before = getHeapStatistics().used_heap_size;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, getHeapStatistics().used_heap_size)), 5);
  const health: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      health.push((await request(t.app).get("/health")).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const result = await fn();
    return { result, growth: Math.max(peak, getHeapStatistics().used_heap_size) - before, health };
  } finally {
    running = false;
    clearInterval(sampler);
    await probe;
  }
}

describe("what one request may build", () => {
  it("stops many reads that each pass the row bound at 100,000 items built: one QUERY_TOO_COMPLEX error", async () => {
    // Executed directly (no estimate before it), as a bug in the limits would let it run: twelve reads of 10,101
    // rows each (121,212 items), each read within the row bound.
    const contextValue = { viewer: { keyId: "k", keyPrefix: "prs_sk_live_k", teamId: team.teamId, permissions: TEAM_FULL_ACCESS, tier: "standard" }, rateLimit: null };
    const aliased = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: report(id: "${reportIds[0]}") { showings(limit: 100) { report { showings(limit: 100) { id } } } }`).join(" ")} }`;
    const result = await execute({ schema, document: parse(aliased(12)), contextValue });
    expect(result.data).toBeUndefined();
    expect(result.errors?.map((e) => [e.message, e.extensions.code])).toEqual([
      [`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects, the limit of one request`, "QUERY_TOO_COMPLEX"],
    ]);
  });

  // 100 reports × (1 + 4 × 100 + 98) showings: 49,901 objects, the most the estimate lets through (5 × 100 would be
  // 50,101), each showing with the fields the size bound then allows (estimated 6.9 MiB of MAX_RESPONSE_BYTES' 8; its
  // text fields, priced at their 1,000-character bounds, would be 1 GiB). The resolvers build it as objects
  // (@include: the one-statement path plans no directive); the one-statement path as PostgreSQL's JSON text.
  const SHOWING = "id createdAt";
  const largest = (directive: string) =>
    `{ reports(limit: 100) ${directive} { total items { id address description ${["a", "b", "c", "d"].map((k) => `${k}: showings(limit: 100) { ${SHOWING} }`).join(" ")} e: showings(limit: 98) { ${SHOWING} } } } }`;

  it.each([
    ["the resolvers", "@include(if: true)"],
    ["the one-statement path", ""],
  ])("answers three concurrent requests at the largest size on %s far under the heap limit, /health answering", async (path, directive) => {
    const query = largest(directive);
    const { depth, complexity } = complexityFromQuery(query, { schema, variables: {} });
    expect(depth).toBeLessThanOrEqual(LIMITS.depth);
    expect(complexity).toBe(1 + 100 * (1 + 4 * 100 + 98));
    expect(complexity).toBeLessThanOrEqual(LIMITS.objects);

    const send = () => request(t.app).post("/graphql").set(team.auth).send({ query });
    const { result: answers, growth, health } = await watched(() => Promise.all([send(), send(), send()]));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.reports.items).toHaveLength(100);
      expect(res.body.data.reports.items[99].e).toHaveLength(98);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
    const limit = getHeapStatistics().heap_size_limit;
    // The figure RELIABILITY.md reports.
    process.stdout.write(`graphql-memory (${path}): heap +${mb(growth)} MB at its peak for three requests of ${complexity} objects, limit ${mb(limit)} MB, ${health.length} /health answers\n`);
    expect(growth).toBeLessThan(limit / 4);
  });
});
