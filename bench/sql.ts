// A raw SQL connection for seeding and checks: pg for PostgreSQL, PGlite in this process for the embedded
// default. The server is stopped while the bench holds a PGlite directory (PGlite is single-process).
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { readFileSync } from "node:fs";
import pg from "pg";
import { migrate } from "../src/db/migrate";
import { pgliteTemplateFile } from "../src/db/connections";

export interface SqlConnection {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

export async function connectPostgres(url: string): Promise<SqlConnection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
    exec: async (sql) => void (await client.query(sql)),
    close: () => client.end(),
  };
}

/** Opens (creating from the template when new) a PGlite data directory. */
export async function connectPglite(dataDir: string, fresh: boolean): Promise<SqlConnection> {
  const db = fresh
    ? new PGlite(dataDir, { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(await pgliteTemplateFile())]) })
    : new PGlite(dataDir, { extensions: { pg_trgm } });
  await db.waitReady;
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await db.query<Row>(sql, params)).rows,
    exec: async (sql) => void (await db.exec(sql)),
    close: () => db.close(),
  };
}

export const applyMigrations = (conn: SqlConnection) => migrate(conn);
