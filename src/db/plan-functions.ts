// Plans kept by PostgreSQL for the large reads, behind a transaction pooler too.
//
// Behind a transaction pooler statements are unnamed (prepared.ts), so PostgreSQL parses and plans each one on every
// request: for the one-statement report reads that is most of their database CPU (BENCHMARKS "Database CPU per
// request"). A PL/pgSQL function's statements are planned once per server connection and the plan is kept there, and
// a pooler's server connections serve every client in turn. So a read marked `keepPlan` is made once into a function
// named after its text (`prs_plan_<hash>`), and from then on called by name: through any server connection, any
// pooler, any process, its plan is made once per server connection and kept.
//
// The function is made after the statement's first answer, from what PostgreSQL says of it: its parameters' types
// (a PREPARE and its DEALLOCATE in one simple query — one transaction, so one server connection even behind a
// pooler) and its columns' types (the first answer's). Until then, and whenever the function cannot be made (a
// replica is read-only, the role may not create functions), the statement runs unnamed, as before. Only reads take
// this path: a call that fails because the function is missing or no longer fits (SQLSTATE class 42) is sent again
// as the statement itself, which can do no harm twice. Migrations drop every such function (src/db/migrate.ts):
// they are made again, on first use, against the new schema.
import { createHash, randomBytes } from "node:crypto";
import { logger } from "../logger";

/** A field of an answer, as pg describes it. */
interface Field {
  name: string;
  dataTypeID: number;
}
interface Result {
  rows: unknown[];
  fields: Field[];
}
/** Runs SQL on a pooled connection: with values, one statement (unnamed); without, a simple query (several). */
export type RawQuery = (text: string, values?: unknown[]) => Promise<Result | Result[]>;

/** The prefix of every function made here: migrations drop them all. */
export const PLAN_FUNCTION_PREFIX = "prs_plan_";
/** Drops every function made here (a migration changed the schema they were made against). */
export const DROP_PLAN_FUNCTIONS =
  `DO $$ DECLARE f regprocedure; BEGIN ` +
  `FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE starts_with(proname, '${PLAN_FUNCTION_PREFIX}') LOOP EXECUTE 'DROP FUNCTION ' || f; END LOOP; END $$`;
/** At most this many functions per process (a client sending ever new documents cannot grow the catalog for ever). */
const MAX_FUNCTIONS = 200;
/** After a failure to make a function, the statement runs unnamed this long before it is tried again. */
const RETRY_AFTER_MS = 60_000;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;
const codeOf = (err: unknown) => (err as { code?: unknown })?.code;

/** The name of the function of a statement's text. */
export const planFunctionName = (text: string) => `${PLAN_FUNCTION_PREFIX}${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;

/** The body of the function: the statement, its answer returned as the function's table. */
function definition(name: string, text: string, params: string[], columns: Array<[string, string]>): string {
  // `use_column`: a column of the statement named like one of the function's output columns is the column.
  // The dollar quote cannot occur in `text`: the statements are the service's own, values are parameters.
  return (
    `CREATE OR REPLACE FUNCTION ${name}(${params.join(", ")}) ` +
    `RETURNS TABLE (${columns.map(([column, type]) => `${quoteIdent(column)} ${type}`).join(", ")}) ` +
    `LANGUAGE plpgsql STABLE AS $prs_plan$\n#variable_conflict use_column\nBEGIN\nRETURN QUERY ${text};\nEND\n$prs_plan$`
  );
}

export function planFunctions(query: RawQuery) {
  /** Statement text → its function's name once it exists, or the time from which making it may be tried again. */
  const made = new Map<string, { name: string } | { retryAt: number } | "making">();

  const single = async (text: string, values: unknown[]) => (await query(text, values)) as Result;

  async function make(text: string, fields: Field[]): Promise<void> {
    const name = planFunctionName(text);
    const probe = `prs_probe_${randomBytes(6).toString("hex")}`;
    try {
      const oids = fields.map((f) => Number(f.dataTypeID)).join(",");
      const results = (await query(
        `PREPARE ${probe} AS ${text}; ` +
          `SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = '${probe}'; ` +
          `SELECT ARRAY(SELECT format_type(oid, NULL) FROM unnest('{${oids}}'::oid[]) WITH ORDINALITY AS c(oid, i) ORDER BY i) AS types, ` +
          `EXISTS (SELECT 1 FROM pg_proc WHERE proname = ${sqlString(name)}) AS present; ` +
          `DEALLOCATE ${probe}`,
      )) as Result[];
      const params = (results[1].rows[0] as { types: string[] }).types;
      const { types, present } = results[2].rows[0] as { types: string[]; present: boolean };
      if (!present) await query(definition(name, text, params, fields.map((f, i) => [f.name, types[i]])));
      made.set(text, { name });
    } catch (err) {
      made.set(text, { retryAt: Date.now() + RETRY_AFTER_MS });
      // Expected where functions cannot be made (a read-only replica, a role without CREATE): a notice; else a warning.
      const code = codeOf(err);
      const expected = code === "25006" || code === "42501";
      logger[expected ? "info" : "warn"]({ code, function: name, error: (err as Error).message }, "a read's plan is not kept by the database; it is planned on each run for a minute");
    }
  }

  return {
    /** Runs a read statement through its function when there is one, else unnamed (and makes its function). */
    async run(statement: { text: string }, params: unknown[]): Promise<unknown[]> {
      const state = made.get(statement.text);
      if (state && typeof state === "object" && "name" in state) {
        try {
          return (await single(`SELECT * FROM ${state.name}(${params.map((_, i) => `$${i + 1}`).join(", ")})`, params)).rows;
        } catch (err) {
          // Missing (dropped by a migration) or no longer fitting the schema: the statement itself answers.
          if (!String(codeOf(err)).startsWith("42")) throw err;
          made.set(statement.text, { retryAt: Date.now() + RETRY_AFTER_MS });
        }
      }
      const result = await single(statement.text, params);
      // Read again: requests that ran the statement at once must not all make its function.
      const now = made.get(statement.text);
      const retry = now === undefined ? made.size < MAX_FUNCTIONS : typeof now === "object" && "retryAt" in now && now.retryAt <= Date.now();
      if (retry) {
        made.set(statement.text, "making");
        void make(statement.text, result.fields);
      }
      return result.rows;
    },
  };
}
