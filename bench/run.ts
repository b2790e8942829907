// npm run bench [-- --quick] [-- --json <file>] [-- --only 1,3] [-- --cpu-prof <dir>]
// Seeds a database (a temp PGlite directory, or the DATABASE_URL given; REDIS_URL is passed on), starts the real
// server as its own process, drives it over loopback with autocannon and prints the table. Exit code 1 on a FAIL.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machine, table, writeJson, type RunInfo } from "./report";
import { authCost, restOverhead } from "./scenarios/overhead";
import { addressSearch } from "./scenarios/search";
import { statementCounts, statementLoad } from "./scenarios/statements";
import type { Plan, ScenarioContext, ScenarioResult } from "./scenarios/types";
import { sustainedWrites } from "./scenarios/writes";
import { seed as seedDatabase, type Seed } from "./seed";
import { startServer, type RunningServer } from "./server-process";
import { applyMigrations, connectPglite, connectPostgres } from "./sql";

const FULL: Plan = { connections: 10, rounds: 5, seconds: 3, warmupSeconds: 2, searchConnections: 4, writeSeconds: 20, writeConnections: 5, largeTeamReports: 100_000 };
const QUICK: Plan = { connections: 10, rounds: 3, seconds: 1, warmupSeconds: 1, searchConnections: 4, writeSeconds: 4, writeConnections: 5, largeTeamReports: 10_000 };

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { quick: { type: "boolean", default: false }, json: { type: "string" }, only: { type: "string" }, "cpu-prof": { type: "string" } },
  });
  const plan = values.quick ? QUICK : FULL;
  const only = values.only ? new Set(values.only.split(",").map(Number)) : null;
  const wanted = (id: number) => !only || only.has(id);
  const started = Date.now();
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const redisUrl = process.env.REDIS_URL || undefined;
  const pgliteDir = databaseUrl ? undefined : mkdtempSync(path.join(os.tmpdir(), "prs-bench-"));
  const serverEnv = { DATABASE_URL: databaseUrl, PGLITE_DATA_DIR: pgliteDir, REDIS_URL: redisUrl };

  try {
    log(`seeding ${databaseUrl ? "PostgreSQL" : `PGlite in ${pgliteDir}`} (large team: ${plan.largeTeamReports} reports)`);
    const conn = databaseUrl ? await connectPostgres(databaseUrl) : await connectPglite(pgliteDir!, true);
    let seed: Seed;
    try {
      await applyMigrations(conn);
      seed = await seedDatabase(conn, plan.largeTeamReports);
    } finally {
      await conn.close();
    }
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const results: ScenarioResult[] = [];
    const withServer = async (statementEvents: boolean, fn: (ctx: ScenarioContext) => Promise<void>) => {
      const server: RunningServer = await startServer({
        env: serverEnv,
        benchTeamId: seed.nested.teamId,
        statementEvents,
        cpuProfileDir: statementEvents ? undefined : values["cpu-prof"],
      });
      try {
        await fn({ seed, ports: server.ports, plan });
      } finally {
        await server.stop();
      }
    };

    let statements: ScenarioResult | undefined;
    if (wanted(2)) {
      log("2: counting SQL statements (server with SQL_STATEMENT_EVENTS=true)");
      await withServer(true, async (ctx) => void (statements = await statementCounts(ctx)));
    }
    await withServer(false, async (ctx) => {
      if (wanted(1)) log("1: REST stack vs baseline route"), results.push(await restOverhead(ctx));
      if (statements) log("2: throughput of the counted requests"), await statementLoad(ctx, statements), results.push(statements);
      if (wanted(3)) log("3: address search"), results.push(await addressSearch(ctx));
      if (wanted(4)) log("4: auth + rate limits on vs off"), results.push(await authCost(ctx));
      if (wanted(5)) log("5: sustained writes"), results.push(await sustainedWrites(ctx));
    });

    results.sort((a, b) => a.id - b.id);
    const info: RunInfo = {
      mode: values.quick ? "quick" : "full",
      database: databaseUrl ? "PostgreSQL" : "PGlite (embedded)",
      redis: Boolean(redisUrl),
      machine: machine(),
      startedAt: new Date(started).toISOString(),
      seconds: Math.round((Date.now() - started) / 1000),
    };
    process.stdout.write(`${table(info, results)}\n`);
    if (values.json) writeJson(values.json, info, results);
    return results.every((r) => r.pass) ? 0 : 1;
  } finally {
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
