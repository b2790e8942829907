// Named (prepared) statements on PostgreSQL: on by default, off by themselves behind a transaction pooler.
//
// A named statement is parsed and planned once per connection; the one-statement report reads are large, and
// planning them is most of their cost (BENCHMARKS "Prepared statements by default"). Behind a transaction pooler
// (PgBouncer before 1.21 in `pool_mode = transaction`) a server connection serves other clients between
// transactions, so a statement this process prepared may be missing where it runs next ("prepared statement … does
// not exist", SQLSTATE 26000) or one of that name may be there already ("… already exists", 42P05). In "auto" mode
// the first such error switches the process to unnamed statements for good, and the statement that met it is sent
// again, unnamed.
//
// Why the retry never runs a statement twice: pg sends a named statement as Parse (when this connection has not
// parsed it yet), Bind, Describe, Execute, Sync in one go. "already exists" is Parse's error and "does not exist"
// Bind's; after an error PostgreSQL skips every message up to Sync, so Execute never ran. Only Database.query names
// statements, and it runs each alone on a pooled connection, outside any transaction (Prisma's statements — every
// transaction among them — are unnamed: @prisma/adapter-pg names a statement only when given a
// `statementNameGenerator`, which we do not pass). So no error of this kind aborts a transaction, and the retry
// starts from a clean connection state.
import { createHash } from "node:crypto";
import { logger } from "../logger";
import { planFunctions, type RawQuery } from "./plan-functions";

/**
 * `true`/`false` force named/unnamed statements (`false`: nothing of the service's is kept on the server);
 * `"auto"` names them until the database refuses one, then goes on as `"pooler"`; `"pooler"` (a transaction pooler
 * is in front, `?pgbouncer=true`) names none, and keeps the plans of the large reads in functions (plan-functions.ts).
 */
export type PreparedStatementsMode = boolean | "auto" | "pooler";

/** A statement of Database.query: named ones are prepared once per connection while statements are named. */
export interface Statement {
  name?: string;
  text: string;
  /**
   * A read (no write, safe to run twice) whose planning costs more than its execution: when statements cannot be
   * named, its plan is kept by the database in a function (plan-functions.ts). Only named statements take it.
   */
  keepPlan?: boolean;
}

/**
 * `url` without the `pgbouncer` parameter (Prisma's convention: `?pgbouncer=true` says a transaction pooler is in
 * front; pg does not know it), and whether it said so.
 */
export function withoutPoolerFlag(url: string): { url: string; pooler: boolean } {
  if (!/[?&]pgbouncer=/i.test(url)) return { url, pooler: false };
  const parsed = new URL(url);
  const pooler = parsed.searchParams.get("pgbouncer")?.toLowerCase() === "true";
  parsed.searchParams.delete("pgbouncer");
  return { url: parsed.toString(), pooler };
}

const SQLSTATES = new Set(["26000", "42P05"]);
const MESSAGE = /prepared statement "[^"]*" (does not exist|already exists)/;

/** True when `err` is PostgreSQL's "prepared statement … does not exist / already exists". */
export function isPreparedStatementError(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === "string" && SQLSTATES.has(code)) || (typeof message === "string" && MESSAGE.test(message));
}

const names = new WeakMap<Statement, string>();

/**
 * The name a statement is prepared under: its own name and a hash of its text. The same name is always the same
 * text, so a statement of that name that another client left on a pooler's server connection is this very one
 * (another version of the service running the same name with another text would otherwise be bound by mistake).
 */
export function preparedName(statement: Statement): string | undefined {
  if (!statement.name) return undefined;
  let name = names.get(statement);
  if (name === undefined) {
    name = `${statement.name}_${createHash("sha1").update(statement.text).digest("hex").slice(0, 12)}`;
    names.set(statement, name);
  }
  return name;
}

/** Runs one statement, named or not (pg's `pool.query`). */
type Send = (name: string | undefined, statement: Statement, params: unknown[]) => Promise<unknown[]>;

/**
 * Runs statements named while `mode` allows, and in "auto" mode falls back to unnamed ones for good on the first
 * prepared-statement error, sending that statement again unnamed (see the top of this file for why it did not run).
 * Unnamed, a `keepPlan` read goes through its plan function (unless `mode` is `false`).
 */
export function preparedStatements(mode: PreparedStatementsMode, send: Send, query: RawQuery) {
  let named = mode === true || mode === "auto";
  const plans = mode === false ? undefined : planFunctions(query);
  const unnamed = (statement: Statement, params: unknown[]) =>
    plans && statement.keepPlan && statement.name ? plans.run(statement, params) : send(undefined, statement, params);
  return {
    async run(statement: Statement, params: unknown[]): Promise<unknown[]> {
      const name = named ? preparedName(statement) : undefined;
      if (name === undefined) return unnamed(statement, params);
      try {
        return await send(name, statement, params);
      } catch (err) {
        if (mode !== "auto" || !isPreparedStatementError(err)) throw err;
        if (named) {
          named = false;
          const { code, message } = err as { code?: string; message?: string };
          const why = "database refused a prepared statement (a transaction pooler?): statements are unnamed from now on";
          // Expected once behind a transaction pooler, and nothing failed: a notice, not a warning.
          logger.info({ code, statement: name, error: message }, why);
        }
        return unnamed(statement, params);
      }
    },
  };
}
