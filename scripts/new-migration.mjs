#!/usr/bin/env node
// Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL from the schema as of the last migration
// (kept beside the migrations as schema.snapshot.prisma) to prisma/schema.prisma.
// Uses Prisma's schema engine compiled to WebAssembly, so no native engine download and no database are needed.
// With the native engine available, `prisma migrate dev` produces the same files.
// usage: npm run db:migration -- <name> [--empty]
//   --empty: a migration file to write by hand (SQL the Prisma schema cannot express: triggers, functions), like
//   `prisma migrate dev --create-only`.
import { readFile, writeFile, mkdir, access } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const name = process.argv[2];
const empty = process.argv.includes("--empty");
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name> [--empty]   (name: lowercase letters, digits, _)");
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(root, "prisma/migrations", `${stamp}_${name}`);
if (empty) {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), "-- Hand-written migration: SQL the Prisma schema does not describe.\n");
  console.log(`Wrote ${path.relative(root, dir)}/migration.sql (empty)`);
  process.exit(0);
}
const schemaPath = path.join(root, "prisma/schema.prisma");
const snapshotPath = path.join(root, "prisma/migrations/schema.snapshot.prisma");
const schema = await readFile(schemaPath, "utf8");
const snapshot = await readFile(snapshotPath, "utf8").catch(() => null);

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
const bindings = await import(path.join(pkgDir, "schema_engine_bg.js"));
const { instance } = await WebAssembly.instantiate(await readFile(path.join(pkgDir, "schema_engine_bg.wasm")), {
  "./schema_engine_bg.js": bindings,
});
bindings.__wbg_set_wasm(instance.exports);
instance.exports.__wbindgen_start();

// The engine wants a database adapter even for a diff between two datamodels: an in-memory PGlite serves.
globalThis.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message) => console.error(message) };
const { PGlite } = await import("@electric-sql/pglite");
const { PrismaPGlite } = await import("pglite-prisma-adapter");
const { bindMigrationAwareSqlAdapterFactory } = await import("@prisma/driver-adapter-utils");
const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPGlite(new PGlite()));

const datamodel = (content) => ({ tag: "schemaDatamodel", files: [{ path: "schema.prisma", content }] });
const engine = await bindings.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, adapter);
const { stdout } = await engine.diff({
  from: snapshot === null ? { tag: "empty" } : datamodel(snapshot),
  to: datamodel(schema),
  script: true,
  exitCode: null,
  filters: { externalTables: [], externalEnums: [] },
});
if (!stdout || /^-- This is an empty migration/.test(stdout.trim())) {
  console.log("No schema changes since the last migration.");
  process.exit(0);
}
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, "migration.sql"), stdout);
await writeFile(snapshotPath, schema);
const lock = path.join(root, "prisma/migrations/migration_lock.toml");
await access(lock).catch(() => writeFile(lock, 'provider = "postgresql"\n'));
console.log(`Wrote ${path.relative(root, dir)}/migration.sql`);
