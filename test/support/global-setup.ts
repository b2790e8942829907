// Once per test run: a migrated PGlite dump that each test file's database starts from (skips initdb), or, with
// DATABASE_URL, the migrations applied to that PostgreSQL database; and the service compiled to JavaScript for the
// server and CLI processes the tests start (test/support/process-js.ts); the OpenAPI document's validators of every
// documented answer (test/support/openapi-checks.ts).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { cachedPgliteDump, pgliteTemplateFile, withPgConnection } from "../../src/db/connections";
import { migrate } from "../../src/db/migrate";
import { prepareOpenApiChecks } from "./openapi-checks";
import { buildProcessJs } from "./process-js";

/**
 * A dump of an empty PGlite database (initdb only, no migration), for the tests of the migrations themselves
 * (test/system/migrations.test.ts): initdb takes seconds, and its result depends on the PGlite release alone.
 */
async function emptyPgliteTemplate(): Promise<string> {
  const release = createHash("sha256").update(readFileSync(path.join(__dirname, "../../node_modules/@electric-sql/pglite/package.json"))).digest("hex").slice(0, 16);
  return cachedPgliteDump("empty", release, async () => undefined);
}

export default async function globalSetup(): Promise<void> {
  process.env.PRS_PROCESS_JS = await buildProcessJs();
  process.env.PRS_OPENAPI_CHECKS = prepareOpenApiChecks(process.env.PRS_PROCESS_JS);
  process.env.PGLITE_EMPTY_TEMPLATE = await emptyPgliteTemplate();
  if (process.env.DATABASE_URL) {
    await withPgConnection(process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL, migrate);
    return;
  }
  process.env.PGLITE_TEMPLATE = await pgliteTemplateFile();
}
