// The bench's databases: the main one (a temp PGlite directory, or DATABASE_URL) and a second, small one for the
// 1k side of the address search (a second temp PGlite directory, or DATABASE_URL's database name + "_small",
// created when missing).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { applyMigrations, connectPglite, connectPostgres, type SqlConnection } from "./sql";

export interface BenchDatabase {
  label: string;
  /** What the server process gets: DATABASE_URL or PGLITE_DATA_DIR. */
  env: Record<string, string>;
  /** A migrated connection; close it before the server opens a PGlite directory. */
  connect(): Promise<SqlConnection>;
  remove(): void;
}

function pglite(): BenchDatabase {
  const dir = mkdtempSync(path.join(os.tmpdir(), "prs-bench-"));
  return {
    label: `PGlite in ${dir}`,
    env: { PGLITE_DATA_DIR: dir },
    connect: async () => {
      const conn = await connectPglite(dir, true);
      await applyMigrations(conn);
      return conn;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgres(url: string): BenchDatabase {
  return {
    label: `PostgreSQL ${new URL(url).pathname.slice(1)}`,
    env: { DATABASE_URL: url },
    connect: async () => {
      const conn = await connectPostgres(url);
      await applyMigrations(conn);
      return conn;
    },
    remove: () => undefined,
  };
}

/** The same server with its database name suffixed, created if missing (needs CREATEDB; say so if not). */
async function siblingPostgres(url: string, suffix: string): Promise<BenchDatabase> {
  const sibling = new URL(url);
  const name = `${sibling.pathname.slice(1)}${suffix}`;
  sibling.pathname = `/${name}`;
  const admin = await connectPostgres(url);
  try {
    const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [name]);
    if (!exists.length) await admin.exec(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    throw new Error(`scenario 3 needs a second database '${name}' on the same server (create it, or grant CREATEDB): ${String(err)}`, { cause: err });
  } finally {
    await admin.close();
  }
  return postgres(sibling.toString());
}

export async function benchDatabases(databaseUrl: string | undefined): Promise<{ main: BenchDatabase; small: BenchDatabase }> {
  if (!databaseUrl) return { main: pglite(), small: pglite() };
  return { main: postgres(databaseUrl), small: await siblingPostgres(databaseUrl, "_small") };
}
