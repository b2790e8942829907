// Live updates over WebSocket vs server-sent events (BENCHMARKS "Live updates over WebSocket"), on PostgreSQL + Redis
// with real service processes (src/server.ts as the tests start it: test/support/server.ts).
//
//   DATABASE_URL=… REDIS_URL=… npx tsx bench/live-websocket.ts
//
// 1. Memory: a fresh process's RSS, settled, before and with STREAMS (1,000) subscriptions open — over WebSocket (one
//    socket per subscription, as SSE has one connection per stream), then on another fresh process over SSE; per
//    subscription. TEAMS (10) teams × 5 keys × 20 streams (the per-key and per-team caps).
// 2. Latency across processes: SUBSCRIBERS (10) subscriptions on B over WebSocket and as many over SSE (reportEvents
//    of one report per team), writes through A (updateReport over HTTP) at RATE/s (20) for SECONDS s (15); for every
//    event received: receive time − the event's timestamp (its transaction's start). p50/p99 per transport.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../test/support/server";
import { openLiveStream, type LiveStream } from "../test/support/sse";
import { percentile } from "./load";

const STREAMS = Number(process.env.STREAMS ?? 1000);
const TEAMS = Number(process.env.TEAMS ?? 10);
const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 10);
const RATE = Number(process.env.RATE ?? 20);
const SECONDS = Number(process.env.SECONDS ?? 15);
const log = (message: string) => process.stderr.write(`[live-ws] ${message}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process listening on the server's port (ss -ltnp). */
const pidOf = async (server: ServerProcess): Promise<number> => {
  const port = new URL(server.url).port;
  const listing = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const pid = Number(/pid=(\d+)/.exec(listing)?.[1]);
  if (!pid) throw new Error(`no process found listening on ${port}: ${listing}`);
  return pid;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
/** RSS once it stops moving (three readings a second apart within 1 MB). */
async function settledRss(pid: number): Promise<number> {
  let readings = [rssMb(pid)];
  for (let i = 0; i < 20; i++) {
    await sleep(1000);
    readings = [...readings.slice(-2), rssMb(pid)];
    if (readings.length === 3 && Math.max(...readings) - Math.min(...readings) < 1) break;
  }
  return readings.at(-1)!;
}

async function gql(server: ServerProcess, key: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${server.url}/graphql`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as { data: Record<string, Record<string, unknown>>; errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

interface Team {
  admin: string;
  keys: string[];
  reportId: string;
}

const wsClient = (server: ServerProcess, key: string): Client =>
  createClient({ url: `${server.url.replace("http", "ws")}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, connectionParams: { authorization: `Bearer ${key}` } });

const IDLE = `subscription { teamEvents(types: ["insight.deleted"]) { id } }`;

async function memory(env: NodeJS.ProcessEnv, teams: Team[], transport: "websocket" | "sse"): Promise<{ before: number; after: number }> {
  // Stream counts of a transport's run are its own (a stopped process's places stay counted until their lease ends).
  const server = await startServer({ ...env, REDIS_KEY_PREFIX: `${env.REDIS_KEY_PREFIX}:${transport}` });
  const pid = await pidOf(server);
  const before = await settledRss(pid);
  const keys = teams.flatMap((t) => t.keys);
  const clients: Client[] = [];
  const streams: LiveStream[] = [];
  for (let i = 0; i < STREAMS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, STREAMS - i) }, async (_, j) => {
        const key = keys[Math.floor((i + j) / 20) % keys.length];
        if (transport === "sse") {
          const stream = await openLiveStream(server.url, { query: IDLE, variables: {}, headers: { Authorization: `Bearer ${key}` } });
          if (stream.status !== 200) throw new Error(`SSE stream refused: ${stream.status} ${JSON.stringify(stream.body)}`);
          streams.push(stream);
        } else {
          const client = wsClient(server, key);
          clients.push(client);
          await new Promise<void>((resolve, reject) => {
            client.on("connected", () => resolve());
            client.subscribe({ query: IDLE }, { next: (v) => reject(new Error(JSON.stringify(v))), error: reject, complete: () => undefined });
          });
        }
      }),
    );
  }
  await sleep(2000); // the last subscriptions' streams open
  const after = await settledRss(pid);
  streams.forEach((s) => s.close());
  await Promise.all(clients.map((c) => c.dispose()));
  await server.stop();
  return { before, after };
}

async function latency(a: ServerProcess, b: ServerProcess, teams: Team[]): Promise<Record<string, number[]>> {
  const latencies: Record<string, number[]> = { websocket: [], sse: [] };
  const query = `subscription($id: ID!) { reportEvents(reportId: $id) { id type timestamp } }`;
  const clients: Client[] = [];
  const streams: LiveStream[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const team = teams[i % teams.length];
    const client = wsClient(b, team.keys[0]);
    clients.push(client);
    client.subscribe({ query, variables: { id: team.reportId } }, {
      next: (v) => latencies.websocket.push(Date.now() - new Date((v.data as { reportEvents: { timestamp: string } }).reportEvents.timestamp).getTime()),
      error: (err) => log(`websocket subscription ended: ${JSON.stringify(err)}`),
      complete: () => undefined,
    });
    const stream = await openLiveStream(b.url, { query, variables: { id: team.reportId }, headers: { Authorization: `Bearer ${team.keys[1]}` } });
    streams.push(stream);
    void (async () => {
      for (;;) {
        const event = await stream.next(600_000).catch(() => null);
        if (!event) return;
        latencies.sse.push(Date.now() - new Date(event.data.reportEvents.timestamp).getTime());
      }
    })();
  }
  await sleep(3000); // every subscription's stream open (graphql-ws says nothing when one is)
  latencies.websocket.length = 0;
  latencies.sse.length = 0;
  const started = Date.now();
  let n = 0;
  const writes: Promise<unknown>[] = [];
  while (Date.now() - started < SECONDS * 1000) {
    const due = started + (n * 1000) / RATE;
    if (due > Date.now()) await sleep(due - Date.now());
    const team = teams[n % teams.length];
    writes.push(gql(a, team.admin, `mutation($r: ID!, $l: String!) { updateReport(id: $r, input: { listingAgent: $l }) { id } }`, { r: team.reportId, l: `Agent ${n}` }));
    n++;
  }
  await Promise.all(writes);
  await sleep(3000);
  streams.forEach((s) => s.close());
  await Promise.all(clients.map((c) => c.dispose()));
  log(`${n} writes; events received: websocket ${latencies.websocket.length}, sse ${latencies.sse.length} (each ${n * SUBSCRIBERS / teams.length} expected)`);
  return latencies;
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error("set DATABASE_URL (PostgreSQL) and REDIS_URL (Redis)");
  const env = childEnv("", {
    REDIS_KEY_PREFIX: `prs:bench:${randomUUID()}`,
    DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    LOG_LEVEL: "info",
    ...Object.fromEntries(["FREE", "STANDARD", "PRO", "ENTERPRISE"].map((tier) => [`RATE_LIMIT_${tier}`, "1000000000"])),
  });
  log(`making ${TEAMS} teams`);
  const teams: Team[] = [];
  const a = await startServer(env);
  for (let t = 0; t < TEAMS; t++) {
    const { key } = await cliTeamAndKey(env, ["--permissions", "reports:*,api_keys:*,ai_insights:read"]);
    const keys = [];
    for (let k = 0; k < 5; k++) keys.push((await gql(a, key, `mutation { createApiKey(input: { name: "bench ${k}", permissions: ["reports:read", "ai_insights:read"] }) { key } }`)).createApiKey.key as string);
    const reportId = (await gql(a, key, `mutation { createReport(input: { address: "${t} Bench Road", listingAgent: "Ann" }) { id } }`)).createReport.id as string;
    teams.push({ admin: key, keys, reportId });
  }
  const results: string[] = [];
  for (const transport of ["websocket", "sse"] as const) {
    log(`memory: ${STREAMS} ${transport} subscriptions on a fresh process`);
    const { before, after } = await memory(env, teams, transport);
    log(`memory ${transport}: ${before.toFixed(0)} -> ${after.toFixed(0)} MB`);
    results.push(`memory ${transport}: RSS ${before.toFixed(0)} MB → ${after.toFixed(0)} MB with ${STREAMS} subscriptions: ${(((after - before) * 1024) / STREAMS).toFixed(1)} KB each`);
  }
  log("latency: subscriptions on B, writes through A");
  const b = await startServer(env);
  const latencies = await latency(a, b, teams);
  for (const [transport, values] of Object.entries(latencies)) {
    const sorted = [...values].sort((x, y) => x - y);
    results.push(`commit → subscriber (${transport}, across processes): n=${values.length} p50 ${percentile(sorted, 50).toFixed(0)} ms p99 ${percentile(sorted, 99).toFixed(0)} ms max ${sorted.at(-1)} ms`);
  }
  await Promise.all([a.stop(), b.stop()]);
  process.stdout.write(`${results.join("\n")}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exit(1);
  },
);
