// CPU per request of each process on both sides of scenario 4 (GET /v1/reports/{id} with auth + rate limits on and
// off): the server, PostgreSQL's processes, Redis and the load generator, read from /proc around each round. Where a
// throughput ratio says "slower", this says who spends the time. PostgreSQL + Redis, on a database of its own:
//   DATABASE_URL=postgresql://postgres@127.0.0.1/prs_bench REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/cpu-per-request.ts
// ROUNDS (default 6) rounds of 3 s per side after a warm-up; SIDE=on|off for one side only; BACKENDS=1 counts only
// the bench database's PostgreSQL connections; PROF=<dir> writes a V8 CPU profile of the server (summarise it with
// bench/profile-summary.ts).
import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { benchDatabases } from "./databases";
import { bearer, cycle } from "./http";
import { measure, median } from "./load";
import { seed as seedDatabase } from "./seed";
import { startServer } from "./server-process";

/** User + system CPU of a process so far, in µs (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0; // exited
  }
}
const pidsOf = (pattern: string) =>
  execSync(`pgrep -f '${pattern}' || true`).toString().trim().split("\n").filter(Boolean).map(Number);
const cpuOfAll = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);
const ownCpu = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL) throw new Error("set DATABASE_URL (PostgreSQL) and REDIS_URL");
  const dbs = await benchDatabases(process.env.DATABASE_URL);
  const dbName = new URL(process.env.DATABASE_URL).pathname.slice(1);
  const conn = await dbs.main.connect();
  const seed = await seedDatabase(conn, 1000);
  await conn.close();
  const server = await startServer({ env: { ...dbs.main.env, REDIS_URL: process.env.REDIS_URL }, benchTeamId: seed.nested.teamId, statementEvents: false, cpuProfileDir: process.env.PROF });
  const { key, reportIds } = seed.nested;
  const all = { on: server.ports.stack, off: server.ports.noauth };
  const sides = Object.entries(all).filter(([name]) => !process.env.SIDE || name === process.env.SIDE);
  const results = new Map<string, Array<Record<string, number>>>();
  try {
    for (let round = -1; round < Number(process.env.ROUNDS ?? 6); round++) {
      for (const [name, port] of sides) {
        const nextId = cycle(reportIds);
        // PostgreSQL's processes, or with BACKENDS=1 only the bench database's connections (a machine shared with
        // other work: its other databases' backends are not this bench's cost).
        const postgres = pidsOf(process.env.BACKENDS ? `^postgres: .* ${dbName} ` : "postgres:");
        const redis = pidsOf("redis-server");
        const before = { server: cpuOf(server.pid), postgres: cpuOfAll(postgres), redis: cpuOfAll(redis), load: ownCpu() };
        const m = await measure({ port, headers: bearer(key), next: () => ({ path: `/v1/reports/${nextId()}` }) }, 10, 3);
        const after = { server: cpuOf(server.pid), postgres: cpuOfAll(postgres), redis: cpuOfAll(redis), load: ownCpu() };
        if (round < 0) continue; // warm-up
        const row: Record<string, number> = { rps: m.rps };
        for (const k of Object.keys(before) as Array<keyof typeof before>) row[k] = (after[k] - before[k]) / m.requests;
        results.set(name, [...(results.get(name) ?? []), row]);
      }
    }
  } finally {
    await server.stop();
  }
  console.log("side  req/s  µs CPU per request (medians of the rounds): server  postgres  redis  load generator");
  for (const [name, rows] of results) {
    const med = (k: string) => median(rows.map((r) => r[k])).toFixed(0).padStart(8);
    console.log(`${name.padEnd(4)} ${med("rps")}  ${med("server")}  ${med("postgres")}  ${med("redis")}  ${med("load")}`);
  }
  const [on, off] = [results.get("on"), results.get("off")];
  if (on && off) console.log(`req/s ratio on/off, median of rounds: ${median(on.map((r, i) => r.rps / off[i].rps)).toFixed(3)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
