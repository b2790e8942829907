// Relay connections over a team's list, keyset-paged on (created_at, id) newest first (docs/api.md "Connections"):
// the arguments, the opaque cursors, the page window and one connection type per model. The four top-level
// connections are declared in ./resources/connections.ts; the one-statement read path answers reportsConnection
// from the same window (sql-json/sql.ts, `connection`), so both engines page alike.
//
// Why not @pothos/plugin-relay's prismaConnection: it pages with Prisma's `cursor` (a unique field or compound
// unique, skip 1), its cursors are not tied to a team or a list (a foreign cursor would silently position), and
// the one-statement path must be able to build the same page, cursors included, in SQL. The types follow Relay's
// connection spec all the same (edges { cursor node }, pageInfo, first/after, last/before).
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import type { ArgBuilder } from "./builder";
import { builder } from "./builder";
import type { Context } from "../context";
import { DEFAULT_PAGE, encodeCursor, type ConnectionArgs, type Position, type Window } from "./cursor";
import { intBetween } from "./rules";

export { cursorPrefix, windowOf } from "./cursor";
import { cursorPrefix, windowOf, type IdKind } from "./cursor";
import { teamIdOf } from "./scope";
import { valueObject } from "./value-object";

/** A page count, 1 to 100, or none (the same rule for both engines: the one-statement path checks every argument's rule). */
const COUNT = (() => {
  const rule = intBetween(1, 100)["~standard"];
  return { "~standard": { ...rule, validate: (value: unknown) => (value == null ? { value: value as null } : rule.validate(value)) } };
})();

/** first/after and last/before (Relay), each count 1 to 100. */
export const connectionArgs = (t: { arg: ArgBuilder }, noun: string) => ({
  first: t.arg.int({ description: `The first ${noun} after \`after\` (1 to 100; default 50 when last is not given)`, validate: COUNT }),
  after: t.arg.string({ description: "A cursor (an edge's cursor or pageInfo.endCursor): the page starts after it" }),
  last: t.arg.int({ description: `The last ${noun} before \`before\` (1 to 100)`, validate: COUNT }),
  before: t.arg.string({ description: "A cursor (an edge's cursor or pageInfo.startCursor): the page ends before it" }),
});

/** The estimated objects of a connection field (docs/api.md "GraphQL limits"): its page, page info and each edge's node. */
export const connectionComplexity = (args: ConnectionArgs) => {
  const n = args.first ?? args.last ?? DEFAULT_PAGE;
  return { field: 2 + n, multiplier: n };
};

// ---- the page, read through Prisma ----

/** A model's delegate as far as a connection uses it (prisma.report, prisma.showing, …). */
export interface Delegate {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one shape for every model's delegate: each types its own arguments and rows (unknown would refuse them)
  findMany(args: any): Promise<any[]>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as findMany
  findFirst(args: any): Promise<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as findMany
  count(args: any): Promise<number>;
}

/** Rows strictly older than p (after p in a newest-first list), as a Prisma condition an index on created_at serves. */
const olderThan = (p: Position) => ({ createdAt: { lte: p.createdAt }, NOT: { createdAt: p.createdAt, id: { gte: p.id } } });
/** Rows strictly newer than p (before p in the list). */
const newerThan = (p: Position) => ({ createdAt: { gte: p.createdAt }, NOT: { createdAt: p.createdAt, id: { lte: p.id } } });
const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "desc" }] as const;
const OLDEST_FIRST = [{ createdAt: "asc" }, { id: "asc" }] as const;

export interface Slice<Where> {
  prefix: string;
  where: Where;
  window: Window;
  /** The rows of the page, newest first, and whether the read found one more beyond `take`. */
  rows: Position[];
  more: boolean;
  delegate: Delegate;
}

/**
 * A page of one of the team's lists as a connection field's resolver reads it: the cursors of `list` (and of `scope`,
 * when a cursor belongs to one parent: an endpoint's delivery log), the window the arguments ask for (a cursor of
 * another list or team refused first), then the rows `where` selects for the team.
 */
export async function teamSlice<Where>(
  delegate: Delegate,
  list: string,
  ids: IdKind,
  call: { args: ConnectionArgs; context: Context; info: GraphQLResolveInfo },
  where: (teamId: string) => Where | Promise<Where>,
  scope?: string,
): Promise<Slice<Where>> {
  const teamId = teamIdOf(call.context);
  const prefix = cursorPrefix(list, teamId, scope);
  const window = windowOf(call.args, prefix, ids);
  return readSlice(delegate, await where(teamId), prefix, window, nodeQuery(call.context, call.info));
}

/**
 * Reads a page: `take` + 1 rows from the window's start in its direction (the extra one says whether more follow),
 * with `query` (the selection's Prisma include/select, for nested fields), returned newest first.
 */
export async function readSlice<Where>(delegate: Delegate, where: Where, prefix: string, window: Window, query: Record<string, unknown>): Promise<Slice<Where>> {
  const bounds = [where, window.after && olderThan(window.after), window.before && newerThan(window.before)].filter(Boolean);
  const select = query.select ? { select: { ...(query.select as object), id: true, createdAt: true } } : query;
  const found: Position[] = await delegate.findMany({
    ...select,
    where: { AND: bounds },
    orderBy: window.backward ? [...OLDEST_FIRST] : [...NEWEST_FIRST],
    take: window.take + 1,
  });
  const more = found.length > window.take;
  const page = found.slice(0, window.take);
  return { prefix, where, window, rows: window.backward ? page.reverse() : page, more, delegate };
}

/** Whether a row of the list lies at or beyond p, on the side the window did not read (Relay's hasPrevious/NextPage). */
async function anyBeyond<Where>(slice: Slice<Where>, p: Position | null, side: "newer" | "older"): Promise<boolean> {
  if (!p) return false;
  // At or newer than p = not older than p; at or older = not newer.
  const beyond = side === "newer" ? { NOT: olderThan(p) } : { NOT: newerThan(p) };
  return (await slice.delegate.findFirst({ where: { AND: [slice.where, beyond] }, select: { id: true } })) !== null;
}

export interface PageInfoShape {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

/**
 * Relay's page info: going forward, more rows after the page = hasNextPage, and hasPreviousPage says whether any row
 * precedes `after`; going backward the other way round. Both engines answer it so.
 */
export async function pageInfoOf<Where>(slice: Slice<Where>): Promise<PageInfoShape> {
  const { window, rows, more, prefix } = slice;
  const [hasNextPage, hasPreviousPage] = window.backward
    ? [await anyBeyond(slice, window.before, "older"), more]
    : [more, await anyBeyond(slice, window.after, "newer")];
  return {
    hasNextPage,
    hasPreviousPage,
    startCursor: rows.length ? encodeCursor(prefix, rows[0]) : null,
    endCursor: rows.length ? encodeCursor(prefix, rows[rows.length - 1]) : null,
  };
}

export const PageInfo = valueObject<PageInfoShape>("PageInfo", "Where a page of a connection is in the whole list (Relay).", {
  hasNextPage: ["Boolean", "Older rows follow this page (with last/before: rows follow `before`)"],
  hasPreviousPage: ["Boolean", "Newer rows precede this page (with first/after: rows precede `after`)"],
  startCursor: ["String", "The first edge's cursor (null on an empty page)", "nullable"],
  endCursor: ["String", "The last edge's cursor (null on an empty page)", "nullable"],
});

type Model = "Report" | "Showing" | "WebhookEvent" | "WebhookDelivery";

/** `<Model>Connection` and `<Model>Edge`: edges { cursor node }, pageInfo, totalCount. */
export function connectionType<Where>(model: Model, description: string) {
  const Edge = builder.objectRef<{ node: Position; cursor: string }>(`${model}Edge`).implement({
    description: `A ${model} of the page and its cursor.`,
    fields: (t) => ({
      cursor: t.exposeString("cursor", { description: "Pass as after (or before) to page on from this row" }),
      // The node was read with the selection's query (readSlice), nested fields included.
      node: t.prismaField({ type: model as "Report", description: "The row", resolve: (_query, edge) => edge.node as never }),
    }),
  });
  return builder.objectRef<Slice<Where>>(`${model}Connection`).implement({
    description,
    fields: (t) => ({
      edges: t.field({
        type: [Edge],
        description: "The rows of this page, newest first",
        // The connection field counts its edges (connectionComplexity); the list is not multiplied again.
        complexity: { field: 0, multiplier: 1 },
        resolve: (slice) => slice.rows.map((node) => ({ node, cursor: encodeCursor(slice.prefix, node) })),
      }),
      pageInfo: t.field({ type: PageInfo, description: "Where this page is", resolve: (slice) => pageInfoOf(slice) }),
      totalCount: t.int({ description: "Rows of the whole list (the filters applied, the cursors not)", resolve: (slice) => slice.delegate.count({ where: slice.where }) }),
    }),
  });
}

/** The Prisma query of the nodes a connection field's selection asks for (edges { node { … } }). */
export const nodeQuery = (context: Context, info: GraphQLResolveInfo): Record<string, unknown> =>
  // {} when no node is selected (plugin-prisma gives back the selection it was given, none).
  queryFromInfo({ context, info, path: ["edges", "node"] }) as Record<string, unknown>;
