// A raw SQL connection for seeding and checks: pg for PostgreSQL, PGlite in this process for the embedded
// default. The server is stopped while the bench holds a PGlite directory (PGlite is single-process).
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrate, readMigrations } from "../src/db/migrate";
import { writePgliteTemplate } from "../src/db/connections";
import { createHash } from "node:crypto";

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

/** A migrated, empty PGlite dump, cached in the temp dir per migration set (skips PGlite's initdb of ~5 s). */
async function pgliteTemplate(): Promise<string> {
  const migrations = await readMigrations();
  const hash = createHash("sha256").update(migrations.map((m) => m.checksum).join()).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `prs-pglite-template-${hash}.tar`);
  if (!existsSync(file)) await writePgliteTemplate(file);
  return file;
}

/** Opens (creating from the template when new) a PGlite data directory. */
export async function connectPglite(dataDir: string, fresh: boolean): Promise<SqlConnection> {
  const db = fresh
    ? new PGlite(dataDir, { extensions: { pg_trgm }, loadDataDir: new Blob([readFileSync(await pgliteTemplate())]) })
    : new PGlite(dataDir, { extensions: { pg_trgm } });
  await db.waitReady;
  return {
    query: async <Row>(sql: string, params?: unknown[]) => (await db.query<Row>(sql, params)).rows,
    exec: async (sql) => void (await db.exec(sql)),
    close: () => db.close(),
  };
}

export const applyMigrations = (conn: SqlConnection) => migrate(conn);
