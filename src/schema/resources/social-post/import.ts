// The engagement import: up to 500 post records of a report, upserted by (report, platform, external_id) in one
// statement, each answered with what happened to it (DECISIONS "Social media posts and engagement import").
import { z } from "zod";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { prisma } from "../../../db";
import { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { badField } from "../../errors";
import { checked } from "../../rules";
import { teamIdOf } from "../../scope";
import { reportIdOfTeam } from "../report/lookup";
import { COUNTS, type Platform } from "./fields";
import { checkRecord, MAX_IMPORT, outcome, platformOf, type ImportRecord, type StoredPost } from "./import-items";

export const IMPORT_STATUSES = ["created", "updated", "unchanged", "skipped_stale", "error"] as const;
type Status = (typeof IMPORT_STATUSES)[number];

interface ItemResult {
  index: number;
  platform: string | null;
  externalId: string | null;
  status: Status;
  id: string | null;
  /** Errors: the record's field (REST name; null for the record as a whole) and the reason. */
  field: string | null;
  reason: string | null;
}

interface ImportResult {
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

const ItemResultType = builder.objectRef<ItemResult>("SocialImportItemResult").implement({
  description: "The outcome of one record of an import",
  fields: (t) => ({
    index: t.exposeInt("index", { description: "The record's position in the import, from 0" }),
    platform: t.exposeString("platform", { nullable: true, description: "The record's platform (as stored), when it has a valid one" }),
    externalId: t.exposeString("externalId", { nullable: true, description: "The record's external_id" }),
    status: t.field({ type: ImportStatus, description: "What happened to it", resolve: (r) => r.status }),
    id: t.exposeID("id", { nullable: true, description: "The post's id (every status but error)" }),
    message: t.string({
      nullable: true,
      description: "Why the record was refused, naming it: posts[2].likes must be an integer at least 0",
      resolve: (r) => (r.status === "error" ? `${recordName(r.index, r.field)} ${r.reason}` : null),
    }),
    field: t.exposeString("field", { nullable: true, description: "Errors: the record's field at fault (null: the record as a whole)" }),
    reason: t.exposeString("reason", { nullable: true, description: "Errors: the reason, without the record's name" }),
  }),
});

const recordName = (index: number, field: string | null) => `posts[${index}]${field ? `.${field}` : ""}`;

const ImportResultType = builder.objectRef<ImportResult>("SocialImportResult").implement({
  description: "What an import did: counts per outcome and one result per record, in order",
  fields: (t) => ({
    created: t.exposeInt("created", { description: "Records that made a new post" }),
    updated: t.exposeInt("updated", { description: "Records that changed a stored post" }),
    unchanged: t.exposeInt("unchanged", { description: "Records equal to their stored post" }),
    skippedStale: t.exposeInt("skippedStale", { description: "Records older than their stored post" }),
    failed: t.exposeInt("failed", { description: "Invalid records" }),
    results: t.field({ type: [ItemResultType], description: "One per record, in the import's order", resolve: (r) => r.results }),
  }),
});

builder.mutationFields((t) => ({
  importSocialMediaPosts: t.field({
    type: ImportResultType,
    description: `Upserts up to ${MAX_IMPORT} post records of a report by (platform, external_id). Records use the REST names (platform, external_id, url, caption, posted_at, likes, comments, shares, saves, views, reach, metrics_at). Invalid records are reported and the others applied, unless atomic. Needs social_media:create and social_media:update.`,
    authScopes: { permissions: ["social_media:create", "social_media:update"] },
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

async function importPosts(reportId: string, teamId: string, posts: unknown[], atomic: boolean): Promise<ImportResult> {
  const now = new Date();
  const results: ItemResult[] = [];
  const valid = new Map<string, { index: number; record: ImportRecord }>(); // by platform + external_id; the later record wins
  posts.forEach((raw, index) => {
    const checkedRecord = checkRecord(raw, now);
    if (!("record" in checkedRecord)) {
      const platform = platformOf(typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).platform : undefined) ?? null;
      results[index] = { index, platform, externalId: externalIdOf(raw), status: "error", id: null, field: checkedRecord.field, reason: checkedRecord.reason };
      return;
    }
    const { record } = checkedRecord;
    const key = `${record.platform}\u0000${record.externalId}`;
    const earlier = valid.get(key);
    if (earlier) {
      results[earlier.index] = { ...resultOf(earlier), status: "error", field: null, reason: "is a duplicate of a later record with the same platform and external_id" };
    }
    valid.set(key, { index, record });
  });
  const refused = results.filter(Boolean);
  if (atomic && refused.length) {
    const first = refused[0];
    throw badField(["posts", first.index, ...(first.field ? [first.field] : [])], first.reason!);
  }

  const records = [...valid.values()].filter(({ index }) => !results[index]);
  const stored = records.length
    ? await prisma.socialMediaPost.findMany({
        where: { reportId, teamId, OR: records.map(({ record }) => ({ platform: record.platform, externalId: record.externalId })) },
        select: { id: true, platform: true, externalId: true, url: true, caption: true, postedAt: true, metricsAt: true, likes: true, comments: true, shares: true, saves: true, views: true, reach: true },
      })
    : [];
  const byKey = new Map(stored.map((post) => [`${post.platform}\u0000${post.externalId}`, post]));
  const writes: Array<{ index: number; record: ImportRecord }> = [];
  for (const entry of records) {
    const post = byKey.get(`${entry.record.platform}\u0000${entry.record.externalId}`);
    const status = outcome(entry.record, post as StoredPost | undefined);
    results[entry.index] = { ...resultOf(entry), status, id: post?.id ?? null };
    if (status === "created" || status === "updated") writes.push(entry);
  }
  const count = (status: Status) => results.filter((r) => r.status === status).length;
  const counts = () => ({ created: count("created"), updated: count("updated"), unchanged: count("unchanged"), skippedStale: count("skipped_stale"), failed: count("error") });
  if (writes.length) {
    await withEvents(async (tx) => {
      // One statement: a record whose post was written meanwhile by another import is an update if its counts are
      // as new or newer, and skipped as stale otherwise (the WHERE), so the newest counts win whatever the order.
      const written = await tx.$queryRaw<Array<{ id: string; platform: Platform; external_id: string; inserted: boolean }>>`
        INSERT INTO social_media_posts AS p (id, team_id, report_id, platform, external_id, url, caption, posted_at,
          likes, comments, shares, saves, views, reach, metrics_at, created_at, updated_at)
        VALUES ${Prisma.join(writes.map(({ record: r }) => Prisma.sql`(gen_random_uuid(), ${teamId}::uuid, ${reportId}::uuid, ${r.platform}, ${r.externalId},
          ${r.url}, ${r.caption}, ${r.postedAt}::timestamptz, ${Prisma.join(COUNTS.map((name) => Prisma.sql`${r.counts[name]}::bigint`))},
          ${r.metricsAt}::timestamptz, ${now}::timestamptz, ${now}::timestamptz)`))}
        ON CONFLICT (report_id, platform, external_id) DO UPDATE SET url = excluded.url, caption = excluded.caption,
          posted_at = excluded.posted_at, likes = excluded.likes, comments = excluded.comments, shares = excluded.shares,
          saves = excluded.saves, views = excluded.views, reach = excluded.reach, metrics_at = excluded.metrics_at,
          updated_at = excluded.updated_at
        WHERE p.metrics_at <= excluded.metrics_at
        RETURNING id, platform, external_id, (xmax = 0) AS inserted`;
      const outcomes = new Map(written.map((row) => [`${row.platform}\u0000${row.external_id}`, row]));
      for (const { index, record } of writes) {
        const row = outcomes.get(`${record.platform}\u0000${record.externalId}`);
        results[index] = row
          ? { ...results[index], id: row.id, status: row.inserted ? "created" : "updated" }
          : { ...results[index], status: "skipped_stale" };
      }
      const { created, updated, unchanged, skippedStale, failed } = counts();
      if (created + updated > 0) {
        await recordEvent(tx, teamId, "social_posts.imported", { report_id: reportId, created, updated, unchanged, skipped_stale: skippedStale, failed });
      }
    });
  }
  return { ...counts(), results };
}

function resultOf({ index, record }: { index: number; record: ImportRecord }): ItemResult {
  return { index, platform: record.platform, externalId: record.externalId, status: "created", id: null, field: null, reason: null };
}

function externalIdOf(raw: unknown): string | null {
  const value = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>).external_id : undefined;
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}
