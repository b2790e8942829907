// The migration path itself, on PGlite and (when DATABASE_URL is set) on a fresh PostgreSQL database.
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { MIGRATIONS_DIR, readMigrations } from "../../src/db/migrate";
import { openDatabase, type Database } from "../../src/db/open";

const TABLES = ["teams", "team_usage", "api_keys", "reports", "comparables", "showings", "social_media_posts", "agent_insights"];

async function checkMigrated(db: Database) {
  const names = (await readMigrations()).map((m) => m.name);
  const history = await db.prisma.$queryRaw<{ migration_name: string; checksum: string }[]>`
    SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`;
  expect(history.map((h) => h.migration_name)).toEqual(names);
  const tables = await db.prisma.$queryRaw<{ table_name: string }[]>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`;
  expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(TABLES));
  // The trigram index address search relies on.
  const indexes = await db.prisma.$queryRaw<{ indexname: string }[]>`SELECT indexname FROM pg_indexes WHERE tablename = 'reports'`;
  expect(indexes.map((i) => i.indexname)).toContain("reports_search_key_trgm_idx");
}

/**
 * A new, empty PGlite database: started from the global setup's dump of one just made by initdb (no migration
 * applied), as initdb itself takes seconds.
 */
const emptyPglite = () => openDatabase({ dataDir: "memory://", templateFile: process.env.PGLITE_EMPTY_TEMPLATE });

// One empty database for both tests, in order: fresh migration, then tampering.
describe("on PGlite", () => {
  let db: Database;
  beforeAll(() => void (db = emptyPglite()));
  afterAll(() => db.close());

  it("applies every migration once, records it like `prisma migrate deploy`, and is idempotent", async () => {
    expect(await db.migrate()).toEqual((await readMigrations()).map((m) => m.name));
    expect(await db.migrate()).toEqual([]);
    await checkMigrated(db);
  });

  it("refuses to start when an applied migration was edited afterwards, and rolls back a failing one", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "prs-migrations-"));
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      expect(await db.migrate(dir)).toEqual([]);
      const [first] = await readMigrations(dir);
      writeFileSync(path.join(dir, first.name, "migration.sql"), `${first.sql}\n-- edited\n`);
      await expect(db.migrate(dir)).rejects.toThrow(`Migration ${first.name} was changed after it was applied`);

      writeFileSync(path.join(dir, first.name, "migration.sql"), first.sql);
      mkdirSync(path.join(dir, "99990101000000_broken"));
      writeFileSync(path.join(dir, "99990101000000_broken", "migration.sql"), "CREATE TABLE half_done (id int);\nSELECT * FROM no_such_table;");
      await expect(db.migrate(dir)).rejects.toThrow();
      const leftover = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'half_done'`;
      expect(Number(leftover[0].n)).toBe(0);
      // The failed run left the history as it was: the good migrations still apply cleanly.
      await checkMigrated(db);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("src/db", () => {
  it("opens the service's database on first use, not on import, and closes one never opened without opening it", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "prs-lazy-")), "db");
    const saved = { ...process.env };
    Object.assign(process.env, { PGLITE_DATA_DIR: dir });
    delete process.env.DATABASE_URL;
    try {
      let db!: typeof import("../../src/db");
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
      jest.isolateModules(() => void (db = require("../../src/db")));
      await db.database.close();
      expect(existsSync(dir)).toBe(false);
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously
      jest.isolateModules(() => void (db = require("../../src/db")));
      expect(existsSync(dir)).toBe(false);
      expect(db.database.kind).toBe("pglite");
      expect(existsSync(dir)).toBe(true);
      await db.database.migrate();
      expect(await db.prisma.team.count()).toBe(0);
      await db.database.close();
    } finally {
      process.env = saved;
      rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});

// Kept after the lazy-open test: run before it, that test's PGlite (opened from a data directory) failed its first
// query with "The encoded data was not valid for encoding utf-8" (PGlite 0.4; not investigated further).
it("moves existing collection rows into their report's team and gives them the new defaults (tenant_collections)", async () => {
  const db = emptyPglite();
  const dir = mkdtempSync(path.join(os.tmpdir(), "prs-migrations-"));
  try {
    const all = await readMigrations();
    const at = all.findIndex((m) => m.name.endsWith("_tenant_collections"));
    for (const m of all.slice(0, at)) cpSync(path.join(MIGRATIONS_DIR, m.name), path.join(dir, m.name), { recursive: true });
    await db.migrate(dir);
    const team = randomUUID();
    const report = randomUUID();
    await db.prisma.$executeRawUnsafe(`INSERT INTO teams (id, name, admin_name) VALUES ('${team}', 'T', 'A')`);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO reports (id, team_id, address, address_key, search_key, listing_agent, created_by, updated_at) VALUES ('${report}', '${team}', 'a', 'a', 'a', 'l', 'c', now())`,
    );
    await db.prisma.$executeRawUnsafe(`INSERT INTO comparables (id, report_id, address) VALUES (gen_random_uuid(), '${report}', 'c')`);
    await db.prisma.$executeRawUnsafe(`INSERT INTO agent_insights (id, report_id, author, body) VALUES (gen_random_uuid(), '${report}', 'a', 'b')`);
    await db.prisma.$executeRawUnsafe(`INSERT INTO social_media_posts (id, report_id, platform) VALUES (gen_random_uuid(), '${report}', 'x')`);

    expect(await db.migrate()).toEqual(all.slice(at).map((m) => m.name));
    expect(await db.prisma.comparable.findFirstOrThrow()).toMatchObject({ teamId: team, status: "sold", included: true, adjustments: {} });
    expect(await db.prisma.agentInsight.findFirstOrThrow()).toMatchObject({ teamId: team, category: "other", source: "agent" });
    expect(await db.prisma.socialMediaPost.findFirstOrThrow()).toMatchObject({ teamId: team });
    // An item can only belong to a report of its own team.
    await expect(db.prisma.comparable.create({ data: { teamId: (await db.prisma.team.create({ data: { name: "U", adminName: "B" } })).id, reportId: report, address: "x" } })).rejects.toThrow();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const pgUrl = process.env.DATABASE_URL;
(pgUrl ? describe : describe.skip)("on PostgreSQL (DATABASE_URL)", () => {
  const name = `prs_migrate_${randomUUID().replace(/-/g, "").slice(0, 12)}`;
  const admin = () => {
    const url = new URL(pgUrl!);
    url.pathname = "/postgres";
    return new pg.Client({ connectionString: url.toString() });
  };
  const fresh = () => {
    const url = new URL(pgUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
  });
  afterAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
  });

  it("applies the same history on an empty database, once, even when several processes start together", async () => {
    const a = openDatabase({ url: fresh() });
    const b = openDatabase({ url: fresh() });
    try {
      const [fromA, fromB] = await Promise.all([a.migrate(), b.migrate()]);
      const all = (await readMigrations()).map((m) => m.name);
      expect([...fromA, ...fromB].sort()).toEqual(all);
      expect(await a.migrate()).toEqual([]);
      await checkMigrated(a);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
