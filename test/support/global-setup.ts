// Once per test run: a migrated PGlite dump that each test file's database starts from (skips initdb), or, with
// DATABASE_URL, the migrations applied to that PostgreSQL database; and the service compiled to JavaScript for the
// server and CLI processes the tests start (test/support/process-js.ts).
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { withPgConnection, writePgliteTemplate } from "../../src/db/connections";
import { migrate, readMigrations } from "../../src/db/migrate";
import { buildProcessJs } from "./process-js";

export default async function globalSetup(): Promise<void> {
  process.env.PRS_PROCESS_JS = await buildProcessJs();
  if (process.env.DATABASE_URL) {
    await withPgConnection(process.env.DATABASE_URL, migrate);
    return;
  }
  const migrations = await readMigrations();
  const hash = createHash("sha256").update(migrations.map((m) => m.checksum).join()).digest("hex").slice(0, 16);
  const file = path.join(os.tmpdir(), `prs-pglite-template-${hash}.tar`);
  if (!existsSync(file)) await writePgliteTemplate(file);
  process.env.PGLITE_TEMPLATE = file;
}
