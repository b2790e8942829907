// Read cost's CPU per request (BENCHMARKS.md "Read cost"): what pricing and charging adds to a request, measured on
// its own over many calls — the REST detail's price (kept per document after its first estimate) and charge, and the
// nested page's charge (its estimate is the one the limits already made) with extensions.cost written into the
// answer — in this process's memory store, and with REDIS_URL set in Redis (a busy key's points taken in blocks).
// npx tsx bench/micro/read-cost.ts   (REDIS_URL=redis://127.0.0.1:6379 for the Redis store)
import { randomUUID } from "node:crypto";
import { parse } from "graphql";
import { createRateLimiter } from "../../src/auth/rate-limit";
import type { Context } from "../../src/context";
import { schema } from "../../src/schema";
import { chargeRestDocument, charge, costOf, readPrice } from "../../src/schema/read-cost";
import { operationEstimate } from "../../src/schema/limits";
import { restOperations } from "../../src/rest/graphql";
import "../../src/rest";

const N = Number(process.env.N ?? 20_000);

async function main(): Promise<void> {
  const limiter = createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix: `prs:bench:${randomUUID()}` });
  await limiter.ready();
  const detail = restOperations.find((op) => op.name === "RestReport")!;
  const nested = parse(`query($limit: Int!) { reports(limit: $limit) { total items { id address price status showingsCount
    comparables { id address price distanceMiles } showings { id attendeeName eventType showingDate }
    socialMediaPosts { id platform likes postedAt } agentInsights { id title body } } } }`);
  const context = (): Context => ({
    viewer: { keyId: "k", keyPrefix: "p", teamId: randomUUID(), permissions: {} as never, tier: "enterprise" },
    rateLimit: null,
    rateLimiter: limiter,
    rateKey: "key:bench",
  });
  const variables = { id: randomUUID() };
  await chargeRestDocument(schema, detail.document, "query", context(), variables); // its estimate, once
  const estimate = operationEstimate(schema, nested, {}, { limit: 50 })!;
  const rows: string[] = [];
  const measure = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 500; i++) await fn();
    const start = process.cpuUsage();
    const wall = performance.now();
    for (let i = 0; i < N; i++) await fn();
    const cpu = process.cpuUsage(start);
    rows.push(`${label}: ${(((cpu.user + cpu.system) / N) as number).toFixed(1)} µs CPU, ${(((performance.now() - wall) * 1000) / N).toFixed(1)} µs wall per request`);
  };
  await measure(`REST detail (${detail.name}): price + charge`, () => chargeRestDocument(schema, detail.document, "query", context(), { id: randomUUID() }));
  await measure("nested page (50 reports × 4): charge + extensions.cost", async () => {
    const c = context();
    await charge(c, readPrice(estimate));
    return JSON.stringify({ extensions: { cost: costOf(c) } });
  });
  rows.push(`(nested page price at limit 50: ${readPrice(estimate)} points; store: ${process.env.REDIS_URL ? "Redis" : "memory"})`);
  await limiter.close();
  process.stdout.write(`${rows.join("\n")}\n`);
  process.exit(0);
}

void main();
