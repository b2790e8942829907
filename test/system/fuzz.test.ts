// Property-based fuzzing of both interfaces: requests derived from the OpenAPI document
// and the GraphQL schema the app serves, each answer checked for: no 5xx; the JSON error envelope with the right
// status on REST, a JSON `data`/`errors` body on GraphQL; success only for requests the oracle cannot prove invalid;
// nothing stored changed by a refused request; the other team's rows never change or appear; what was stored reads back.
// FUZZ_RUNS (default 2000 cases, about 5,000 requests, per pass with CI=true; 400 otherwise), FUZZ_SEED (fixed when CI=true, random otherwise; printed), FUZZ_SURVEY=1 (list
// every failure class instead of stopping at the first) — see test/fuzz/README.md.
import { fuzzDatabase } from "../fuzz/env";
import fc from "fast-check";
import { readsServed } from "../../src/db/replicas";
import { introspect, gqlCaseArb, runGql, type GqlModel } from "../fuzz/graphql";
import { FUZZ_RUNS, REPLAY, SEED, SURVEY, summarise, World } from "../fuzz/harness";
import { aliasedCaseArb, runAliased } from "../fuzz/mutations";
import { makeLinks, pageCaseArb, runPage } from "../fuzz/pages";
import { operationsOf, readersOf, restCaseArb, runRest, seedRows, type Operation } from "../fuzz/rest";
import { raceCaseArb, racingOps, runRace } from "../fuzz/races";
import { runStreams, streamCaseArb, streamWorld } from "../fuzz/streams";

jest.setTimeout(30 * 60_000);

const REST_RUNS = Math.round(FUZZ_RUNS * 0.65);
const GRAPHQL_RUNS = FUZZ_RUNS - REST_RUNS;

let world: World;
let ops: Operation[];
let readers: Operation[];
let model: GqlModel;
const chain: { reportId?: string } = {};
let sinceSeed = 0;

beforeAll(async () => {
  process.stdout.write(`fuzz: seed ${SEED}, ${FUZZ_RUNS} runs${SURVEY ? " (survey)" : ""}; replay: ${REPLAY}\n`);
  await fuzzDatabase?.create();
  world = await World.open();
  ops = operationsOf(world.doc);
  readers = readersOf(ops);
  model = await introspect(world);
  await seedRows(world, ops, "other", 3, SEED);
  await seedRows(world, ops, "own", 3, SEED + 1);
});

afterAll(async () => {
  if (SURVEY && world) process.stdout.write(`\nfuzz survey: ${world.failures.length} failing answers\n\n${summarise(world.failures)}\n`);
  await world?.close();
  await fuzzDatabase?.drop();
});

/** Keeps rows to name: new ones every 250 runs, or when the team has fewer than 3 rows of a table a path names. */
async function keepRows(): Promise<void> {
  const mine = world.state[world.own.teamId];
  const named = new Set(ops.flatMap((op) => op.params.filter((p) => p.in === "path").map((p) => world.tableFor(p.name))));
  const thin = [...named].some((t) => t && t !== "teams" && t !== "api_keys" && (mine[t]?.ids.length ?? 0) < 3);
  if (++sinceSeed >= 250 || thin) {
    sinceSeed = 0;
    await seedRows(world, ops, "own", thin ? 3 : 1, SEED + world.client.count);
  }
}

async function fuzz<T>(name: string, arb: fc.Arbitrary<T>, runs: number, seed: number, run: (c: T) => Promise<void>): Promise<void> {
  const started = Date.now();
  const sent = world.client.count;
  const timing = { ...world.timing };
  world.statuses.clear();
  let cases = 0;
  try {
    await fc.assert(
      fc.asyncProperty(arb, async (c) => {
        cases++;
        await keepRows();
        await run(c);
      }),
      { numRuns: runs, seed, verbose: 0 },
    );
  } finally {
    const seconds = (Date.now() - started) / 1000;
    const byClass = new Map<string, number>();
    for (const [key, n] of world.statuses) {
      const cls = `${key.slice(key.lastIndexOf(" ") + 1, key.lastIndexOf(" ") + 2)}xx`;
      byClass.set(cls, (byClass.get(cls) ?? 0) + n);
    }
    process.stdout.write(
      `fuzz ${name}: ${cases} cases${cases > runs ? ` (${runs} + shrinking)` : ""}, ${world.client.count - sent} requests in ${seconds.toFixed(1)} s (seed ${seed}; ` +
        `${[...byClass].map(([c, n]) => `${n} ${c}`).join(", ")}; ` +
        `${((world.timing.send - timing.send) / 1000).toFixed(1)} s answering, ${((world.timing.refresh - timing.refresh) / 1000).toFixed(1)} s reading the store)\n`,
    );
  }
}

it("answers every REST request derived from the OpenAPI document without a 5xx, with the envelope, and changes nothing when it refuses", async () => {
  expect(ops.length).toBeGreaterThan(0);
  await fuzz("REST", restCaseArb(world, ops), REST_RUNS, SEED, (c) => runRest(world, c, readers));
});

it("answers every GraphQL request derived from the schema without a 5xx, as JSON, and changes nothing when it refuses", async () => {
  expect(model.fields.length).toBeGreaterThan(0);
  await fuzz("GraphQL", gqlCaseArb(world, model), GRAPHQL_RUNS, SEED + 1, (c) => runGql(world, model, c, readers, chain));
});

it("charges a document of many aliased mutations one point per root field: run with its cost counted, or refused whole (429)", async () => {
  await fuzz("aliased mutations", aliasedCaseArb(), Math.max(20, Math.round(FUZZ_RUNS / 40)), SEED + 2, (c) => runAliased(world, c));
});

it("answers every path under /r (share links' public pages) without a 5xx, as a page, opening only a live link's own report", async () => {
  const links = await makeLinks(world);
  await fuzz("share pages", pageCaseArb(links), Math.max(100, Math.round(FUZZ_RUNS / 4)), SEED + 4, (c) => runPage(world, links, c));
});

it("answers a write to a report racing the report's delete with 2xx or 404, never 5xx, and leaves nothing pointing at it", async () => {
  const racing = await racingOps(world, ops);
  expect(racing.length).toBeGreaterThan(0);
  await fuzz("race pairs", raceCaseArb(world, racing), Math.max(20, Math.round(FUZZ_RUNS / 40)), SEED + 3, (c) => runRace(world, c));
});

it("opens many live streams per team through several keys: 200 or a 429 naming the full cap, every event once, one selection's bytes alike", async () => {
  const w = await streamWorld(world);
  await fuzz("live streams", streamCaseArb(), Math.max(6, Math.round(FUZZ_RUNS / 200)), SEED + 5, (c) => runStreams(w, c));
});

// .ci/run runs this file once more with a streaming replica (test/support/with-replica.ts): the cases above were then
// answered by a service that sends a team's reads to the replica once it has replayed the team's last write.
(process.env.DATABASE_REPLICA_URLS ? it : it.skip)("with a replica configured, the replica answered some of the reads above", () => {
  process.stdout.write(`fuzz reads: ${readsServed.replica} on the replica, ${readsServed.primary} on the primary\n`);
  expect(readsServed.replica).toBeGreaterThan(0);
});
