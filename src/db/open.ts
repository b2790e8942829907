// Opens a database: PostgreSQL when a URL is given, otherwise PGlite in-process. Nothing else in the service
// knows which of the two it talks to.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client";
import { migrate, type SqlConnection } from "./migrate";

export interface DatabaseOptions {
  /** postgresql://… for PostgreSQL; omitted for PGlite. */
  url?: string;
  /** PGlite data directory, or `memory://`. */
  dataDir?: string;
  /** PGlite only: a data-directory dump (PGlite `dumpDataDir`) to start from instead of an empty database. */
  templateFile?: string;
  poolSize?: number;
  /** Emit Prisma `query` events (statement counting in tests and benchmarks). */
  queryEvents?: boolean;
}

/** Writes a dump of a migrated, empty PGlite database to `file` (see DatabaseOptions.templateFile). */
export async function writePgliteTemplate(file: string): Promise<void> {
  const pglite = new PGlite("memory://", { extensions: { pg_trgm } });
  await migrate({ exec: async (sql) => void (await pglite.exec(sql)), query: async (sql, params) => (await pglite.query(sql, params)).rows as never[] });
  const dump = await pglite.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
}

/** A named, parameterised statement for the few hot paths that skip Prisma (see Database.query). */
export interface Statement {
  /** Prepared once per connection under this name (PostgreSQL). */
  name: string;
  text: string;
}

export interface Database {
  kind: "postgresql" | "pglite";
  prisma: PrismaClient;
  /**
   * Runs one statement on the driver directly. For per-request hot paths only (the API-key lookup): it costs about
   * a tenth of the CPU of a Prisma call. Everything else goes through Prisma.
   */
  query<Row>(statement: Statement, params: unknown[]): Promise<Row[]>;
  /** Calls `listener` for every SQL statement, Prisma's and query()'s (only when opened with queryEvents). */
  onStatement(listener: (sql: string) => void): void;
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

export function openDatabase(options: DatabaseOptions): Database {
  const log = options.queryEvents ? [{ emit: "event" as const, level: "query" as const }] : [];
  if (options.url) {
    const url = options.url;
    // One pool for Prisma and the direct hot-path queries.
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), log });
    const events = statementEvents(prisma, Boolean(options.queryEvents));
    return {
      kind: "postgresql",
      prisma,
      async query<Row>(statement: Statement, params: unknown[]) {
        events.emit(statement.text);
        return (await pool.query({ name: statement.name, text: statement.text, values: params })).rows as Row[];
      },
      onStatement: events.onStatement,
      async migrate(dir) {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          return await migrate({
            exec: async (sql) => void (await client.query(sql)),
            query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
          }, dir);
        } finally {
          await client.end();
        }
      },
      async close() {
        await prisma.$disconnect();
        if (!pool.ended) await pool.end();
      },
    };
  }
  const dataDir = options.dataDir ?? "memory://";
  if (!dataDir.includes("://")) mkdirSync(dataDir, { recursive: true });
  // Starting from a dump skips PGlite's initdb (about 5 s); the tests use one per run.
  const pglite = options.templateFile
    ? new PGlite(dataDir, { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(options.templateFile)]) })
    : new PGlite(dataDir, { extensions: { pg_trgm } });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), log });
  const events = statementEvents(prisma, Boolean(options.queryEvents));
  const conn: SqlConnection = {
    exec: async (sql) => void (await pglite.exec(sql)),
    query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
  };
  return {
    kind: "pglite",
    prisma,
    async query<Row>(statement: Statement, params: unknown[]) {
      events.emit(statement.text);
      return (await pglite.query<Row>(statement.text, params)).rows;
    },
    onStatement: events.onStatement,
    migrate: (dir) => migrate(conn, dir),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}

