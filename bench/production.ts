// The service as it runs in production (BENCHMARKS "Production topology"), not the bench build of bench/server.ts:
// the real start command's process, with rate limits counted, on a seeded database.
//
//   npx tsx bench/production.ts build       compiled (`npm start`: node dist/server.js) vs the sources through tsx:
//                                           time to the first answer, RSS after start, CPU per REST detail
//   npx tsx bench/production.ts topology    1 vs 2 processes (WEB_CONCURRENCY) behind PgBouncer in transaction
//                                           mode: req/s and CPU per request of the nested page and the REST detail,
//                                           then p50/p99 of both at one fixed offered load
//   npx tsx bench/production.ts cache       HTTP caching (issue 34): the nested page by documentId over GET, answered
//                                           from the response cache and revalidated (304), vs the same page by POST
//
// `build` runs on the embedded database unless DATABASE_URL is set; `topology` needs DATABASE_URL (PostgreSQL, a
// database of its own: it is seeded), REDIS_URL and Debian's pgbouncer. ROUNDS (default 5) rounds per side.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { startPgBouncer } from "../test/support/pgbouncer";
import { benchDatabases } from "./databases";
import { bearer, cycle } from "./http";
import { measure, median, percentile, type Target } from "./load";
import { NESTED_QUERY } from "./scenarios/statements";
import { seed as seedDatabase } from "./seed";
import { freePort } from "../test/support/ports";

const ROOT = path.resolve(__dirname, "..");
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const log = (message: string) => process.stderr.write(`[production] ${message}\n`);

/** User + system CPU of a process and its children that are alive now, in µs (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const own = (p: number) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      return 0;
    }
  };
  return [pid, ...childrenOf(pid)].reduce((sum, p) => sum + own(p), 0);
}
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;


interface Service {
  port: number;
  pid: number;
  /** Milliseconds from spawn to the first answer of /health. */
  startMs: number;
  stop(): Promise<void>;
}

const COMMANDS = {
  compiled: ["--enable-source-maps", "dist/server.js"],
  tsx: ["--require", "tsx/cjs", "src/server.ts"],
};

async function startService(command: string[], env: Record<string, string | undefined>): Promise<Service> {
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, command, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORT: String(port),
      HOST: "127.0.0.1",
      ...Object.fromEntries(["FREE", "STANDARD", "PRO", "ENTERPRISE"].map((tier) => [`RATE_LIMIT_${tier}`, "1000000000"])),
      ...env,
    },
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const startMs = Date.now() - started;
  return {
    port,
    pid: child.pid!,
    startMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

interface Load {
  rps: number;
  cpuUsPerRequest: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One round at full speed (10 connections), with the CPU the service's processes spent on it. */
async function round(service: Service, target: Target, seconds: number): Promise<Load> {
  const before = cpuOf(service.pid);
  const m = await measure(target, 10, seconds);
  return { rps: m.rps, cpuUsPerRequest: (cpuOf(service.pid) - before) / m.requests, p50: m.p50, p99: m.p99, errors: m.errors };
}

/** A fixed offered load (`rate` requests/s in all, open loop from 50 connections) for `seconds`. */
async function atRate(service: Service, target: Target, rate: number, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  const before = cpuOf(service.pid);
  const instance = autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: 50,
    overallRate: rate,
    duration: seconds,
    headers: { "content-type": "application/json", ...target.headers },
    requests: [{ method: target.method ?? "GET", setupRequest: (req) => ({ ...req, ...((({ path: p, body }) => ({ path: p, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }))(target.next())) }) }],
  });
  instance.on("response", (_c, _s, _b, ms) => latencies.push(ms));
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / result.duration,
    cpuUsPerRequest: (cpuOf(service.pid) - before) / result.requests.total,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const mid = (loads: Load[]): Load => ({
  rps: median(loads.map((l) => l.rps)),
  cpuUsPerRequest: median(loads.map((l) => l.cpuUsPerRequest)),
  p50: median(loads.map((l) => l.p50)),
  p99: median(loads.map((l) => l.p99)),
  errors: loads.reduce((n, l) => n + l.errors, 0),
});
const row = (name: string, l: Load) =>
  `| ${name} | ${l.rps.toFixed(0)} | ${l.cpuUsPerRequest.toFixed(0)} | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.errors} |`;
const HEADER = "| side | req/s | CPU µs/request (all service processes) | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|";

async function seeded(databaseUrl: string | undefined) {
  const dbs = await benchDatabases(databaseUrl);
  const conn = await dbs.main.connect();
  const seed = await seedDatabase(conn, 1000);
  await conn.close();
  return { db: dbs.main, team: seed.nested };
}

async function build(): Promise<void> {
  const { db, team } = await seeded(process.env.DATABASE_URL || undefined);
  log(`build: ${db.label}, ${ROUNDS} rounds`);
  const detail = (port: number): Target => ({ port, headers: bearer(team.key), next: cycle(team.reportIds.map((id) => ({ path: `/v1/reports/${id}` }))) });
  const lines: string[] = [];
  const loads: Record<string, Load[]> = { compiled: [], tsx: [] };
  const starts: Record<string, Array<{ ms: number; rss: number }>> = { compiled: [], tsx: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, command] of Object.entries(COMMANDS)) {
      const service = await startService(command, { ...db.env, REDIS_URL: process.env.REDIS_URL });
      await new Promise((res) => setTimeout(res, 1000));
      starts[name].push({ ms: service.startMs, rss: rssMb(service.pid) });
      await round(service, detail(service.port), 1); // warm-up
      loads[name].push(await round(service, detail(service.port), 3));
      await service.stop();
    }
  }
  lines.push("| start command | first answer after spawn, ms | RSS 1 s after start, MB | REST detail req/s | CPU µs/request |", "|---|---|---|---|---|");
  for (const name of Object.keys(COMMANDS)) {
    const l = mid(loads[name]);
    lines.push(`| ${name} | ${median(starts[name].map((s) => s.ms)).toFixed(0)} | ${median(starts[name].map((s) => s.rss)).toFixed(0)} | ${l.rps.toFixed(0)} | ${l.cpuUsPerRequest.toFixed(0)} |`);
  }
  console.log(lines.join("\n"));
  db.remove();
}

async function topology(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl || !process.env.REDIS_URL) throw new Error("topology needs DATABASE_URL (PostgreSQL) and REDIS_URL");
  const { team } = await seeded(databaseUrl);
  const bouncer = await startPgBouncer(databaseUrl, 10);
  const pooled = bouncer.url(new URL(databaseUrl).pathname.slice(1));
  log(`topology: PgBouncer (transaction mode, 10 server connections) → ${new URL(databaseUrl).pathname.slice(1)}, ${ROUNDS} rounds`);
  const kinds = {
    "nested page (GraphQL, 50 reports)": (port: number): Target => ({ port, method: "POST", headers: bearer(team.key), next: () => ({ path: "/graphql", body: { query: NESTED_QUERY, variables: { limit: 50 } } }) }),
    "REST detail": (port: number): Target => ({ port, headers: bearer(team.key), next: cycle(team.reportIds.map((id) => ({ path: `/v1/reports/${id}` }))) }),
  };
  const full: Record<string, Load[]> = {};
  const services = { "1 process": await startService(COMMANDS.compiled, { DATABASE_URL: pooled, DATABASE_DIRECT_URL: databaseUrl, REDIS_URL: process.env.REDIS_URL, WEB_CONCURRENCY: "1" }), "2 processes": await startService(COMMANDS.compiled, { DATABASE_URL: pooled, DATABASE_DIRECT_URL: databaseUrl, REDIS_URL: process.env.REDIS_URL, WEB_CONCURRENCY: "2" }) };
  try {
    for (const [kind, target] of Object.entries(kinds)) {
      for (const service of Object.values(services)) await round(service, target(service.port), 1); // warm-up
      for (let r = 0; r < ROUNDS; r++) {
        for (const [name, service] of Object.entries(services)) (full[`${kind}, ${name}`] ??= []).push(await round(service, target(service.port), 2));
      }
    }
    const lines = ["Full speed (10 connections):", HEADER];
    for (const [name, loads] of Object.entries(full)) lines.push(row(name, mid(loads)));
    // One offered load for both sides: 60 % of what one process reached on each kind.
    lines.push("", "At a fixed offered load (60 % of one process's full speed; 50 connections, open loop, 5 s):", HEADER);
    for (const [kind, target] of Object.entries(kinds)) {
      const rate = Math.round(0.6 * mid(full[`${kind}, 1 process`]).rps);
      for (const [name, service] of Object.entries(services)) lines.push(row(`${kind}, ${name}, ${rate} req/s offered`, await atRate(service, target(service.port), rate, 5)));
    }
    console.log(lines.join("\n"));
  } finally {
    await Promise.all(Object.values(services).map((s) => s.stop()));
    await bouncer.stop();
  }
}

/** The nested page by POST (today's path) vs by documentId over GET: the cached answer and its 304 revalidation. */
async function cache(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl || !process.env.REDIS_URL) throw new Error("cache needs DATABASE_URL (PostgreSQL) and REDIS_URL");
  const { db, team } = await seeded(databaseUrl);
  const hash = createHash("sha256").update(NESTED_QUERY).digest("hex");
  const conn = await db.connect();
  await conn.query(`INSERT INTO graphql_documents (team_id, hash, text) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [team.teamId, hash, NESTED_QUERY]);
  await conn.close();
  const service = await startService(COMMANDS.compiled, { DATABASE_URL: databaseUrl, REDIS_URL: process.env.REDIS_URL });
  const byId = `/graphql?documentId=sha256:${hash}&variables=${encodeURIComponent(JSON.stringify({ limit: 50 }))}`;
  const first = await fetch(`http://127.0.0.1:${service.port}${byId}`, { headers: bearer(team.key) });
  const etag = first.headers.get("etag");
  if (first.status !== 200 || !etag) throw new Error(`GET by documentId answered ${first.status} without an ETag`);
  log(`cache: ${ROUNDS} rounds of 2 s per side, 10 connections (a 304 counts under errors: autocannon counts non-2xx)`);
  const sides: Record<string, Target> = {
    "nested page by POST (query text, no cache)": { port: service.port, method: "POST", headers: bearer(team.key), next: () => ({ path: "/graphql", body: { query: NESTED_QUERY, variables: { limit: 50 } } }) },
    "nested page by documentId over GET (response cache)": { port: service.port, headers: bearer(team.key), next: () => ({ path: byId }) },
    "nested page by documentId over GET, If-None-Match (304)": { port: service.port, headers: { ...bearer(team.key), "if-none-match": etag }, next: () => ({ path: byId }) },
  };
  const loads: Record<string, Load[]> = {};
  try {
    for (const target of Object.values(sides)) await round(service, target, 1); // warm-up
    for (let r = 0; r < ROUNDS; r++) for (const [name, target] of Object.entries(sides)) (loads[name] ??= []).push(await round(service, target, 2));
    console.log([HEADER, ...Object.entries(loads).map(([name, l]) => row(name, mid(l)))].join("\n"));
  } finally {
    await service.stop();
  }
}

const mode = process.argv[2];
const modes: Record<string, () => Promise<void>> = { build, topology, cache };
(modes[mode] ? modes[mode]() : Promise.reject(new Error("usage: npx tsx bench/production.ts build|topology|cache"))).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
