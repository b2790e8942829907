// Seeds the benchmark teams with multi-row INSERT … SELECT FROM unnest(…) through a raw connection: one statement
// per few thousand rows, so 100k reports take seconds. Keys get the same hash/prefix the service computes, and
// address keys come from the service's own normaliser.
import { randomUUID } from "node:crypto";
import { generateApiKey, hashApiKey, keyDisplayPrefix } from "../src/auth/keys";
import { TEAM_FULL_ACCESS } from "../src/auth/permissions";
import { normalizeAddress, normalizeFullAddress } from "../src/schema/address";
import { seedAddress, type SeedAddress } from "./addresses";
import type { SqlConnection } from "./sql";

export const BENCH_TEAM_PREFIX = "Bench ";
const BATCH = 5000;

export interface SeededTeam {
  teamId: string;
  key: string;
  reportIds: string[];
  /** A sample of the team's reports' addresses, spelled differently (search inputs). */
  searchInputs: string[];
}

export interface Seed {
  /** 100 reports with 10 items in each nested collection: reads and statement counts. */
  nested: SeededTeam;
  /** Search at the large size. */
  large: SeededTeam;
  /** Writes (scenario 5): starts with one report. */
  writes: SeededTeam;
}

type Column = [name: string, sqlType: string];

/** INSERT of many rows as one statement: each column is sent as one array parameter. */
async function insertRows(conn: SqlConnection, table: string, columns: Column[], rows: unknown[][]): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const arrays = columns.map((_, c) => batch.map((row) => row[c]));
    const names = columns.map(([name]) => `"${name}"`).join(", ");
    const unnest = columns.map(([, type], c) => `$${c + 1}::${type}[]`).join(", ");
    await conn.query(`INSERT INTO "${table}" (${names}) SELECT * FROM unnest(${unnest})`, arrays);
  }
}

async function createTeam(conn: SqlConnection, name: string): Promise<{ teamId: string; key: string }> {
  const teamId = randomUUID();
  const key = generateApiKey();
  await conn.query(`INSERT INTO teams (id, name, admin_name) VALUES ($1, $2, 'Bench Admin')`, [teamId, name]);
  await conn.query(
    `INSERT INTO api_keys (id, team_id, name, key_hash, prefix, permissions, rate_limit_tier)
     VALUES ($1, $2, 'bench', $3, $4, $5::jsonb, 'enterprise')`,
    [randomUUID(), teamId, hashApiKey(key), keyDisplayPrefix(key), JSON.stringify(TEAM_FULL_ACCESS)],
  );
  return { teamId, key };
}

const REPORT_COLUMNS: Column[] = [
  ["id", "uuid"], ["team_id", "uuid"], ["address", "text"], ["city", "text"], ["state", "text"], ["zip", "text"],
  ["address_key", "text"], ["search_key", "text"], ["price", "float8"], ["beds", "int4"], ["baths", "float8"],
  ["sqft", "int4"], ["year_built", "int4"], ["property_type", "text"], ["status", '"ReportStatus"'],
  ["published_at", "timestamptz"], ["description", "text"], ["listing_agent", "text"], ["created_by", "text"],
  ["created_at", "timestamptz"], ["updated_at", "timestamptz"],
];

async function seedReports(conn: SqlConnection, teamId: string, count: number, cityOffset: number): Promise<{ ids: string[]; addresses: SeedAddress[] }> {
  const ids: string[] = [];
  const addresses: SeedAddress[] = [];
  const rows: unknown[][] = [];
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const a = seedAddress(i, cityOffset);
    const id = randomUUID();
    const created = new Date(now - (count - i) * 1000).toISOString();
    const published = i % 3 === 0;
    ids.push(id);
    addresses.push(a);
    rows.push([
      id, teamId, a.address, a.city, a.state, a.zip, normalizeAddress(a.address), normalizeFullAddress(a),
      250_000 + (i % 500) * 1000, 1 + (i % 6), 1 + (i % 4) * 0.5, 800 + (i % 3000), 1950 + (i % 75),
      i % 2 ? "Single Family" : "Condo", published ? "published" : "draft", published ? created : null,
      "A bright home close to parks and schools.", "Bench Agent", "Bench Team", created, created,
    ]);
  }
  await insertRows(conn, "reports", REPORT_COLUMNS, rows);
  return { ids, addresses };
}

/** `per` items in each of the four collections of every report. */
async function seedCollections(conn: SqlConnection, teamId: string, reportIds: string[], per: number): Promise<void> {
  const comparables: unknown[][] = [];
  const showings: unknown[][] = [];
  const posts: unknown[][] = [];
  const insights: unknown[][] = [];
  const base = Date.now() - 86_400_000;
  for (const reportId of reportIds) {
    for (let j = 0; j < per; j++) {
      const at = new Date(base + j * 60_000).toISOString();
      comparables.push([randomUUID(), teamId, reportId, `${100 + j} Comparable Ave`, 300_000 + j * 5000, 3, 2, 1500 + j * 10, j / 10, at]);
      showings.push([randomUUID(), randomUUID(), teamId, reportId, at, `Visitor ${j}`, `visitor${j}@example.com`, j % 2 ? "showing" : "open_house", (j % 5) + 1, at, at]);
      posts.push([randomUUID(), teamId, reportId, j % 2 ? "instagram" : "facebook", `post-${j}`, `Post ${j}`, at, j * 3, j, j % 4, j * 10, at]);
      insights.push([randomUUID(), teamId, reportId, "Bench Agent", `Insight ${j}`, "Strong demand in this neighbourhood.", "market", at]);
    }
  }
  await insertRows(conn, "comparables", [["id", "uuid"], ["team_id", "uuid"], ["report_id", "uuid"], ["address", "text"], ["price", "float8"], ["beds", "int4"], ["baths", "float8"], ["sqft", "int4"], ["distance_miles", "float8"], ["created_at", "timestamptz"]], comparables);
  await insertRows(conn, "showings", [["id", "uuid"], ["service_id", "uuid"], ["team_id", "uuid"], ["report_id", "uuid"], ["showing_date", "timestamptz"], ["attendee_name", "text"], ["attendee_email", "text"], ["event_type", '"ShowingEventType"'], ["rating", "int4"], ["created_at", "timestamptz"], ["updated_at", "timestamptz"]], showings);
  await insertRows(conn, "social_media_posts", [["id", "uuid"], ["team_id", "uuid"], ["report_id", "uuid"], ["platform", "text"], ["external_id", "text"], ["caption", "text"], ["posted_at", "timestamptz"], ["likes", "int8"], ["comments", "int8"], ["shares", "int8"], ["views", "int8"], ["created_at", "timestamptz"]], posts);
  await insertRows(conn, "agent_insights", [["id", "uuid"], ["team_id", "uuid"], ["report_id", "uuid"], ["author", "text"], ["title", "text"], ["body", "text"], ["category", "text"], ["created_at", "timestamptz"]], insights);
}

/** About 200 of the team's addresses, spread over it, as search inputs. */
const sampleInputs = (addresses: SeedAddress[]) => addresses.filter((_, i) => i % (Math.floor(addresses.length / 200) + 1) === 0).map((a) => a.searchInput);

async function seedTeam(conn: SqlConnection, name: string, reports: number, cityOffset: number, per = 0): Promise<SeededTeam> {
  const { teamId, key } = await createTeam(conn, `${BENCH_TEAM_PREFIX}${name}`);
  const { ids, addresses } = await seedReports(conn, teamId, reports, cityOffset);
  if (per) await seedCollections(conn, teamId, ids, per);
  return { teamId, key, reportIds: ids, searchInputs: sampleInputs(addresses) };
}

/**
 * Removes earlier bench teams (cascading to their rows; only rows of "Bench …" teams are deleted), then compacts the
 * tables: without VACUUM FULL every re-run on the same database left the tables and indexes one seed larger (ten
 * runs doubled the 100k search's p50).
 */
async function removeBenchTeams(conn: SqlConnection): Promise<void> {
  const removed = await conn.query(`DELETE FROM teams WHERE name LIKE $1 RETURNING id`, [`${BENCH_TEAM_PREFIX}%`]);
  if (removed.length) await conn.exec("VACUUM FULL");
}

/**
 * The main database. VACUUM ANALYZE afterwards: a database that grew to this size over time has been vacuumed
 * (statistics, GIN pending list merged); measuring right after a bulk load would measure the load instead.
 */
export async function seed(conn: SqlConnection, largeTeamReports: number): Promise<Seed> {
  await removeBenchTeams(conn);
  const nested = await seedTeam(conn, "nested", 100, 0, 10);
  const large = await seedTeam(conn, `search ${largeTeamReports / 1000}k`, largeTeamReports, 2);
  const writes = await seedTeam(conn, "writes", 1, 3);
  await conn.exec("VACUUM ANALYZE");
  return { nested, large, writes };
}

/** The second database of scenario 3: the same search at 1k reports, with no other data around it. */
export async function seedSmall(conn: SqlConnection): Promise<SeededTeam> {
  await removeBenchTeams(conn);
  const small = await seedTeam(conn, "search 1k", 1000, 2);
  await conn.exec("VACUUM ANALYZE");
  return small;
}
