// The service as it runs in production (BENCHMARKS "Production topology"), not the bench build of bench/server.ts:
// the real start command's process, with rate limits counted, on a seeded database.
//
//   npx tsx bench/production.ts build       compiled (`npm start`'s node dist/server.js) vs the sources through tsx:
//                                           time to the first answer, RSS after start, CPU per REST detail
//   npx tsx bench/production.ts topology    1 vs 2 processes (WEB_CONCURRENCY) behind PgBouncer in transaction
//                                           mode: req/s and CPU per request of the nested page and the REST detail,
//                                           then p50/p99 of both at one fixed offered load
//   npx tsx bench/production.ts database    the default configuration (`npm start` with only DATABASE_URL, a direct
//                                           connection; POOLED=1: both sides behind PgBouncer in transaction mode)
//                                           against PostGraphile 5 on one database: req/s, the server's CPU and
//                                           PostgreSQL's CPU (the bench database's backends) per nested page and
//                                           per REST detail, sides alternated
//   npx tsx bench/production.ts cache       HTTP caching: the nested page by documentId over GET, answered
//                                           from the response cache, revalidated (304) and missing the cache, vs the
//                                           same page by POST and PostGraphile 5's (bench/peers.ts) on one database
//
// `build` runs on the embedded database unless DATABASE_URL is set; `topology` needs DATABASE_URL (PostgreSQL, a
// database of its own: it is seeded), REDIS_URL and Debian's pgbouncer; `cache` DATABASE_URL and REDIS_URL, and
// CPU_PROF=<dir> (`cache`, `database`) writes a V8 CPU profile of the service's process there; ONLY=<text> (`database`)
// measures only the requests whose kind holds it ("nested", "detail"). ROUNDS (default 5) rounds per side.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { startPgBouncer } from "../test/support/pgbouncer";
import { benchDatabases } from "./databases";
import { Redis } from "ioredis";
import { bearer, call, cycle } from "./http";
import { compareMany, measure, median, percentile, roundRatios, type Measurement, type Side, type SideSummary, type Target } from "./load";
import { ensurePostgraphile, startPostgraphile } from "./peers";
import { samePage } from "./scenarios/graphql-peers";
import { PEER_DETAIL_QUERY, PEER_NESTED_QUERY } from "./scenarios/peer-queries";
import { NESTED_QUERY } from "./scenarios/statements";
import { seed as seedDatabase } from "./seed";
import { freePort } from "../test/support/ports";
import { START_ARGS } from "./start-command";
import { measureWrk, wrkInstalled } from "./wrk";

const ROOT = path.resolve(__dirname, "..");
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Reports in a nested page (× 4 collections × 10 items), as in scenario 8. */
const PAGE = 50;
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
  compiled: START_ARGS,
  tsx: ["--require", "tsx/cjs", "src/server.ts"],
};

/** The compiled start command, writing a V8 CPU profile to CPU_PROF when set. */
const profiled = () => (process.env.CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROF}`, ...COMMANDS.compiled] : COMMANDS.compiled);

async function startService(command: string[], env: Record<string, string | undefined>): Promise<Service> {
  const port = await freePort();
  const started = Date.now();
  const child: ChildProcess = spawn(process.execPath, command, {
    cwd: ROOT,
    // Its log at npm start's level (info: a line per request), to /dev/null, or appended to SERVICE_LOG=<file>.
    stdio: ["ignore", process.env.SERVICE_LOG ? openSync(process.env.SERVICE_LOG, "a") : "ignore", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      // Production refuses to start on PostgreSQL without one (it encrypts contact data): every mode gets the same.
      DATA_ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
      PORT: String(port),
      // DATABASE_POOL_SIZE, when set, is the service's (its default otherwise, as `npm start` has it).
      ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
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

/**
 * HTTP caching: the nested page (50 reports × 4 collections × 10) five ways, loaded in rotating order in
 * each round (compareMany): by documentId over GET answered from the response cache, the same revalidated (304),
 * the same when its answer is not in the cache (a miss: each request's URL differs by a parameter no one reads, so
 * each is its own cache key — the work of the first request after a write, without the write), today's POST with
 * the query text (never cached), and PostGraphile 5 serving the same page from the same database.
 */
async function cache(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error("cache needs DATABASE_URL (PostgreSQL) and REDIS_URL");
  const { db, team } = await seeded(databaseUrl);
  const hash = createHash("sha256").update(NESTED_QUERY).digest("hex");
  const conn = await db.connect();
  await conn.query(`INSERT INTO graphql_documents (team_id, hash, text) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [team.teamId, hash, NESTED_QUERY]);
  await conn.close();
  ensurePostgraphile(log);
  const [service, postgraphile] = await Promise.all([startService(profiled(), { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl }), startPostgraphile(databaseUrl)]);
  // The bench's own view of the response cache (keys as src/yoga/use-http-cache.ts names them): its team's keys, to count
  // the misses' answers and drop them.
  const redis = new Redis(redisUrl);
  const teamKeys = async () => {
    const keys: string[] = [];
    for (let cursor = "0"; ; ) {
      const [next, batch] = await redis.scan(cursor, "MATCH", `prs:response:v2:${team.teamId}:*`, "COUNT", 1000);
      keys.push(...batch);
      if ((cursor = next) === "0") return keys;
    }
  };
  try {
    const page = { query: NESTED_QUERY, variables: { limit: PAGE } };
    const byId = `/graphql?documentId=sha256:${hash}&variables=${encodeURIComponent(JSON.stringify(page.variables))}`;
    let missNumber = 0;
    const missUrl = () => `${byId}&bench_miss=${++missNumber}`;
    const peerPage = { query: PEER_NESTED_QUERY, variables: { teamId: team.teamId, limit: PAGE } };

    // Checks before load: every way answers the same data (extensions.cost differs), the GET is kept under its ETag.
    // The ETag covers the Accept header: the checks send what the load does (autocannon sends none of its own).
    const headers = { ...bearer(team.key), accept: "application/json" };
    const posted = await call(service.port, "/graphql", { method: "POST", key: team.key, body: page, headers });
    const first = await call(service.port, byId, { key: team.key, headers });
    const again = await call(service.port, byId, { key: team.key, headers });
    const etag = first.headers.get("etag");
    const cachedKey = `prs:response:v2:${team.teamId}:${etag}`;
    const revalidated = await call(service.port, byId, { key: team.key, headers: { ...headers, "if-none-match": etag ?? "" } });
    const keysBefore = (await teamKeys()).length;
    const missed = await call(service.port, missUrl(), { key: team.key, headers });
    await new Promise((r) => setTimeout(r, 200)); // the answer is stored after it is sent
    const keysAfter = await teamKeys();
    const peer = await fetch(`http://127.0.0.1:${postgraphile.port}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(peerPage) });
    const peerText = await peer.text();
    const problems = [
      posted.status !== 200 && `POST answered ${posted.status}`,
      (first.status !== 200 || !etag) && `GET by documentId answered ${first.status} ${etag ? "" : "without an ETag"}`,
      [again, missed, first].some((got) => JSON.stringify(got.json().data) !== JSON.stringify(posted.json().data)) && "the GETs' data differ from the POST's",
      !keysAfter.includes(cachedKey) && "the GET's answer is not in the response cache under its ETag",
      revalidated.status !== 304 && `If-None-Match answered ${revalidated.status}`,
      keysAfter.length !== keysBefore + 1 && `a miss added ${keysAfter.length - keysBefore} keys (1 expected)`,
      (peer.status !== 200 || !samePage(posted.json(), JSON.parse(peerText))) && `PostGraphile's page differs (${peer.status})`,
    ].filter(Boolean);
    if (problems.length) throw new Error(`cache: ${problems.join("; ")}`);
    await redis.unlink(...keysAfter.filter((k) => k !== cachedKey)); // the check's miss
    log(`cache: bodies ${posted.text.length} bytes (service, all ways) / ${peerText.length} (PostGraphile); ${ROUNDS} rounds of 2 s per side, 10 connections, order rotating`);

    // CPU per request of each side's server process, from /proc around each round.
    const cpu: Record<string, number[]> = {};
    const withCpu = (name: string, pid: number, target: Target, after?: (m: Measurement) => Promise<void>): Side => {
      let before = 0;
      return {
        name,
        target,
        before: async () => void (before = cpuOf(pid)),
        after: async (m, warmup) => {
          if (!warmup) (cpu[name] ??= []).push((cpuOf(pid) - before) / m.requests);
          await after?.(m);
        },
      };
    };
    let missAnswers = 0;
    let missKeys = 0;
    let keysAfterHits = 0;
    const sides: Side[] = [
      withCpu("GET by documentId, answer in the response cache", service.pid, { port: service.port, headers, next: () => ({ path: byId }) }, async () => {
        keysAfterHits = Math.max(keysAfterHits, (await teamKeys()).filter((k) => k !== cachedKey).length);
      }),
      withCpu("GET by documentId, If-None-Match: 304", service.pid, { port: service.port, headers: { ...headers, "if-none-match": etag! }, next: () => ({ path: byId }) }),
      withCpu("GET by documentId, not in the cache (miss)", service.pid, { port: service.port, headers, next: () => ({ path: missUrl() }) }, async (m) => {
        missAnswers += m.statuses[200] ?? 0;
        // Every miss's answer was stored (one key each); they are dropped so Redis holds only the cached side's.
        await new Promise((r) => setTimeout(r, 200));
        const stored = (await teamKeys()).filter((k) => k !== cachedKey);
        missKeys += stored.length;
        if (stored.length) await redis.unlink(...stored);
      }),
      withCpu("POST /graphql, query text (today's path, not cached)", service.pid, { port: service.port, method: "POST", headers, next: () => ({ path: "/graphql", body: page }) }),
      withCpu("PostGraphile 5 (allReports, POST)", postgraphile.pid, { port: postgraphile.port, method: "POST", headers: { accept: headers.accept }, next: () => ({ path: "/graphql", body: peerPage }) }),
    ];
    const c = await compareMany(sides, { connections: 10, rounds: ROUNDS, seconds: 2, warmupSeconds: 1 }, "rps");
    const [cached, revalidation, miss, post, graphile] = c.sides;
    const answers = (s: SideSummary) =>
      Object.entries(s.rounds.reduce<Record<string, number>>((all, m) => {
        for (const [status, n] of Object.entries(m.statuses)) all[status] = (all[status] ?? 0) + n;
        return all;
      }, {})).map(([status, n]) => `${n} × ${status}`).join(", ");
    const lines = ["| side | req/s | CPU µs/request (its server process) | p50 ms | p99 ms | answers (all rounds) |", "|---|---|---|---|---|---|"];
    for (const s of c.sides) lines.push(`| ${s.name} | ${s.rps.toFixed(0)} | ${median(cpu[s.name]).toFixed(0)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${answers(s)} |`);
    const ratio = (name: string, a: SideSummary, b: SideSummary, target?: number) => {
      const r = roundRatios(a.rounds, b.rounds, "rps");
      const sorted = [...r.rounds].sort((x, y) => x - y);
      const verdict = target === undefined ? "" : ` — target ≥ ${target.toFixed(1)}×: ${r.ratio >= target ? "HOLDS" : "DOES NOT HOLD"}`;
      return `- ${name}: **${r.ratio.toFixed(2)}×** (rounds ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)})${verdict}`;
    };
    lines.push(
      "",
      ratio("cached answer vs PostGraphile 5", cached, graphile, 5),
      ratio("miss vs today's POST", miss, post, 1),
      ratio("304 vs PostGraphile 5", revalidation, graphile),
      ratio("cached answer vs today's POST", cached, post),
      ratio("today's POST vs PostGraphile 5", post, graphile),
      `- misses stored in the response cache during the measured and warm-up rounds: ${missKeys} keys for ${missAnswers} answers (each request its own key; requests in flight when a round ends are answered and stored but not counted); other keys than the cached answer's after a round of the cached side: at most ${keysAfterHits} (0: every request was a hit)`,
    );
    console.log(lines.join("\n"));
  } finally {
    redis.disconnect();
    await Promise.all([service.stop(), postgraphile.stop()]);
  }
}

const BENCH_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString("base64");

/** CPU so far of the PostgreSQL backends serving database `name` (their process titles name it), per pid. */
function backendsCpu(name: string): Map<number, number> {
  const found = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!cmdline.startsWith("postgres: ") || !cmdline.split(" ").includes(name)) continue;
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      found.set(Number(entry), (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // exited
    }
  }
  return found;
}
/** CPU the backends spent between two readings (a backend that started in between counts from 0). */
const backendsSpent = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

/**
 * The default configuration against PostGraphile 5 with the database's CPU beside req/s: the nested page (50 reports
 * × 4 collections) and the REST detail, each side its own process on the same seeded database, the two sides of a
 * kind alternated round by round (compareMany). PostgreSQL's CPU is that of the backends serving the bench database
 * (from /proc), so other databases' work on a shared server is not counted. POOLED=1 puts PgBouncer (transaction
 * mode, 10 server connections) in front of both sides, the service given no setting but the pooled DATABASE_URL.
 */
async function databaseCpu(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("database needs DATABASE_URL (PostgreSQL, a database of its own: it is seeded)");
  const name = new URL(databaseUrl).pathname.slice(1);
  const { team } = await seeded(databaseUrl);
  ensurePostgraphile(log);
  const bouncer = process.env.POOLED ? await startPgBouncer(databaseUrl, 10) : undefined;
  const url = bouncer ? bouncer.url(name) : databaseUrl;
  const [service, postgraphile] = await Promise.all([
    // MAX_RESPONSE_BYTES passes through when set (the default answers this page: its estimate prices the long texts
    // at the longest the team stored).
    startService(profiled(), {
      DATABASE_URL: url,
      ...(bouncer ? { DATABASE_DIRECT_URL: databaseUrl } : {}),
      ...(process.env.MAX_RESPONSE_BYTES ? { MAX_RESPONSE_BYTES: process.env.MAX_RESPONSE_BYTES } : {}),
    }),
    startPostgraphile(url),
  ]);
  // Both sides answer the same page before anything is measured (a fast error would measure nothing).
  const post = (port: number, body: object, headers: Record<string, string> = {}) =>
    fetch(`http://127.0.0.1:${port}/graphql`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const mine = await post(service.port, { query: NESTED_QUERY, variables: { limit: PAGE } }, bearer(team.key));
  const mineText = await mine.text();
  const theirs = await post(postgraphile.port, { query: PEER_NESTED_QUERY, variables: { teamId: team.teamId, limit: PAGE } });
  const theirText = await theirs.text();
  if (mine.status !== 200 || theirs.status !== 200 || !samePage(JSON.parse(mineText), JSON.parse(theirText))) {
    throw new Error(`database: the nested pages differ (service ${mine.status}, PostGraphile ${theirs.status}): ${mineText.slice(0, 300)}`);
  }
  log(`database: nested page bodies ${mineText.length} bytes (service) / ${theirText.length} (PostGraphile), the same reports and items`);
  // wrk when Debian's package is there (LOAD=autocannon: the bench's own): bench/wrk.ts says why.
  const load = wrkInstalled() && process.env.LOAD !== "autocannon" ? measureWrk : undefined;
  log(`database: ${bouncer ? "both behind PgBouncer (transaction mode)" : "direct connections"} to ${name}, ${ROUNDS} rounds of 3 s per side, 10 connections, load from ${load ? "wrk" : "autocannon"}`);
  const cpu: Record<string, { server: number[]; postgres: number[] }> = {};
  const withCpu = (side: string, pid: number, target: Target): Side => {
    let before = { server: 0, postgres: new Map<number, number>() };
    return {
      name: side,
      target,
      before: async () => void (before = { server: cpuOf(pid), postgres: backendsCpu(name) }),
      after: async (m, warmup) => {
        if (warmup) return;
        const entry = (cpu[side] ??= { server: [], postgres: [] });
        entry.server.push((cpuOf(pid) - before.server) / m.requests);
        entry.postgres.push(backendsSpent(before.postgres, backendsCpu(name)) / m.requests);
      },
    };
  };
  const ids = () => cycle(team.reportIds);
  const kinds: Array<[string, Side[]]> = [
    [
      "nested page (50 reports × 4 collections)",
      [
        withCpu("service, POST /graphql", service.pid, { port: service.port, method: "POST", headers: bearer(team.key), next: () => ({ path: "/graphql", body: { query: NESTED_QUERY, variables: { limit: PAGE } } }) }),
        withCpu("PostGraphile 5, allReports", postgraphile.pid, { port: postgraphile.port, method: "POST", next: () => ({ path: "/graphql", body: { query: PEER_NESTED_QUERY, variables: { teamId: team.teamId, limit: PAGE } } }) }),
      ],
    ],
    [
      "REST detail",
      (() => {
        const [mine, theirs] = [ids(), ids()];
        return [
          withCpu("service, GET /v1/reports/{id}", service.pid, { port: service.port, headers: bearer(team.key), next: () => ({ path: `/v1/reports/${mine()}` }) }),
          withCpu("PostGraphile 5, reportByRowId", postgraphile.pid, { port: postgraphile.port, method: "POST", next: () => ({ path: "/graphql", body: { query: PEER_DETAIL_QUERY, variables: { id: theirs() } } }) }),
        ];
      })(),
    ],
  ];
  try {
    const lines = [
      "| kind | side | req/s | PostgreSQL CPU µs/request | server CPU µs/request | p50 ms | p99 ms | non-2xx/errors |",
      "|---|---|---|---|---|---|---|---|",
    ];
    const ratios: string[] = [];
    for (const [kind, sides] of kinds.filter(([kind]) => !process.env.ONLY || kind.includes(process.env.ONLY))) {
      const c = await compareMany(sides, { connections: 10, rounds: ROUNDS, seconds: 3, warmupSeconds: 2, load }, "rps");
      for (const s of c.sides) {
        const mine = cpu[s.name];
        lines.push(`| ${kind} | ${s.name} | ${s.rps.toFixed(0)} | ${median(mine.postgres).toFixed(0)} | ${median(mine.server).toFixed(0)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.errors} |`);
      }
      const [a, b] = c.sides;
      const r = c.ratios[0];
      const sorted = [...r.rounds].sort((x, y) => x - y);
      const dbRatio = median(cpu[a.name].postgres) / median(cpu[b.name].postgres);
      ratios.push(`- ${kind}: req/s **${r.ratio.toFixed(2)}×** PostGraphile (rounds ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}); PostgreSQL CPU per request **${dbRatio.toFixed(2)}×** PostGraphile's`);
    }
    console.log([...lines, "", ...ratios].join("\n"));
  } finally {
    await Promise.all([service.stop(), postgraphile.stop()]);
    await bouncer?.stop();
  }
}

const mode = process.argv[2];
const modes: Record<string, () => Promise<void>> = { build, topology, cache, database: databaseCpu };
(modes[mode] ? modes[mode]() : Promise.reject(new Error("usage: npx tsx bench/production.ts build|topology|database|cache"))).then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
