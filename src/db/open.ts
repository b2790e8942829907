// Opens a database: PostgreSQL when a URL is given, otherwise PGlite in-process. Nothing else in the service
// knows which of the two it talks to.
import type { PrismaPg as PrismaPgAdapter } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { logger } from "../logger";
import { keepStatementBudget } from "./budget";
import { newPglite, pgDriver, pgliteConnection, withPgConnection } from "./connections";
import { withSafeRelationLoading } from "./load-strategy";
import { migrate } from "./migrate";
import { preparedStatements, withoutPoolerFlag, type Statement } from "./prepared";

export interface DatabaseOptions {
  /** postgresql://… for PostgreSQL; omitted for PGlite. May be a transaction pooler (PgBouncer) in front of it. */
  url?: string;
  /** PostgreSQL: a connection to the database itself, not through a pooler, for migrations (default: `url`). */
  directUrl?: string;
  /**
   * PostgreSQL: prepare the hot paths' statements (Statement.name) once per connection. `true`/`false` force named or
   * unnamed statements; unset ("auto"), they are named until the database refuses one, as behind a transaction
   * pooler (prepared.ts), and unnamed from the start when `url` has `?pgbouncer=true`; unnamed, the large reads'
   * plans are kept in functions (plan-functions.ts) unless this is `false`.
   */
  preparedStatements?: boolean;
  /** PGlite data directory, or `memory://`. */
  dataDir?: string;
  /** PGlite only: a data-directory dump (PGlite `dumpDataDir`) to start from instead of an empty database. */
  templateFile?: string;
  poolSize?: number;
  /**
   * PostgreSQL: time budget of every statement (ms), kept by the client (budget.ts): a statement past it is
   * cancelled (SQLSTATE 57014, answered 504) and its transaction rolled back. PGlite runs statements in this thread,
   * in WebAssembly: a running statement cannot be interrupted, so there it has no effect — the embedded database is
   * for one process and small data, where no statement runs that long.
   */
  statementTimeoutMs?: number;
  /** Emit Prisma `query` events (statement counting in tests and benchmarks). */
  queryEvents?: boolean;
}

/** A named, parameterised statement for the few hot paths that skip Prisma (see Database.query). */
export type { Statement } from "./prepared";

export interface Database {
  kind: "postgresql" | "pglite";
  prisma: PrismaClient;
  /**
   * Runs one statement on the driver directly. For per-request hot paths only (the API-key lookup): it costs about
   * a tenth of the CPU of a Prisma call. Everything else goes through Prisma. Each statement runs alone on a pooled
   * connection, never inside a transaction: that is what lets a named one be sent again unnamed (prepared.ts).
   */
  query<Row>(statement: Statement, params: unknown[]): Promise<Row[]>;
  /**
   * PGlite only: calls `listener` with the payload of every NOTIFY on `channel`. Only this process can open the
   * embedded database, so every write is its own, and the notification arrives before the writing call returns: a
   * cache dropped this way is never stale. Absent on PostgreSQL, where other processes write.
   */
  listenToOwnWrites?(channel: string, listener: (payload: string) => void): Promise<void>;
  /** Calls `listener` for every SQL statement, Prisma's and query()'s (only when opened with queryEvents). */
  onStatement(listener: (sql: string) => void): void;
  /** PostgreSQL: the connections of the pool now (metrics); absent on PGlite, which has none. */
  pool?(): { total: number; idle: number; waiting: number };
  /** Applies pending migrations (idempotent, safe to call from several processes at once). */
  migrate(dir?: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Statement events of Prisma and of the direct driver calls, in one place. */
function statementEvents(prisma: PrismaClient, enabled: boolean) {
  const listeners: Array<(sql: string) => void> = [];
  if (enabled) (prisma as unknown as QueryEvents).$on("query", (e) => listeners.forEach((l) => l(e.query)));
  return {
    emit: (sql: string) => listeners.forEach((l) => l(sql)),
    onStatement: (listener: (sql: string) => void) => void listeners.push(listener),
  };
}
type QueryEvents = { $on(event: "query", listener: (e: { query: string }) => void): void };

/** How long a request waits for a PostgreSQL connection before it answers 503, without a statement budget. */
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export function openDatabase(options: DatabaseOptions): Database {
  const log = options.queryEvents ? [{ emit: "event" as const, level: "query" as const }] : [];
  if (options.url) {
    const { url, pooler } = withoutPoolerFlag(options.url);
    const { statementTimeoutMs } = options;
    // One pool for Prisma and the direct hot-path queries. No session state on its connections but the named
    // statements (no startup parameter, SET or LISTEN): a transaction pooler may run each transaction on another
    // server connection.
    const pool = new (pgDriver().Pool)({
      connectionString: url,
      max: options.poolSize,
      // Waiting for a connection (a new one, or a free one of a busy pool) has the same budget as a statement:
      // past it the request answers 503 instead of queueing for ever.
      connectionTimeoutMillis: statementTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    });
    // An idle connection dropped by the server (restart, outage) is reported here; the pool replaces it on next use.
    // Without a listener the error would end the process.
    pool.on("error", (err) => logger.warn({ err: err.message }, "database connection lost"));
    if (statementTimeoutMs) pool.on("connect", (client) => keepStatementBudget(client, statementTimeoutMs));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the driver (connections.ts pgDriver)
    const { PrismaPg } = require("@prisma/adapter-pg") as { PrismaPg: typeof PrismaPgAdapter };
    const base = new PrismaClient({ adapter: new PrismaPg(pool), log });
    const prisma = withSafeRelationLoading(base);
    const events = statementEvents(base, Boolean(options.queryEvents));
    const statements = preparedStatements(
      options.preparedStatements ?? (pooler ? "pooler" : "auto"),
      async (name, statement, values) => (await pool.query({ name, text: statement.text, values })).rows,
      (text, values) => pool.query(text, values),
    );
    return {
      kind: "postgresql",
      prisma,
      async query<Row>(statement: Statement, params: unknown[]) {
        // One event per statement asked for: a retry unnamed (prepared.ts) is the same statement.
        events.emit(statement.text);
        return (await statements.run(statement, params)) as Row[];
      },
      onStatement: events.onStatement,
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      migrate: (dir) => withPgConnection(options.directUrl ? withoutPoolerFlag(options.directUrl).url : url, (conn) => migrate(conn, dir)),
      async close() {
        await base.$disconnect();
        if (!pool.ended) await pool.end();
      },
    };
  }
  const pglite = newPglite(options.dataDir ?? "memory://", options.templateFile);
  const base = new PrismaClient({ adapter: new PrismaPGlite(pglite), log });
  const prisma = withSafeRelationLoading(base);
  const events = statementEvents(base, Boolean(options.queryEvents));
  const conn = pgliteConnection(pglite);
  return {
    kind: "pglite",
    prisma,
    async query<Row>(statement: Statement, params: unknown[]) {
      events.emit(statement.text);
      return (await pglite.query<Row>(statement.text, params)).rows;
    },
    onStatement: events.onStatement,
    listenToOwnWrites: async (channel, listener) => void (await pglite.listen(channel, listener)),
    migrate: (dir) => migrate(conn, dir),
    async close() {
      await base.$disconnect();
      await pglite.close();
    },
  };
}

