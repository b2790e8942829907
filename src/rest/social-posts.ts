// /v1/reports/{reportId}/social-posts (list, import from JSON or CSV), /v1/social-posts/{postId} (get, delete) and
// /v1/reports/{reportId}/social-engagement.
import type { Request } from "express";
import { parse as parseCsv, CsvError } from "csv-parse/sync";
import { pathNaming, type NameOf } from "../schema/errors";
import { COUNTS, socialPostFields } from "../schema/resources/social-post/fields";
import { MAX_IMPORT, REQUIRED_RECORD_FIELDS } from "../schema/resources/social-post/import-items";
import type { ImportResult as ImportResultOf, ItemResult as ItemResultOf } from "../schema/resources/social-post/import";
import { operation, RestError, runRoot } from "./graphql";
import { bodyObject, importBody, queryText } from "./input";
import type { RestNamed } from "./object-shapes";
import { reportIdParam, reportItemRoutes } from "./report-items";
import type { RestRoute } from "./route";
import { getRoute } from "./route-kinds";
import * as s from "./schemas";
import { ENGAGEMENT, IMPORT_RESULT } from "./shapes";

// An error's field and reason are selected besides the answer's fields: REST names the record in its own message.
const IMPORT = operation(`mutation RestImportSocialPosts($reportId: ID!, $posts: [JSON!]!, $atomic: Boolean!) {
  importSocialMediaPosts(reportId: $reportId, posts: $posts, atomic: $atomic) { ${IMPORT_RESULT.selection} results { field reason } }
}`);

const ENGAGEMENT_QUERY = operation(`query RestSocialEngagement($reportId: ID!) { socialEngagement(reportId: $reportId) { ${ENGAGEMENT.selection} } }`);

/** The import's answer as the operation gives it (the schema's result under REST names, with each item's message). */
type ImportResult = RestNamed<Omit<ImportResultOf, "results">> & { results: Array<RestNamed<ItemResultOf> & { message: string | null }> };

/** The posts of a JSON body ({ "posts": [ … ] }); the schema checks each. */
function jsonPosts(req: Request): unknown[] {
  const posts = bodyObject(req).posts;
  if (!Array.isArray(posts)) throw new RestError(400, posts === undefined ? "posts is required" : "posts must be an array");
  return posts;
}

const REQUIRED_COLUMNS: readonly string[] = REQUIRED_RECORD_FIELDS;
/** Bounds that let a hostile CSV be refused after reading a little of it, not after parsing all 4 MiB. */
const MAX_COLUMNS = 100;
const MAX_RECORD_BYTES = 65_536; // a record of the longest fields (caption 5,000 and url 2,000 characters) fits

/**
 * The records of a CSV body (a header row of the REST names, then one post per record) and the line each starts on
 * (the header is line 1; a quoted multi-line record counts by its first line). Empty cells are left out; count
 * cells of digits become numbers, anything else in them stays text for the schema to refuse.
 */
function csvPosts(body: Buffer): { posts: unknown[]; lines: number[] } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new RestError(400, "CSV must be encoded in UTF-8");
  }
  // CRLF files (spreadsheets) are read as LF: line numbers then count right, and captions keep \n line breaks.
  const lf = text.replace(/\r\n/g, "\n");
  const wide = recordPastColumns(lf);
  if (wide) throw new RestError(400, `CSV records must have at most ${MAX_COLUMNS} columns; line ${wide} has more`);
  const parsed = parseRecords(lf);
  if (parsed.length > MAX_IMPORT) throw new RestError(400, `CSV must have at most ${MAX_IMPORT} records (rows after the header)`);
  const header = parsed[0] ? Object.keys(parsed[0].record) : [];
  const missing = REQUIRED_COLUMNS.filter((column) => !header.includes(column));
  if (parsed.length === 0 || missing.length) {
    throw new RestError(400, `CSV needs a header row naming its columns (at least ${REQUIRED_COLUMNS.join(", ")}) and one row per post`);
  }
  const counts = new Set<string>(COUNTS);
  const posts = parsed.map(({ record }) =>
    Object.fromEntries(
      Object.entries(record)
        .filter(([, value]) => value !== "")
        .map(([column, value]) => [column, counts.has(column) && /^\d{1,16}$/.test(value) ? Number(value) : value]),
    ),
  );
  // The line a record ends on, less the line breaks inside it (empty lines skipped before it aside).
  const lines = parsed.map(({ info, raw }) => info.lines - (raw.replace(/^\n+/, "").replace(/\n$/, "").match(/\n/g)?.length ?? 0));
  return { posts, lines };
}

type Parsed = Array<{ record: Record<string, string>; info: { lines: number }; raw: string }>;

/** The records by the header's names; parsing stops at the first record past the import's limit or MAX_RECORD_BYTES. */
function parseRecords(text: string): Parsed {
  try {
    return parseCsv(text, { columns: true, to: MAX_IMPORT + 1, max_record_size: MAX_RECORD_BYTES, bom: true, info: true, raw: true, skip_empty_lines: true, trim: true });
  } catch (err) {
    if (err instanceof CsvError && err.code === "CSV_MAX_RECORD_SIZE") {
      const { lines } = err as CsvError & { lines: number };
      throw new RestError(400, `A CSV record must be at most ${MAX_RECORD_BYTES} bytes; one passes it at line ${lines}`);
    }
    if (err instanceof CsvError) throw new RestError(400, `Malformed CSV: ${err.message}`);
    throw err;
  }
}

/**
 * The line of the first record (header included) with more than MAX_COLUMNS fields, in one pass over the text:
 * csv-parse counts a record's fields only at its end, so a row of four million commas took a second to refuse.
 */
function recordPastColumns(text: string): number | undefined {
  let quoted = false;
  let fields = 1;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quoted = !quoted; // a doubled quote inside a quoted field toggles twice
    else if (c === 0x0a) {
      line++;
      if (!quoted) [fields, start] = [1, line];
    } else if (c === 0x2c && !quoted && ++fields > MAX_COLUMNS) return start;
  }
  return undefined;
}

/** A record named by its position in the JSON body, or by its line in the CSV. */
const recordNames = (lines?: number[]) => (index: number, field: string | null) =>
  lines ? `line ${lines[index]}: ${field ?? "the record"}` : `posts[${index}]${field ? `.${field}` : ""}`;

function atomicOf(req: Request): boolean {
  const value = queryText(req, "atomic");
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new RestError(400, "atomic must be true or false");
}

export const socialPostRoutes: RestRoute[] = [
  ...reportItemRoutes({
    type: "SocialMediaPost",
    one: "socialMediaPost",
    many: "socialMediaPosts",
    path: "social-posts",
    param: "postId",
    label: "Social media post",
    table: socialPostFields,
    writable: false,
    filter: "platform",
    tag: "Social media",
    noun: "post",
    nouns: "social media posts",
    op: "SocialPost",
    order: "newest posted_at first",
    response: s.socialMediaPost,
    listQuery: s.socialPostListQuery,
  }),
  {
    method: "post",
    path: "/v1/reports/{reportId}/social-posts/import",
    operationId: "importSocialPosts",
    tag: "Social media",
    summary: (needs) => `Import post engagement from JSON or CSV: upsert by platform and external_id (needs ${needs})`,
    description:
      "Up to 500 records, 4 MiB. Each record is created, updated, unchanged, skipped_stale (its metrics_at is older than the stored one) or error (named: posts[2].likes …, or in CSV line 4: likes …; the others are still applied unless atomic=true). The same body sent again answers every record unchanged.",
    operations: [IMPORT],
    params: reportIdParam,
    query: s.importQuery,
    body: s.importBody,
    csvBody: s.importCsv,
    parsers: importBody,
    answer: { data: s.importResult },
    message: ({ created, updated, unchanged, skipped_stale, failed }: ImportResult) =>
      `Import done: ${created} created, ${updated} updated, ${unchanged} unchanged, ${skipped_stale} skipped as stale, ${failed} failed`,
    responseDescription: "What happened to each record",
    run: async (req, res) => {
      const atomic = atomicOf(req);
      const csv = Buffer.isBuffer(req.body) ? csvPosts(req.body) : undefined;
      const posts = csv ? csv.posts : jsonPosts(req);
      const name = recordNames(csv?.lines);
      // An atomic import refused for one record names it like the results do.
      const nameOf: NameOf = (p) =>
        p[0] === "posts" && typeof p[1] === "number" ? name(p[1], typeof p[2] === "string" ? p[2] : null) : pathNaming((f) => f)(p);
      const result = await runRoot<ImportResult>(IMPORT, { reportId: req.params.reportId, posts, atomic }, res.locals.context, { nameOf });
      const results = result.results.map(({ field, reason, message, ...item }) => ({
        ...item,
        message: item.status === "error" ? `${name(item.index, field)} ${reason}` : message,
      }));
      return { ...result, results };
    },
  },
  getRoute({
    path: "/v1/reports/{reportId}/social-engagement",
    operationId: "getSocialEngagement",
    tag: "Social media",
    summary: (needs) => `A report's social engagement: totals and per platform (needs ${needs})`,
    operation: ENGAGEMENT_QUERY,
    params: reportIdParam,
    variables: (req) => ({ reportId: req.params.reportId }),
    data: s.engagement,
    responseDescription: "The engagement",
    cacheable: true,
  }),
];
