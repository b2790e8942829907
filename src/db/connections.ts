// Raw connections for migrations and the PGlite template: no Prisma here, so the test suite's global setup can
// use them before any generated code is loaded.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { migrate, readMigrations, type SqlConnection } from "./migrate";

/** A PGlite database in `dataDir` (or `memory://`), optionally started from a dump (skips initdb, about 5 s). */
export function newPglite(dataDir: string, templateFile?: string): PGlite {
  if (!dataDir.includes("://")) mkdirSync(dataDir, { recursive: true });
  const options = { extensions: { pg_trgm } };
  return templateFile ? new PGlite(dataDir, { ...options, loadDataDir: new Blob([readFileSync(templateFile)]) }) : new PGlite(dataDir, options);
}

export const pgliteConnection = (pglite: PGlite): SqlConnection => ({
  exec: async (sql) => void (await pglite.exec(sql)),
  query: async <Row>(sql: string, params?: unknown[]) => (await pglite.query<Row>(sql, params)).rows,
});

/**
 * The PostgreSQL driver, loaded when PostgreSQL is used: ~0.1 s of CPU with Prisma's adapter for it, which a process on
 * the embedded database (and every test file on it) need not pay.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
export const pgDriver = (): typeof pg => require("pg") as typeof pg;

/** Runs `fn` on one dedicated PostgreSQL connection. */
export async function withPgConnection<T>(url: string, fn: (conn: SqlConnection) => Promise<T>): Promise<T> {
  const client = new (pgDriver().Client)({ connectionString: url });
  await client.connect();
  try {
    return await fn({
      exec: async (sql) => void (await client.query(sql)),
      query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
    });
  } finally {
    await client.end();
  }
}

/**
 * A PGlite data-directory dump cached in the temp directory as `prs-pglite-<name>-<version>.tar`: made once, by
 * `prepare` on a new in-memory database, and reused after (initdb alone takes seconds). Written aside and renamed,
 * so processes starting together never read half a file.
 */
export async function cachedPgliteDump(name: string, version: string, prepare: (pglite: PGlite) => Promise<void>): Promise<string> {
  const file = path.join(os.tmpdir(), `prs-pglite-${name}-${version}.tar`);
  if (existsSync(file)) return file;
  const pglite = newPglite("memory://");
  await prepare(pglite);
  const dump = await pglite.dumpDataDir("none");
  await pglite.close();
  writeFileSync(`${file}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${file}.${process.pid}`, file);
  return file;
}

/**
 * A dump of a migrated, empty PGlite database (see DatabaseOptions.templateFile), one per set of migrations: the
 * tests and benchmarks start each database from it. The service uses the `postgres` database only: initdb's
 * `template0` and `template1` are dropped, a third less to unpack at each start.
 */
export async function pgliteTemplateFile(): Promise<string> {
  const migrations = await readMigrations();
  const hash = createHash("sha256").update(migrations.map((m) => m.checksum).join()).digest("hex").slice(0, 16);
  return cachedPgliteDump("template-2", hash, async (pglite) => {
    await migrate(pgliteConnection(pglite));
    await pglite.exec("UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')");
    // One statement a call: several would run as one transaction, which DROP DATABASE refuses.
    for (const sql of ["DROP DATABASE template0", "DROP DATABASE template1", "CHECKPOINT"]) await pglite.exec(sql);
  });
}
