// Raw connections for migrations and the PGlite template: no Prisma here, so the test suite's global setup can
// use them before any generated code is loaded.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import pg from "pg";
import { migrate, type SqlConnection } from "./migrate";

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

/** Runs `fn` on one dedicated PostgreSQL connection. */
export async function withPgConnection<T>(url: string, fn: (conn: SqlConnection) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
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

/** Writes a dump of a migrated, empty PGlite database to `file` (see DatabaseOptions.templateFile). */
export async function writePgliteTemplate(file: string): Promise<void> {
  const pglite = newPglite("memory://");
  await migrate(pgliteConnection(pglite));
  const dump = await pglite.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
}
