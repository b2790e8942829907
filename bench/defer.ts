// The nested page with its collections deferred (BENCHMARKS.md "Read cost and incremental delivery"): one process on
// the embedded database in memory (or DATABASE_URL: a database of its own, it adds a team each run), 50 reports × (10 showings + 10 comparables), the page's collections at limit 10.
// Three sides, one request at a time, alternated in blocks: the page without @defer (one statement, JSON), the
// collections in `... @defer { }` (two statements, multipart/mixed), and the same with `@defer(if: $yes)`, which
// keeps the document on graphql-tools' executor over the resolvers. Prints each side's medians of the time to the
// first part's bytes and to the end of the answer, and the answer's bytes.
//   PGLITE_DATA_DIR=memory:// LOG_LEVEL=silent npx tsx bench/defer.ts [requests per block]
//   DATABASE_URL=postgresql://…/prs_bench_defer LOG_LEVEL=silent npx tsx bench/defer.ts [requests per block]
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createApiKey } from "../src/auth/api-keys";
import { parsePermissions } from "../src/auth/permissions";
import { createRateLimiter } from "../src/auth/rate-limit";
import { buildApp } from "../src/app";
import { config } from "../src/config";
import { database, prisma } from "../src/db";
import { createAppServer } from "../src/http/server";

const FIELDS = "id address description price beds baths sqft status";
const COLLECTIONS = "showings(limit: 10) { id attendeeName showingDate eventType } comparables(limit: 10) { id address price distanceMiles }";
const SIDES = {
  "without @defer (JSON, one statement)": { query: `{ reports(limit: 50) { items { ${FIELDS} ${COLLECTIONS} } } }`, accept: "application/json" },
  "collections in ... @defer (two statements)": { query: `{ reports(limit: 50) { items { ${FIELDS} ... @defer { ${COLLECTIONS} } } } }`, accept: "multipart/mixed" },
  "collections in ... @defer(if: $yes) (the resolvers)": {
    query: `query($yes: Boolean!) { reports(limit: 50) { items { ${FIELDS} ... @defer(if: $yes) { ${COLLECTIONS} } } } }`,
    accept: "multipart/mixed",
  },
};

async function seed(): Promise<string> {
  const team = await prisma.team.create({ data: { name: `Bench defer ${randomUUID().slice(0, 8)}`, adminName: "Bench" } });
  for (let r = 0; r < 50; r++) {
    await prisma.report.create({
      data: {
        teamId: team.id, address: `${r} Defer Way`, addressKey: `${r} defer way`, searchKey: `${r} defer way`, listingAgent: "A", createdBy: "B", description: "A bright house. ".repeat(20),
        showings: { create: Array.from({ length: 10 }, (_, i) => ({ attendeeName: `Visitor ${i}`, showingDate: new Date() })) },
        comparables: { create: Array.from({ length: 10 }, (_, i) => ({ address: `${i} Comp St`, price: 400_000 + i })) },
      },
    });
  }
  return (await createApiKey({ teamId: team.id, name: "bench", permissions: parsePermissions("reports:read,showings:read,comparables:read"), tier: "enterprise" })).key;
}

/** One request: ms to the first bytes of the answer's body, ms to its end, bytes. */
async function timed(base: string, key: string, side: (typeof SIDES)[keyof typeof SIDES]) {
  const started = performance.now();
  const res = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", Accept: side.accept },
    body: JSON.stringify({ query: side.query, variables: side.query.includes("$yes") ? { yes: true } : {} }),
  });
  let first = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!first) first = performance.now() - started;
    bytes += chunk.length;
  }
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return { first, last: performance.now() - started, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (!config.DATABASE_URL && config.PGLITE_DATA_DIR !== "memory://") throw new Error("run it with PGLITE_DATA_DIR=memory://, or DATABASE_URL naming a database of its own");
  await database.migrate();
  const rateLimiter = createRateLimiter({ keyPrefix: `prs:bench:${randomUUID()}` });
  const { server } = createAppServer(buildApp({ rateLimiter }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const key = await seed();
  const perBlock = Number(process.argv[2] ?? 10);
  const results = new Map<string, Array<{ first: number; last: number; bytes: number }>>();
  for (const side of Object.values(SIDES)) for (let i = 0; i < 2; i++) await timed(base, key, side); // warm-up
  for (let block = 0; block < 2; block++) {
    for (const [name, side] of Object.entries(SIDES)) {
      for (let i = 0; i < perBlock; i++) results.set(name, [...(results.get(name) ?? []), await timed(base, key, side)]);
    }
  }
  for (const [name, runs] of results) {
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    console.log(`${name}: first bytes ${ms(median(runs.map((r) => r.first)))}, last ${ms(median(runs.map((r) => r.last)))}, ${runs[0].bytes} bytes (median of ${runs.length})`);
  }
  server.close();
  await rateLimiter.close();
  await database.close();
}

void main().then(() => process.exit(0));
