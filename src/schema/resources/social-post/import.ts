// The engagement import: up to 500 post records of a report, upserted by (report, platform, external_id) in one
// statement, each answered with what happened to it (docs/api.md "Social media posts and engagement import").
import { z } from "zod";
import { recordEvent, withEvents, type Tx } from "../../../webhooks/outbox";
import { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { badField, badInput } from "../../errors";
import { checked } from "../../rules";
import { teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "../report/lookup";
import { lockReport, orNotFound } from "../report-items";
import { COUNTS, type CountName, type Platform } from "./fields";
import { checkRecord, MAX_IMPORT, outcome, platformOf, RECORD_FIELDS, type ImportRecord, type StoredPost } from "./import-items";
import { needs } from "../../needs";
import { valueObject } from "../../value-object";

export const IMPORT_STATUSES = ["created", "updated", "unchanged", "skipped_stale", "error"] as const;
type Status = (typeof IMPORT_STATUSES)[number];

export interface ItemResult {
  index: number;
  platform: string | null;
  externalId: string | null;
  status: Status;
  id: string | null;
  /** Errors: the record's field (REST name; null for the record as a whole) and the reason. */
  field: string | null;
  reason: string | null;
}

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  skippedStale: number;
  failed: number;
  results: ItemResult[];
}

const ImportStatus = builder.enumType("SocialImportStatus", {
  description: "What an import did with one record",
  values: {
    created: { description: "A new post" },
    updated: { description: "The stored post took the record's fields and counts" },
    unchanged: { description: "The stored post already held every field (its metrics_at is kept)" },
    skipped_stale: { description: "The record's metrics_at is older than the stored post's: nothing changed" },
    error: { description: "The record is invalid (see message); nothing was saved from it" },
  },
});

const ItemResultType = valueObject<ItemResult>("SocialImportItemResult", "The outcome of one record of an import", {
  index: ["Int", "The record's position in the import, from 0"],
  platform: ["String", "The record's platform (as stored), when it has a valid one", "nullable"],
  externalId: ["String", "The record's external_id", "nullable"],
  status: (t) => t.field({ type: ImportStatus, description: "What happened to it", resolve: (r) => r.status }),
  id: ["ID", "The post's id (every status but error)", "nullable"],
  message: (t) =>
    t.string({
      nullable: true,
      description: "Why the record was refused, naming it: posts[2].likes must be an integer at least 0",
      resolve: (r) => (r.status === "error" ? `${recordName(r.index, r.field)} ${r.reason}` : null),
    }),
  field: ["String", "Errors: the record's field at fault (null: the record as a whole)", "nullable"],
  reason: ["String", "Errors: the reason, without the record's name", "nullable"],
});

const recordName = (index: number, field: string | null) => `posts[${index}]${field ? `.${field}` : ""}`;

const ImportResultType = valueObject<ImportResult>("SocialImportResult", "What an import did: counts per outcome and one result per record, in order", {
  created: ["Int", "Records that made a new post"],
  updated: ["Int", "Records that changed a stored post"],
  unchanged: ["Int", "Records equal to their stored post"],
  skippedStale: ["Int", "Records older than their stored post"],
  failed: ["Int", "Invalid records"],
  results: (t) => t.field({ type: [ItemResultType], description: "One per record, in the import's order", resolve: (r) => r.results }),
});

builder.mutationFields((t) => ({
  importSocialMediaPosts: t.field({
    type: ImportResultType,
    ...needs(["social_media:create", "social_media:update"], `Upserts up to ${MAX_IMPORT} post records of a report by (platform, external_id). Records use the REST names (${RECORD_FIELDS.join(", ")}). Invalid records are reported and the others applied, unless atomic.`),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      posts: t.arg({
        type: ["JSON"],
        required: true,
        description: `1 to ${MAX_IMPORT} post records (objects)`,
        validate: checked(z.array(z.unknown()).min(1).max(MAX_IMPORT)),
      }),
      atomic: t.arg.boolean({ defaultValue: false, required: true, description: "true: any invalid record refuses the whole import (400), nothing is saved" }),
    },
    resolve: async (_root, { reportId, posts, atomic }, ctx) => {
      const teamId = teamIdOf(ctx);
      const report = await reportIdOfTeam(teamId, String(reportId));
      return importPosts(report, teamId, posts, atomic);
    },
  }),
}));

type Entry = { index: number; record: ImportRecord };

async function importPosts(reportId: string, teamId: string, posts: unknown[], atomic: boolean): Promise<ImportResult> {
  const { results, records } = checkAll(posts);
  const refused = results.filter(Boolean);
  if (atomic && refused.length) {
    const first = refused[0];
    throw badField(["posts", first.index, ...(first.field ? [first.field] : [])], first.reason!);
  }
  if (records.length) await orNotFound(withEvents((tx) => apply(tx, reportId, teamId, records, results)), REPORT_NOT_FOUND);
  return { ...countsOf(results), results };
}

/** Checks every record: the refused ones get their error result; the valid ones (by key, the later wins) are returned. */
function checkAll(posts: unknown[]): { results: ItemResult[]; records: Entry[] } {
  const results: ItemResult[] = [];
  const valid = new Map<string, Entry>(); // by platform + external_id
  posts.forEach((raw, index) => {
    const checkedRecord = checkRecord(raw);
    if (!("record" in checkedRecord)) {
      const platform = platformOf(typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).platform : undefined) ?? null;
      results[index] = { index, platform, externalId: externalIdOf(raw), status: "error", id: null, field: checkedRecord.field, reason: checkedRecord.reason };
      return;
    }
    const { record } = checkedRecord;
    const earlier = valid.get(keyOf(record));
    if (earlier) {
      results[earlier.index] = { ...resultOf(earlier), status: "error", field: null, reason: "is a duplicate of a later record with the same platform and external_id" };
    }
    valid.set(keyOf(record), { index, record });
  });
  return { results, records: [...valid.values()].filter(({ index }) => !results[index]) };
}

/**
 * Applies the valid records in one transaction that holds the report's row, so imports of one report run one after
 * the other: each record's outcome is decided against the posts as the previous import left them (eight identical
 * imports at once create each post once and find it unchanged after), and the engagement totals are checked with
 * no other import in between. A delete of the report waits for the import, or has won and the import answers 404.
 */
async function apply(tx: Tx, reportId: string, teamId: string, records: Entry[], results: ItemResult[]): Promise<void> {
  await lockReport(tx, reportId, teamId);
  const now = new Date(); // after the lock: a record without metrics_at is never older than the import before it
  const stored = await tx.socialMediaPost.findMany({
    where: { reportId, teamId, OR: records.map(({ record }) => ({ platform: record.platform, externalId: record.externalId })) },
    select: { id: true, platform: true, externalId: true, url: true, caption: true, postedAt: true, metricsAt: true, likes: true, comments: true, shares: true, saves: true, views: true, reach: true },
  });
  const byKey = new Map(stored.map((post) => [keyOf(post), post]));
  const writes: Entry[] = [];
  for (const entry of records) {
    const post = byKey.get(keyOf(entry.record));
    const status = outcome(entry.record, post as StoredPost | undefined, now);
    results[entry.index] = { ...resultOf(entry), status, id: post?.id ?? null };
    if (status === "created" || status === "updated") writes.push(entry);
  }
  if (!writes.length) return;
  const indexOf = new Map(writes.map(({ index, record }) => [keyOf(record), index]));
  for (const row of await upsert(tx, reportId, teamId, writes, now)) {
    const index = indexOf.get(keyOf(row))!;
    results[index] = { ...results[index], id: row.id, status: row.inserted ? "created" : "updated" }; // inserted: its post was deleted since the read
  }
  await checkTotals(tx, reportId, teamId);
  const { created, updated, unchanged, skippedStale, failed } = countsOf(results);
  await recordEvent(tx, teamId, "social_posts.imported", { report_id: reportId, created, updated, unchanged, skipped_stale: skippedStale, failed });
}

/** Writes the records in one statement (insert, or update the post of the same key). */
function upsert(tx: Tx, reportId: string, teamId: string, writes: Entry[], now: Date) {
  return tx.$queryRaw<Array<{ id: string; platform: Platform; externalId: string; inserted: boolean }>>`
    INSERT INTO social_media_posts AS p (id, team_id, report_id, platform, external_id, url, caption, posted_at,
      likes, comments, shares, saves, views, reach, metrics_at, created_at, updated_at)
    VALUES ${Prisma.join(writes.map(({ record: r }) => Prisma.sql`(gen_random_uuid(), ${teamId}::uuid, ${reportId}::uuid, ${r.platform}, ${r.externalId},
      ${r.url}, ${r.caption}, ${r.postedAt}::timestamptz, ${Prisma.join(COUNTS.map((name) => Prisma.sql`${r.counts[name]}::bigint`))},
      ${r.metricsAt ?? now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz)`))}
    ON CONFLICT (report_id, platform, external_id) DO UPDATE SET url = excluded.url, caption = excluded.caption,
      posted_at = excluded.posted_at, likes = excluded.likes, comments = excluded.comments, shares = excluded.shares,
      saves = excluded.saves, views = excluded.views, reach = excluded.reach, metrics_at = excluded.metrics_at,
      updated_at = excluded.updated_at
    RETURNING id, platform, external_id AS "externalId", (xmax = 0) AS inserted`;
}

/**
 * Every engagement total of a report stays an integer a JSON number holds exactly (at most 2^53 - 1): an import that
 * would take one past it is refused whole (400 naming the counts), rather than totals read back rounded.
 */
async function checkTotals(tx: Tx, reportId: string, teamId: string): Promise<void> {
  const over = Prisma.join(COUNTS.map((name) => Prisma.sql`coalesce(sum(${Prisma.raw(name)}), 0) > ${Prisma.raw(String(Number.MAX_SAFE_INTEGER))} AS ${Prisma.raw(name)}`));
  const [totals] = await tx.$queryRaw<Array<Record<CountName, boolean>>>`
    SELECT ${over} FROM social_media_posts WHERE report_id = ${reportId}::uuid AND team_id = ${teamId}::uuid`;
  const names = COUNTS.filter((name) => totals[name]);
  if (names.length) {
    const words = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
    throw badInput(
      `The import would take the report's total ${words} past ${Number.MAX_SAFE_INTEGER} (2^53 - 1, the largest integer a JSON number holds exactly); nothing was saved`,
    );
  }
}

const keyOf = (post: { platform: string; externalId: string }) => `${post.platform}\u0000${post.externalId}`;

function countsOf(results: ItemResult[]) {
  const count = (status: Status) => results.filter((r) => r.status === status).length;
  return { created: count("created"), updated: count("updated"), unchanged: count("unchanged"), skippedStale: count("skipped_stale"), failed: count("error") };
}

function resultOf({ index, record }: { index: number; record: ImportRecord }): ItemResult {
  return { index, platform: record.platform, externalId: record.externalId, status: "created", id: null, field: null, reason: null };
}

function externalIdOf(raw: unknown): string | null {
  const value = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).external_id : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}
