// Read replicas: what a replica takes off the primary, and what the choice costs. A primary and a streaming replica of
// its own (test/support/replica-cluster.ts), one server process without replicas and one with, both on that primary;
// autocannon sends GET /v1/reports/{id} (the one-statement read) to each in turn, then the same with one write in ten.
// Prints requests per second, p99, and per request the statements and execution time of each server
// (pg_stat_statements), the primary's CPU (its server processes, from /proc), and which server answered the reads
// (the service's prs_db_reads_total).
//   npx tsx bench/replicas.ts            (SECONDS=8 CONNECTIONS=8 by default)
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import pg from "pg";
import { startReplicaCluster, type ReplicaCluster } from "../test/support/replica-cluster";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../test/support/server";

const SECONDS = Number(process.env.SECONDS ?? 8);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);

/** Statements run and their execution time (ms) on the server at `url` so far (pg_stat_statements). */
async function statements(url: string): Promise<{ calls: number; ms: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sql = "SELECT coalesce(sum(calls), 0)::float8 AS calls, coalesce(sum(total_exec_time), 0)::float8 AS ms FROM pg_stat_statements WHERE query !~* 'pg_stat_statements|pg_last_wal|pg_current_wal'";
    const { rows } = await client.query<{ calls: number; ms: number }>(sql);
    return rows[0];
  } finally {
    await client.end();
  }
}

/** CPU so far of each of a PostgreSQL server's processes (the postmaster and its children), in µs, by pid. */
function serverCpu(postmaster: number): Map<number, number> {
  const cpu = (pid: number) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      return 0; // exited
    }
  };
  const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  return new Map([postmaster, ...children].map((pid) => [pid, cpu(pid)]));
}

/** CPU spent between two readings by the processes alive at the second (one started in between counts from 0). */
const spent = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

/** The postmaster of the server at `url` (the parent of a backend). */
async function postmasterOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return Number(readFileSync(`/proc/${rows[0].pid}/stat`, "utf8").split(") ")[1].split(" ")[1]);
  } finally {
    await client.end();
  }
}

const METRICS_TOKEN = "bench-replicas-metrics";

/** Reads a server process answered from each target so far (prs_db_reads_total). */
async function readsOf(server: ServerProcess): Promise<{ primary: number; replica: number }> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const count = (target: string) => Number(new RegExp(`^prs_db_reads_total\\{target="${target}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
  return { primary: count("primary"), replica: count("replica") };
}

async function measure(label: string, cluster: ReplicaCluster, server: ServerProcess, auth: string, id: string, writes: boolean, primary: number) {
  const [p0, r0] = [await statements(cluster.primaryUrl), await statements(cluster.replicaUrl)];
  const [cpu0, reads0] = [serverCpu(primary), await readsOf(server)];
  let n = 0;
  const read = { method: "GET", path: `/v1/reports/${id}` };
  const headers = { Authorization: `Bearer ${auth}`, "Content-Type": "application/json" };
  const write = () => ({ method: "PATCH", path: `/v1/reports/${id}`, headers, body: JSON.stringify({ price: ++n }) });
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { Authorization: `Bearer ${auth}` },
    requests: [{ ...read, setupRequest: (req) => (writes && n % 10 === 9 ? write() : (n++, { ...req, ...read })) }],
  });
  const [cpu1, reads1] = [serverCpu(primary), await readsOf(server)];
  const [p1, r1] = [await statements(cluster.primaryUrl), await statements(cluster.replicaUrl)];
  const total = result.requests.total;
  const [onPrimary, onReplica] = [reads1.primary - reads0.primary, reads1.replica - reads0.replica];
  const latency = (result as unknown as { latency: { p99: number } }).latency.p99;
  console.log(
    `${label.padEnd(36)} ${Math.round(total / SECONDS)} req/s, p99 ${latency} ms, non-2xx ${result.non2xx}, ` +
      `a request: primary ${((p1.calls - p0.calls) / total).toFixed(2)} statements ${((1000 * (p1.ms - p0.ms)) / total).toFixed(0)} µs, ` +
      `replica ${((r1.calls - r0.calls) / total).toFixed(2)} statements ${((1000 * (r1.ms - r0.ms)) / total).toFixed(0)} µs; ` +
      `primary's CPU ${(spent(cpu0, cpu1) / total).toFixed(0)} µs a request` +
      (onPrimary + onReplica ? `; reads answered by the replica ${onReplica} of ${onPrimary + onReplica} (${((100 * onReplica) / (onPrimary + onReplica)).toFixed(0)} %)` : ""),
  );
}

async function main(): Promise<void> {
  const cluster = await startReplicaCluster();
  const servers: ServerProcess[] = [];
  try {
    const env = childEnv("", { DATABASE_URL: cluster.primaryUrl, RATE_LIMIT_ENTERPRISE: "100000000", LOG_LEVEL: "info", METRICS_TOKEN });
    delete env.REDIS_URL;
    delete env.DATABASE_DIRECT_URL;
    servers.push(await startServer(env));
    servers.push(await startServer({ ...env, DATABASE_REPLICA_URLS: cluster.replicaUrl }));
    const { key } = await cliTeamAndKey(env, ["--tier", "enterprise"]);
    const res = await fetch(`${servers[0].url}/v1/reports`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ address: "1 Bench Way", price: 1 }),
    });
    const { id } = ((await res.json()) as { data: { id: string } }).data;
    for (const url of [cluster.primaryUrl]) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await client.end();
    }
    await cluster.caughtUp();
    const primary = await postmasterOf(cluster.primaryUrl);
    for (const writes of [false, true]) {
      await measure(`primary only${writes ? ", 1 write in 10" : ""}`, cluster, servers[0], key, id, writes, primary);
      await measure(`with the replica${writes ? ", 1 write in 10" : ""}`, cluster, servers[1], key, id, writes, primary);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    cluster.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
