// npm run bench [-- --quick] [-- --json <file>] [-- --only 1,3] [-- --cpu-prof <dir>]
// Seeds a database (a temp PGlite directory, or the DATABASE_URL given; REDIS_URL is passed on), starts the real
// server as its own process, drives it over loopback with autocannon and prints the table. Exit code 1 on a FAIL.
import { parseArgs } from "node:util";
import { benchDatabases, type BenchDatabase } from "./databases";
import { machine, table, writeJson, type RunInfo } from "./report";
import { authCost, restOverhead } from "./scenarios/overhead";
import { addressSearch } from "./scenarios/search";
import { statementCounts, statementLoad } from "./scenarios/statements";
import type { Plan, ScenarioContext, ScenarioResult } from "./scenarios/types";
import { importLoad, importStatements } from "./scenarios/imports";
import { sustainedWrites } from "./scenarios/writes";
import { webhookWrites } from "./scenarios/webhooks";
import { nestedPage, reportDetail } from "./scenarios/graphql-peers";
import { connectionPages } from "./scenarios/connections";
import { ensurePostgraphile, startPostgraphile, startReference, type Peer } from "./peers";
import { seed as seedDatabase, seedSmall } from "./seed";
import { startServer } from "./server-process";
import type { SqlConnection } from "./sql";

const FULL: Plan = { connections: 10, rounds: 11, seconds: 1.5, warmupSeconds: 2, searchConnections: 4, writeSeconds: 20, writeConnections: 5, largeTeamReports: 100_000, closeRounds: 25 };
const QUICK: Plan = { connections: 10, rounds: 3, seconds: 1, warmupSeconds: 0.5, searchConnections: 4, writeSeconds: 3, writeConnections: 5, largeTeamReports: 10_000, closeRounds: 3 };

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
  const dbs = await benchDatabases(databaseUrl);

  try {
    log(`seeding ${dbs.main.label} (large team: ${plan.largeTeamReports} reports)`);
    const seed = await withConnection(dbs.main, (conn) => seedDatabase(conn, plan.largeTeamReports));
    const smallTeam = wanted(3) ? await withConnection(dbs.small, (conn) => seedSmall(conn)) : undefined;
    log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const results: ScenarioResult[] = [];
    const launch = (db: BenchDatabase, benchTeamId: string, statementEvents: boolean, cpuProfileDir?: string) =>
      startServer({ env: { ...db.env, REDIS_URL: redisUrl }, benchTeamId, statementEvents, cpuProfileDir });

    if (wanted(2) || wanted(6)) {
      log("2, 6: counting SQL statements (server with SQL_STATEMENT_EVENTS=true)");
      const server = await launch(dbs.main, seed.nested.teamId, true);
      try {
        if (wanted(2)) results.push(await statementCounts({ seed, ports: server.ports }));
        if (wanted(6)) results.push(await importStatements({ seed, ports: server.ports }));
      } finally {
        await server.stop();
      }
    }
    const main = await launch(dbs.main, seed.nested.teamId, false, values["cpu-prof"]);
    const small = smallTeam ? await launch(dbs.small, smallTeam.teamId, false) : undefined;
    // Scenarios 8 and 9's other sides read the database with pg: PostgreSQL only.
    const peers: Peer[] = [];
    try {
      let peerPorts: ScenarioContext["peers"];
      if ((wanted(8) || wanted(9)) && databaseUrl) {
        ensurePostgraphile(log);
        peers.push(await startPostgraphile(databaseUrl), await startReference(databaseUrl, seed.nested.teamId));
        peerPorts = { postgraphile: peers[0].port, reference: peers[1].port };
      }
      const ctx: ScenarioContext = { seed, ports: main.ports, plan, small: small && smallTeam && { team: smallTeam, ports: small.ports }, peers: peerPorts };
      const counted = results.find((r) => r.id === 2);
      if (wanted(1)) {
        log("1: REST stack vs baseline route");
        results.push(await restOverhead(ctx));
      }
      // Throughput rows of scenario 2 are informational (no target): left out of --quick.
      if (counted && !values.quick) {
        log("2: throughput of the counted requests");
        await statementLoad(ctx, counted);
      }
      const measured: Array<[id: number, what: string, run: (c: ScenarioContext) => Promise<ScenarioResult>]> = [
        [3, "address search", addressSearch],
        [4, "auth + rate limits on vs off", authCost],
        [5, "sustained writes", sustainedWrites],
        [7, "report writes with webhooks on vs off", webhookWrites],
        [8, "nested GraphQL page vs PostGraphile vs one statement", nestedPage],
        [9, "report detail vs PostGraphile vs one statement", reportDetail],
        [12, "deep page of the large team: keyset vs offset", connectionPages],
      ];
      for (const [id, what, run] of measured) {
        if (!wanted(id)) continue;
        log(`${id}: ${what}`);
        results.push(await run(ctx));
      }
      const imports = results.find((r) => r.id === 6);
      if (imports) {
        log("6: sustained 500-record imports");
        await importLoad(ctx, imports);
      }
    } finally {
      await Promise.all([main.stop(), small?.stop(), ...peers.map((p) => p.stop())]);
    }

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
    return results.every((r) => r.pass || r.judged === false) ? 0 : 1;
  } finally {
    dbs.main.remove();
    dbs.small.remove();
  }
}

async function withConnection<T>(db: BenchDatabase, fn: (conn: SqlConnection) => Promise<T>): Promise<T> {
  const conn = await db.connect();
  try {
    return await fn(conn);
  } finally {
    await conn.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(2);
  },
);
