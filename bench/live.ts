// Live updates (BENCHMARKS "Live updates"): GraphQL subscriptions over server-sent events on
// PostgreSQL + Redis, with real service processes (the compiled start command, as in production).
//
//   DATABASE_URL=… REDIS_URL=… npx tsx bench/live.ts
//
// TEAMS teams (10), each with a report written to and ten others. Two processes A and B.
// 1. Latency: SUBSCRIBERS streams on B (20: reportEvents of the written reports, selecting the showing, as a page
//    would); writes through A (GraphQL createShowing, round robin over the teams) at RATE/s (200) for SECONDS s (30);
//    WRITERS=2 sends them through two processes A1, A2 instead.
//    For each event a subscriber receives: receive time − the event's timestamp (when the transaction that committed
//    it began, so a little more than commit → receive); p50/p99 over all. Every subscriber must receive every showing
//    of its report exactly once.
// 2. The latency of 1 again with IDLE_STREAMS (1,000) more streams open on B (reportEvents of the reports nobody
//    writes to, 20 a key: their feeds hand them every row of their teams, which they let go).
// 3. Memory: a fresh process's RSS, settled, before and with IDLE_STREAMS streams open; per stream.
//
// Uses its own team on the database it is given (removed at the end); the webhook worker is off in both processes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { generateApiKey, hashApiKey, keyDisplayPrefix } from "../src/auth/keys";
import { TEAM_FULL_ACCESS } from "../src/auth/permissions";
import { openLiveStream, type LiveStream } from "../test/support/sse";
import { freePort } from "../test/support/ports";
import { percentile } from "./load";
import { applyMigrations, connectPostgres } from "./sql";
import { START_ARGS } from "./start-command";

const ROOT = path.resolve(__dirname, "..");
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 30);
const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 20);
const TEAMS = Number(process.env.TEAMS ?? 10);
/** Processes the writes go through, round robin (A, or A1, A2 …): one writer may not reach RATE on a small machine. */
const WRITERS = Number(process.env.WRITERS ?? 1);
const IDLE_STREAMS = Number(process.env.IDLE_STREAMS ?? 1000);
const log = (message: string) => process.stderr.write(`[live] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Service {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, START_ARGS, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORT: String(port),
      HOST: "127.0.0.1",
      WEBHOOK_CONCURRENCY: "0",
      ...Object.fromEntries(["FREE", "STANDARD", "PRO", "ENTERPRISE"].map((tier) => [`RATE_LIMIT_${tier}`, "1000000000"])),
      ...env,
    },
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${stderr}`);
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) break;
    await sleep(20);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

/** A team of the bench: keys (20 streams each) and reports (the first one written to, the others watched idly). */
interface Team {
  id: string;
  keys: string[];
  reports: string[];
}

async function openIdle(service: Service, teams: Team[], count: number): Promise<LiveStream[]> {
  // Spread over the teams; each stream watches a report nobody writes to (its team's writes reach its feed, which
  // hands every row to the stream, which lets it go: the cost of an open stream beside a busy one).
  const plan = Array.from({ length: count }, (_, i) => {
    const team = teams[i % teams.length];
    const n = Math.floor(i / teams.length);
    return { key: team.keys[1 + Math.floor(n / 20)], reportId: team.reports[1 + (n % (team.reports.length - 1))] };
  });
  const streams: LiveStream[] = [];
  for (let i = 0; i < plan.length; i += 50) {
    const batch = await Promise.all(
      plan.slice(i, i + 50).map(({ key, reportId }) =>
        openLiveStream(service.url, { query: "subscription($id: ID!) { reportEvents(reportId: $id) { id type timestamp } }", variables: { id: reportId }, headers: { Authorization: `Bearer ${key}` } }),
      ),
    );
    const refused = batch.find((s) => s.status !== 200);
    if (refused) throw new Error(`stream refused: ${refused.status} ${JSON.stringify(refused.body)}`);
    streams.push(...batch);
  }
  return streams;
}

interface Received {
  showingId: string;
  eventId: string;
  latencyMs: number;
}

/** At most this many writes in flight; a write due while they are is counted late (the offered rate was not met). */
const MAX_IN_FLIGHT = 64;

async function latencyRun(writers: Service[], b: Service, teams: Team[], label: string, seconds = SECONDS): Promise<string> {
  // SUBSCRIBERS streams on B, spread over the teams, each on its team's written report.
  const subscribers = await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, i) => {
      const team = teams[i % teams.length];
      return openLiveStream(b.url, {
        query: `subscription($id: ID!) { reportEvents(reportId: $id) { id type timestamp showing { id attendeeName } } }`,
        variables: { id: team.reports[0] },
        headers: { Authorization: `Bearer ${team.keys[0]}` },
      }).then((stream) => ({ stream, team }));
    }),
  );
  const received: Received[][] = subscribers.map(() => []);
  let lastProgress = Date.now();
  const reading = subscribers.map(async ({ stream }, i) => {
    for (;;) {
      let data: { id: string; timestamp: string; showing: { id: string } | null };
      try {
        data = (await stream.next(600_000)).data.reportEvents;
      } catch {
        return;
      }
      lastProgress = Date.now();
      received[i].push({ showingId: data.showing?.id ?? "", eventId: data.id, latencyMs: Date.now() - new Date(data.timestamp).getTime() });
    }
  });
  const created = new Map<string, string[]>(teams.map((t) => [t.id, []]));
  const failures = new Map<string, number>();
  let late = 0;
  const total = RATE * seconds;
  const start = Date.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight.size >= MAX_IN_FLIGHT) {
      late++;
      await Promise.race(inFlight);
    }
    const team = teams[n % teams.length];
    const write = fetch(`${writers[n % writers.length].url}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${team.keys[0]}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: `mutation($r: ID!, $n: String!) { createShowing(input: { reportId: $r, attendeeName: $n }) { id } }`, variables: { r: team.reports[0], n: `Visitor ${n}` } }),
    })
      .then(async (r) => {
        const body = (await r.json()) as { data?: { createShowing: { id: string } }; errors?: Array<{ message: string }> };
        if (body.data) created.get(team.id)!.push(body.data.createShowing.id);
        else failures.set(`${r.status} ${body.errors?.[0]?.message}`, (failures.get(`${r.status} ${body.errors?.[0]?.message}`) ?? 0) + 1);
      })
      .catch((err: unknown) => void failures.set(String(err), (failures.get(String(err)) ?? 0) + 1))
      .finally(() => inFlight.delete(write));
    inFlight.add(write);
  }
  await Promise.all(inFlight);
  const elapsed = (Date.now() - start) / 1000;
  // Every subscriber has every event of its team's report, or nothing more came for 10 s.
  const complete = () => subscribers.every(({ team }, i) => received[i].length >= created.get(team.id)!.length);
  while (!complete() && Date.now() - lastProgress < 10_000) await sleep(100);
  subscribers.forEach(({ stream }) => stream.close());
  await Promise.all(reading);
  const latencies = received.flat().map((r) => r.latencyMs).sort((x, y) => x - y);
  let lost = 0;
  let duplicated = 0;
  subscribers.forEach(({ team }, i) => {
    const ids = received[i].map((r) => r.showingId);
    const mine = created.get(team.id)!;
    const seen = new Set(ids);
    lost += mine.filter((id) => !seen.has(id)).length;
    duplicated += ids.length - seen.size + ids.filter((id) => !mine.includes(id)).length;
  });
  const writes = [...created.values()].reduce((x, l) => x + l.length, 0);
  log(`${label}: ${writes} writes in ${elapsed.toFixed(1)} s (${late} waits for a free slot; failures: ${JSON.stringify(Object.fromEntries(failures))}); ${latencies.length} events received`);
  return (
    `| ${label} | ${writes} in ${elapsed.toFixed(1)} s (${(writes / elapsed).toFixed(0)}/s), ${[...failures.values()].reduce((x, y) => x + y, 0)} failed | ${SUBSCRIBERS} | ` +
    `${percentile(latencies, 50).toFixed(0)} | ${percentile(latencies, 99).toFixed(0)} | ${latencies.at(-1)?.toFixed(0)} | ${lost} | ${duplicated} |`
  );
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error("bench/live.ts needs DATABASE_URL (PostgreSQL) and REDIS_URL");
  const built = spawnSync(process.execPath, ["scripts/build.js", "--if-stale"], { cwd: ROOT, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build failed");
  const conn = await connectPostgres(databaseUrl);
  await applyMigrations(conn);
  // TEAMS teams, each with enough keys for its share of the idle streams (20 a key) and a written report plus ten.
  const teams: Team[] = [];
  for (let t = 0; t < TEAMS; t++) {
    const team: Team = { id: randomUUID(), keys: [], reports: [] };
    await conn.query(`INSERT INTO teams (id, name, admin_name) VALUES ($1, $2, 'Bench Admin')`, [team.id, `Bench live ${t}`]);
    for (let k = 0; k < 2 + Math.ceil(IDLE_STREAMS / TEAMS / 20); k++) {
      const key = generateApiKey();
      team.keys.push(key);
      await conn.query(
        `INSERT INTO api_keys (id, team_id, name, key_hash, prefix, permissions, rate_limit_tier) VALUES ($1, $2, 'bench live', $3, $4, $5::jsonb, 'enterprise')`,
        [randomUUID(), team.id, hashApiKey(key), keyDisplayPrefix(key), JSON.stringify(TEAM_FULL_ACCESS)],
      );
    }
    for (let r = 0; r < 11; r++) {
      const id = randomUUID();
      team.reports.push(id);
      await conn.query(
        `INSERT INTO reports (id, team_id, address, address_key, search_key, listing_agent, created_by, updated_at) VALUES ($1, $2, $3, $4, $4, 'Ann', 'bench', now())`,
        [id, team.id, `${r + 1} Bench Live Way`, `${r + 1} bench live way ${t}`],
      );
    }
    teams.push(team);
  }
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `prs:bench:${randomUUID()}` };
  const [b, ...writers] = await Promise.all(Array.from({ length: 1 + WRITERS }, () => startService(env)));
  const lines: string[] = [];
  try {
    log(`warm-up; then ${IDLE_STREAMS} idle streams on B`);
    await latencyRun(writers, b, teams, "warm-up", 2);
    lines.push("| writes through A (GraphQL createShowing, over the teams) → subscribers on B | writes | subscribers on B | p50 ms | p99 ms | max ms | lost | duplicated |", "|---|---|---|---|---|---|---|---|");
    const through = WRITERS > 1 ? ` through ${WRITERS} writers` : "";
    lines.push(await latencyRun(writers, b, teams, `${RATE}/s${through}, no other stream`));
    const idle = await openIdle(b, teams, IDLE_STREAMS);
    lines.push(await latencyRun(writers, b, teams, `${RATE}/s${through}, ${IDLE_STREAMS} more streams open on B`));
    idle.forEach((s) => s.close());
    // Memory on a fresh process (C), after one stream opened and closed: its RSS settled, then with IDLE_STREAMS
    // streams open (the smallest of three samples a second apart, each time).
    const c = await startService(env);
    try {
      (await openIdle(c, teams, 20)).forEach((s) => s.close());
      const settled = async () => {
        await sleep(3000);
        const samples: number[] = [];
        for (let i = 0; i < 3; i++, await sleep(1000)) samples.push(rssMb(c.pid));
        return Math.min(...samples);
      };
      const before = await settled();
      const streams = await openIdle(c, teams, IDLE_STREAMS);
      const after = await settled();
      streams.forEach((s) => s.close());
      const memory = `${IDLE_STREAMS} open streams on one fresh process: RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB, ${(((after - before) * 1024) / IDLE_STREAMS).toFixed(0)} KB per stream`;
      log(memory);
      console.log([memory, "", ...lines].join("\n"));
    } finally {
      await c.stop();
    }
  } finally {
    await Promise.all([b, ...writers].map((service) => service.stop()));
    for (const team of teams) await conn.query("DELETE FROM teams WHERE id = $1", [team.id]);
    await conn.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
