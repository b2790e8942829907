// Planning and execution time of the one-statement read path's statements (ARCHITECTURE.md "One statement"), apart:
// the nested page (50 reports × 4 collections, bench/scenarios/statements.ts) and the REST detail's document, each
// built as the service builds it (its plan, statement and parameters for the bench team) and run under
// `EXPLAIN (ANALYZE, SUMMARY)` ROUNDS times (default 30) on a seeded database; prints the medians, the statement's
// length, the size of what the database answers, and the CPU its backend spends per execution of the statement
// prepared (100 executions, from /proc: the figure EXPLAIN's timing overhead does not distort). Behind PgBouncer in transaction mode every statement is planned each time: the
// planning time is then paid on every request.
//   DATABASE_URL=postgresql://postgres@127.0.0.1/prs_bench npx tsx bench/statement-plans.ts
import { readFileSync } from "node:fs";
import { parse } from "graphql";
import pg from "pg";
import { benchDatabases } from "./databases";
import { median } from "./load";
import { NESTED_QUERY } from "./scenarios/statements";
import { seed as seedDatabase } from "./seed";
import { DETAIL_FRAGMENT } from "../src/rest/shapes";
import { schema } from "../src/schema";
import { columns } from "../src/schema/sql-json/columns";
import { resolveArgs } from "../src/schema/sql-json/plan";
import { sqlJsonEntry } from "../src/schema/sql-json/run";
import { statementOf, statementText } from "../src/schema/sql-json/sql";

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("set DATABASE_URL (PostgreSQL, a database of its own: it is seeded)");
  const dbs = await benchDatabases(url);
  const conn = await dbs.main.connect();
  const { nested } = await seedDatabase(conn, 1000);
  await conn.close();
  const documents = {
    "nested page (50 reports × 4 collections)": { text: NESTED_QUERY, variables: { limit: 50 } },
    "REST detail (GET /v1/reports/{id})": { text: `query RestReport($id: ID!) { report(id: $id) { ...RestReportDetail } } ${DETAIL_FRAGMENT}`, variables: { id: nested.reportIds[0] } },
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const rounds = Number(process.env.ROUNDS ?? 30);
  try {
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    const cpuMs = () => {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    console.log("| statement | text, bytes | planning ms (median) | execution ms (median) | answer, bytes | backend CPU per execution, prepared, ms |\n|---|---|---|---|---|---|");
    for (const [name, doc] of Object.entries(documents)) {
      const entry = sqlJsonEntry(schema, parse(doc.text), undefined);
      if (!entry) throw new Error(`${name}: no plan`);
      const request = { variables: doc.variables, teamId: nested.teamId, args: new Map() };
      if (!resolveArgs(entry.plan, request)) throw new Error(`${name}: arguments refused`);
      const made = statementOf(entry.plan, columns, () => true)!;
      const statement = { text: statementText(made) };
      const values = made.params.map((value) => value(request));
      const answer = (await client.query<Record<string, unknown>>(statement.text, values)).rows;
      const bytes = answer.reduce((n, row) => n + Object.values(row).reduce((m: number, v) => m + (typeof v === "string" ? v.length : 0), 0), 0);
      const planning: number[] = [];
      const execution: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const { rows } = await client.query(`EXPLAIN (ANALYZE, SUMMARY, FORMAT JSON) ${statement.text}`, values);
        const [result] = rows[0]["QUERY PLAN"] as Array<{ "Planning Time": number; "Execution Time": number }>;
        planning.push(result["Planning Time"]);
        execution.push(result["Execution Time"]);
      }
      const prepared = { name: `plans_${name.length}_${statement.text.length}`, text: statement.text, values };
      await client.query(prepared);
      const before = cpuMs();
      for (let i = 0; i < 100; i++) await client.query(prepared);
      const perExecution = (cpuMs() - before) / 100;
      console.log(`| ${name} | ${statement.text.length} | ${median(planning).toFixed(2)} | ${median(execution).toFixed(2)} | ${bytes} | ${perExecution.toFixed(2)} |`);
      if (process.env.SHOW) console.log(statement.text);
    }
  } finally {
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
