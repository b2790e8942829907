// Once per test run: a migrated PGlite dump that each test file's database starts from (skips initdb), or, with
// DATABASE_URL, the migrations applied to that PostgreSQL database.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readMigrations } from "../../src/db/migrate";
import { openDatabase, writePgliteTemplate } from "../../src/db/open";

export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const db = openDatabase({ url: process.env.DATABASE_URL });
    await db.migrate();
    await db.close();
    return;
  }
  const migrations = await readMigrations();
  const hash = createHash("sha256").update(migrations.map((m) => m.checksum).join()).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `prs-pglite-template-${hash}.tar`);
  if (!existsSync(file)) await writePgliteTemplate(file);
  process.env.PGLITE_TEMPLATE = file;
}
