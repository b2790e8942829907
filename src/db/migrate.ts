// Applies prisma/migrations/*/migration.sql in order, once each, recording them in Prisma's own
// `_prisma_migrations` table so `prisma migrate deploy` can take over on a machine with the native engine.
// Everything runs in one transaction under an advisory lock, so concurrent starts on one PostgreSQL are safe. A run
// that applies a migration also drops the functions keeping the large reads' plans (plan-functions.ts).
import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DROP_PLAN_FUNCTIONS } from "./plan-functions";

/** One database connection that can run multi-statement SQL. */
export interface SqlConnection {
  exec(sql: string): Promise<void>;
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export const MIGRATIONS_DIR = path.resolve(__dirname, "../../prisma/migrations");
const LOCK_ID = 72_707_370; // any constant shared by every process of this service

const CREATE_HISTORY = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Applies pending migrations; returns the names applied by this call. */
export async function migrate(conn: SqlConnection, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await conn.exec("BEGIN");
  try {
    await conn.query("SELECT pg_advisory_xact_lock($1)", [LOCK_ID]);
    await conn.exec(CREATE_HISTORY);
    const rows = await conn.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    const pending: string[] = [];
    for (const m of migrations) {
      const checksum = applied.get(m.name);
      if (checksum !== undefined) {
        if (checksum !== m.checksum) throw new Error(`Migration ${m.name} was changed after it was applied`);
        continue;
      }
      await conn.exec(m.sql);
      await conn.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), 1)`,
        [randomUUID(), m.checksum, m.name],
      );
      pending.push(m.name);
    }
    // The reads' plan functions were made against the old schema: made again on first use (plan-functions.ts).
    if (pending.length) await conn.exec(DROP_PLAN_FUNCTIONS);
    await conn.exec("COMMIT");
    return pending;
  } catch (err) {
    await conn.exec("ROLLBACK").catch(() => undefined);
    throw err;
  }
}
