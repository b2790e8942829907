// Read replicas against a real streaming replica (README "Read replicas"): a primary and a replica of this file's own
// (test/support/replica-cluster.ts) and two server processes reading from it. A write through one process is read
// through the other at once, 1,000 times, on both read engines; the replica serves reads of a team it has caught up
// with; a paused replica and a killed one cost no wrong or failed answer. Skipped without PostgreSQL's server binaries
// (unless REQUIRE_REPLICA=1, as in CI).
import { randomUUID } from "node:crypto";
import { replicaBinaries, replicaRequired, startReplicaCluster, type ReplicaCluster } from "../support/replica-cluster";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../support/server";

// It brings its own databases, so one pass of CI is enough: the PostgreSQL one (DATABASE_URL set).
const available = replicaBinaries() !== null && Boolean(process.env.DATABASE_URL);
if (!available && !replicaRequired) {
  console.warn(
    "test/system/read-replicas.test.ts skipped: it runs with DATABASE_URL set (the PostgreSQL pass) and needs PostgreSQL's server binaries " +
      "(initdb, pg_ctl, pg_basebackup in /usr/lib/postgresql/15/bin); REQUIRE_REPLICA=1 makes missing binaries a failure.",
  );
}

const METRICS_TOKEN = `metrics-${randomUUID()}`;

(available || (replicaRequired && process.env.DATABASE_URL) ? describe : describe.skip)("read replicas", () => {
  let cluster: ReplicaCluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let auth: { Authorization: string };
  let reportId: string;
  /** One report per lane of the read-your-writes test (lanes run side by side, each a write then a read). */
  let laneReports: string[];

  beforeAll(async () => {
    cluster = await startReplicaCluster();
    const env = childEnv("", {
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URLS: cluster.replicaUrl,
      METRICS_TOKEN,
      RATE_LIMIT_ENTERPRISE: "10000000",
    });
    delete env.REDIS_URL;
    delete env.DATABASE_DIRECT_URL;
    // The first applies the migrations (on the primary: the replica replays them), then the second starts.
    a = await startServer(env);
    b = await startServer(env);
    const { key } = await cliTeamAndKey(env, ["--tier", "enterprise"]);
    auth = { Authorization: `Bearer ${key}` };
    const create = async (address: string) => ((await call(a, "POST", "/v1/reports", { address, price: 1 })).data as { id: string }).id;
    reportId = await create("1 Replica Way");
    laneReports = await Promise.all([1, 2, 3, 4].map((lane) => create(`${lane} Lane Way`)));
  }, 240_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    cluster?.stop();
  }, 60_000);

  async function call(server: ServerProcess, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    return json;
  }

  /** The report's price as `server` reads it: REST's detail (one statement), or GraphQL forced onto the resolvers. */
  async function priceOn(server: ServerProcess, engine: "rest" | "resolvers", id = reportId): Promise<unknown> {
    if (engine === "rest") return ((await call(server, "GET", `/v1/reports/${id}`)).data as { price: unknown }).price;
    const query = "query($id: ID!) { report(id: $id) @include(if: true) { price } }";
    const answer = await call(server, "POST", "/graphql", { query, variables: { id } });
    return (answer.data as { report: { price: unknown } }).report.price;
  }

  const setPrice = (server: ServerProcess, price: number, id = reportId) => call(server, "PATCH", `/v1/reports/${id}`, { price });

  /** Reads served per target so far by `server` (prs_db_reads_total). */
  async function readsOf(server: ServerProcess): Promise<{ primary: number; replica: number }> {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const count = (target: string) => Number(new RegExp(`^prs_db_reads_total\\{target="${target}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { primary: count("primary"), replica: count("replica") };
  }

  const replicaStatus = async (server: ServerProcess): Promise<string> => {
    const body = (await (await fetch(`${server.url}/ready`)).json()) as { checks: { replicas?: Array<{ status: string }> } };
    return body.checks.replicas?.[0]?.status ?? "none";
  };

  async function untilStatus(server: ServerProcess, status: string): Promise<void> {
    for (let i = 0; i < 100 && (await replicaStatus(server)) !== status; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await replicaStatus(server)).toBe(status);
  }

  it("a write through one process is read through the other at once, 1,000 times, by both engines", async () => {
    await untilStatus(b, "ok");
    let stale = 0;
    let trials = 0;
    // Four lanes of 250 trials, each on its own report: a write through A, then at once the read through B.
    await Promise.all(
      laneReports.map(async (id) => {
        for (let i = 0; i < 250; i++, trials++) {
          const price = 1000 + i;
          await setPrice(a, price, id);
          if ((await priceOn(b, i % 2 ? "resolvers" : "rest", id)) !== price) stale++;
        }
      }),
    );
    expect({ trials, stale }).toEqual({ trials: 1000, stale: 0 });
    const reads = await readsOf(b);
    console.log(`read-your-writes: 1,000 reads right after a write on another process, 0 stale; served by the replica ${reads.replica}, by the primary ${reads.primary}`);
    expect(reads.primary + reads.replica).toBeGreaterThanOrEqual(1000);
  }, 240_000);

  it("serves a share of a mixed run's reads from the replica, every answer current", async () => {
    const before = await readsOf(b);
    let price = 5000;
    for (let i = 0; i < 300; i++) {
      if (i % 10 === 0) await setPrice(a, ++price);
      expect(await priceOn(b, i % 2 ? "resolvers" : "rest")).toBe(price);
      // Reads spread over time, as a client's are: the replica's replay position is polled every 150 ms
      // (src/db/replicas.ts), so nine reads in a burst right after a write all went to the primary on a fast machine.
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    const after = await readsOf(b);
    const replica = after.replica - before.replica;
    const primary = after.primary - before.primary;
    console.log(`mixed run (1 write in 10): ${replica} of ${replica + primary} reads served by the replica (${Math.round((100 * replica) / (replica + primary))} %)`);
    expect(replica).toBeGreaterThan(0);
  }, 120_000);

  it("with replay paused, reads go to the primary and stay current; /ready says lagging", async () => {
    await cluster.onReplica("SELECT pg_wal_replay_pause()");
    try {
      await Promise.all([untilStatus(a, "lagging"), untilStatus(b, "lagging")]);
      const before = await readsOf(b);
      for (let i = 0; i < 50; i++) {
        await setPrice(a, 7000 + i);
        expect(await priceOn(b, i % 2 ? "resolvers" : "rest")).toBe(7000 + i);
      }
      const after = await readsOf(b);
      expect(after.replica).toBe(before.replica);
      expect(after.primary - before.primary).toBe(50);
    } finally {
      await cluster.onReplica("SELECT pg_wal_replay_resume()");
    }
    await untilStatus(b, "ok");
  }, 120_000);

  it("a replica killed mid-run fails no request; /ready then says down", async () => {
    await cluster.caughtUp();
    let failed = 0;
    let wrong = 0;
    let price = 9000;
    const run = (async () => {
      for (let i = 0; i < 300; i++) {
        try {
          if (i % 10 === 0) await setPrice(a, ++price);
          if ((await priceOn(b, i % 2 ? "resolvers" : "rest")) !== price) wrong++;
        } catch (err) {
          failed++;
          console.error(err);
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    cluster.killReplica();
    await run;
    expect({ failed, wrong }).toEqual({ failed: 0, wrong: 0 });
    await untilStatus(b, "down");
  }, 120_000);
});
