// The records of an engagement import, checked one by one (an invalid record is that record's error, not the whole
// import's): REST names, as in the CSV header and the JSON body. Pure functions, no database.
import { hasInvalidCharacters } from "../../rules";
import { parseDateTime } from "../../scalars";
import { COUNTS, PLATFORMS, type CountName, type Platform } from "./fields";

/** Most records one import may hold. */
export const MAX_IMPORT = 500;

/** A record's fields (REST names: the JSON body's and the CSV header's), in the order the documents list them. */
export const RECORD_FIELDS = ["platform", "external_id", "url", "caption", "posted_at", ...COUNTS, "metrics_at"] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];
/** The fields every record needs (and so every CSV header). */
export const REQUIRED_RECORD_FIELDS = ["platform", "external_id"] as const satisfies readonly RecordField[];

export interface ImportRecord {
  platform: Platform;
  externalId: string;
  url: string | null;
  caption: string | null;
  postedAt: Date | null;
  /** null: not given, the import's time (taken when it runs, so a later import is never older). */
  metricsAt: Date | null;
  counts: Record<CountName, number | null>;
}

/** A record, or why it is refused: the field (REST name; none for the record as a whole) and the reason. */
export type Checked = { record: ImportRecord } | { field: string | null; reason: string };

/** instagram, Instagram, INSTAGRAM → instagram; twitter → x. */
export function platformOf(value: unknown): Platform | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.trim().toLowerCase();
  const platform = name === "twitter" ? "x" : name;
  return (PLATFORMS as readonly string[]).includes(platform) ? (platform as Platform) : undefined;
}

class Refused extends Error {
  constructor(
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function text(raw: Record<string, unknown>, field: string, max: number, required = false): string | null {
  const value = raw[field];
  if (value === undefined || value === null || value === "") {
    if (required) throw new Refused(field, "is required");
    return null;
  }
  if (typeof value !== "string" && !(required && typeof value === "number" && Number.isSafeInteger(value))) throw new Refused(field, "must be a string");
  const s = String(value);
  if (hasInvalidCharacters(s)) throw new Refused(field, "contains invalid characters");
  if (s.length > max) throw new Refused(field, `must be at most ${max} characters`);
  if (required && s.trim() === "") throw new Refused(field, "must not be empty");
  return s;
}

function dateTime(raw: Record<string, unknown>, field: string): Date | null {
  const value = raw[field];
  if (value === undefined || value === null || value === "") return null;
  try {
    return parseDateTime(value);
  } catch {
    throw new Refused(field, "must be an ISO 8601 date-time");
  }
}

function countOf(raw: Record<string, unknown>, field: CountName): number | null {
  const value = raw[field];
  if (value === undefined || value === null || value === "") return null;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) throw new Refused(field, "must be an integer at least 0");
  return value;
}

/** Checks one record. */
export function checkRecord(raw: unknown): Checked {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { field: null, reason: "must be an object" };
  const fields = raw as Record<string, unknown>;
  try {
    const platform = platformOf(fields.platform);
    if (!platform) {
      throw new Refused("platform", fields.platform == null || fields.platform === "" ? "is required" : `must be one of: ${PLATFORMS.join(", ")}`);
    }
    const counts = Object.fromEntries(COUNTS.map((name) => [name, countOf(fields, name)])) as Record<CountName, number | null>;
    return {
      record: {
        platform,
        externalId: text(fields, "external_id", 255, true)!,
        url: text(fields, "url", 2000),
        caption: text(fields, "caption", 5000),
        postedAt: dateTime(fields, "posted_at"),
        metricsAt: dateTime(fields, "metrics_at"),
        counts,
      },
    };
  } catch (err) {
    if (err instanceof Refused) return { field: err.field, reason: err.reason };
    throw err;
  }
}

/** What a stored post holds of a record (counts as bigints, as Prisma reads them). */
export interface StoredPost {
  url: string | null;
  caption: string | null;
  postedAt: Date | null;
  metricsAt: Date;
  likes: bigint | null;
  comments: bigint | null;
  shares: bigint | null;
  saves: bigint | null;
  views: bigint | null;
  reach: bigint | null;
}

/** What an import running at `importedAt` does with a valid record, given the post stored under its key (if any). */
export function outcome(record: ImportRecord, stored: StoredPost | undefined, importedAt: Date): "created" | "updated" | "unchanged" | "skipped_stale" {
  if (!stored) return "created";
  if ((record.metricsAt ?? importedAt).getTime() < stored.metricsAt.getTime()) return "skipped_stale";
  const same =
    record.url === stored.url &&
    record.caption === stored.caption &&
    (record.postedAt?.getTime() ?? null) === (stored.postedAt?.getTime() ?? null) &&
    COUNTS.every((name) => record.counts[name] === (stored[name] === null ? null : Number(stored[name])));
  return same ? "unchanged" : "updated";
}
