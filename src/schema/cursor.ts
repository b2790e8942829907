// The cursors and page window of the Relay connections (docs/api.md "Connections"), shared by the resolvers
// (./connection.ts) and the one-statement read path (sql-json/sql.ts): no schema types here, so the SQL side can
// import it without the builder.
import { createHash } from "node:crypto";
import { badFields, badInput } from "./errors";
import { hasInvalidCharacters } from "./rules";
import { isUuid } from "./scope";

/** Where a row stands in a newest-first list: (created_at, id). */
export interface Position {
  createdAt: Date;
  id: string;
}

/** The rows a page reads: `take` of them from `after` forward (older), or backward (newer) from `before`. */
export interface Window {
  /** last/before: read from the `before` end, newest last. */
  backward: boolean;
  take: number;
  after: Position | null;
  before: Position | null;
}

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A page's size when neither first nor last is given. */
export const DEFAULT_PAGE = 50;

/**
 * A cursor is base64url of `<list>:<tag>:<created_at in ms>:<id>`, where the tag is a hash of the list and the team:
 * opaque to clients, and a cursor of another list or another team is refused by name instead of positioning
 * somewhere (`scope` narrows a list further: an endpoint's delivery log). The prefix up to the time is what the one-statement path receives as a parameter.
 */
export function cursorPrefix(list: string, teamId: string, scope = ""): string {
  const tag = createHash("sha256").update(`${list}\0${teamId}\0${scope}`).digest("base64url").slice(0, 10);
  return `${list}:${tag}:`;
}

export const encodeCursor = (prefix: string, row: Position): string => Buffer.from(`${prefix}${row.createdAt.getTime()}:${row.id}`).toString("base64url");

/** The id of a list's rows: a UUID, or (events) `evt_…` text. */
export type IdKind = "uuid" | "text";

const badCursor = (name: string): never => {
  throw badFields((nameOf) => `${nameOf([name])} is not a cursor of this connection: pass a cursor this connection returned for your team`, [name]);
};

const MIN_MS = new Date("0001-01-01T00:00:00.000Z").getTime();
const MAX_MS = new Date("9999-12-31T23:59:59.999Z").getTime();

export function decodeCursor(cursor: string, name: string, prefix: string, ids: IdKind): Position {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return badCursor(name);
  const text = Buffer.from(cursor, "base64url").toString();
  if (!text.startsWith(prefix)) return badCursor(name);
  const rest = text.slice(prefix.length);
  const colon = rest.indexOf(":");
  const ms = colon > 0 ? Number(rest.slice(0, colon)) : NaN;
  const id = rest.slice(colon + 1);
  const idOk = ids === "uuid" ? isUuid(id) : id.length > 0 && id.length <= 100 && !hasInvalidCharacters(id);
  // Years 1 to 9999 (what the database and ISO 8601 hold): a forged time outside them is no position of a row.
  if (!Number.isSafeInteger(ms) || ms < MIN_MS || ms > MAX_MS || !idOk) return badCursor(name);
  const position = { createdAt: new Date(ms), id };
  // One spelling per position (no padding or other variants): the cursor is exactly what this list hands out.
  if (encodeCursor(prefix, position) !== cursor) return badCursor(name);
  return position;
}

/** The window of a request's arguments; a malformed or foreign cursor, or first with last, is a 400. */
export function windowOf(args: ConnectionArgs, prefix: string, ids: IdKind): Window {
  if (args.first != null && args.last != null) throw badInput("Give first or last, not both");
  const after = args.after != null ? decodeCursor(args.after, "after", prefix, ids) : null;
  const before = args.before != null ? decodeCursor(args.before, "before", prefix, ids) : null;
  const backward = args.last != null;
  return { backward, take: args.last ?? args.first ?? DEFAULT_PAGE, after, before };
}

