// The one-statement read path, part 2: a plan as one SQL statement whose every column holds one root field's values
// as JSON arrays, built by PostgreSQL: an object is json_build_array of its values in the selection's order (no key
// names), a list is json_agg of those in the declared order. The service puts the keys back (`Shape`, written by
// write.ts), as PostGraphile 5 assembles its rows: naming every value in the database (row_to_json of a sub-select per
// object, each level's text parsed again as json) cost the nested page about twice the database CPU of these arrays
// and made the statement longer to plan, and the database is the one part that does not scale out (BENCHMARKS.md
// "Database CPU per request"). A page root's items come as rows of their own (one per item, after the row of the
// roots), not aggregated into the root's value: one large value costs PostgreSQL several times the CPU of the same
// bytes in rows (each copy of it, from the aggregate to the wire, is a new allocation of its whole size; BENCHMARKS.md
// "The items as rows"). The values are the resolvers' (numbers are spelled by JSON.stringify in the service);
// JSON-typed values keep jsonb's key order. The text is the same for every request of a plan (a prepared statement on
// PostgreSQL); a request's values are parameters. Collections the key may not read are left out of the text when the
// caller asks for that (REST).
import type { Permission } from "../../auth/permissions";
import { columns as defaultColumns, type Columns } from "./columns";
import { cursorPrefix, windowOf, type Window } from "../cursor";
import { ApiError } from "../errors";
import type { Compute, ConnectionMember, Member, ObjectPlan, Plan, ReadRequest, Root } from "./plan";

/**
 * How a root's arrays become the answer's JSON: a leaf (null) is taken as it is, a date ("date", milliseconds since
 * 1970) is written in ISO 8601, an object's values come in the order of its keys, a list holds elements of one shape,
 * a formula (`compute`) is worked out from the array of the fields it reads.
 */
export type Shape = null | "date" | { keys: string[]; values: Shape[] } | { list: Shape } | { compute: Compute };

export interface Statement {
  /** The select list of the first row: each root's value (`r0`, `r1`, …). */
  columns: string[];
  /**
   * Lists answered as rows of their own (a page root's items), the Nth with `n$` = N: the root whose value holds it
   * (as null, in place of the list), the list's index among that root object's values, and the rest of its select
   * (`o$`, the item's place in the list, then `e$`, the item's JSON text) from its `FROM` on.
   */
  lists: Array<{ root: number; at: number; select: string }>;
  /** Each parameter's value for a request. */
  params: Array<(request: ReadRequest) => unknown>;
  /** Each root's shape, in the order of the statement's columns r0, r1, … */
  shapes: Shape[];
}

/** Column names of the item rows: which list, the place in it, the item. */
export const LIST_COLUMNS = { list: "n$", place: "o$", item: "e$" } as const;

/**
 * The statement's text, with `extra` columns (aliased select-list entries) in its first row. Without lists it is
 * one row; with lists the first row has `n$` = -1, and each item is a row of its own.
 */
export function statementText(statement: Statement, extra: string[] = []): string {
  const first = [...statement.columns, ...extra];
  if (!statement.lists.length) return `SELECT ${first.join(", ")}`;
  const { list, place, item } = LIST_COLUMNS;
  const nulls = first.map(() => "NULL").join(", ");
  return [
    `SELECT ${first.join(", ")}, -1 AS "${list}", NULL::int AS "${place}", NULL::text AS "${item}"`,
    ...statement.lists.map((l, n) => `SELECT ${nulls}, ${n}, ${l.select}`),
  ].join(" UNION ALL ");
}

/** PostgreSQL's functions take at most 100 arguments: an object of more values is not answered here. */
const MAX_VALUES = 100;

class TooWide extends Error {}

/** SQL building a JSON value, and the shape of that value. */
interface Json {
  sql: string;
  shape: Shape;
}

/** `{ key: value, … }` as the JSON array of its values (json_build_array); the keys are the shape's. */
function jsonObject(pairs: Array<[key: string, value: Json]>): Json {
  if (pairs.length > MAX_VALUES) throw new TooWide();
  return { sql: `json_build_array(${pairs.map(([, v]) => v.sql).join(", ")})`, shape: { keys: pairs.map(([key]) => key), values: pairs.map(([, v]) => v.shape) } };
}

/** One value of SQL, taken as it is. */
const leaf = (sql: string): Json => ({ sql, shape: null });

/** A JSON array of `element` (per row of `from`), in `order`: '[]' when there is none. */
const jsonArray = (element: Json, order: string, from: string): Json => ({
  sql: `(SELECT coalesce(json_agg(${element.sql} ORDER BY ${order}), '[]'::json) FROM ${from})`,
  shape: { list: element.shape },
});

/**
 * The columns of alias `a` that `sql` reads (`a."column"`: every column reference is written so, ./columns.ts), as
 * the select list of the sub-select that names its rows: only the columns the request asked for (and the joins and
 * orders need) go into the statement, not every column of the table.
 */
function picked(a: string, sql: string): string {
  const used = new Set<string>();
  for (const match of sql.matchAll(new RegExp(`(?<![\\w$])${a}\\.("(?:[^"]|"")+")`, "g"))) used.add(match[1]);
  return [...used].map((column) => `${a}.${column}`).join(", ");
}

/** The JSON array of `element` over the rows of `from` (a table and its alias `a`) under `where`, one page of them. */
const pageOf = (element: Json, a: string, from: string, where: string, by: string, limit: string, offset: string): Json =>
  jsonArray(element, by, `(SELECT ${picked(a, `${element.sql} ${by}`)} FROM ${from} WHERE ${where} ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${a}`);

/** A connection root's cursor prefix and window for a request (../cursor.ts), or null when the resolver refuses its arguments. */
const windows = new WeakMap<object, { prefix: string; window: Window } | null>();
export function connectionWindow(root: Root, request: ReadRequest, columns?: Columns): { prefix: string; window: Window } | null {
  const args = request.args.get(root.args.node) ?? {};
  let found = windows.get(args);
  if (found !== undefined) return found;
  try {
    const prefix = cursorPrefix(root.spec.list!, request.teamId);
    const ids = (columns ?? defaultColumns).isUuid(root.model, "id") ? "uuid" : "text";
    found = { prefix, window: windowOf(args, prefix, ids) };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    found = null;
  }
  windows.set(args, found);
  return found;
}

/** What the parts of a statement share while it is built (statementOf). */
interface Builder {
  columns: Columns;
  /** A parameter: its reference (`$n::type`), the same for the same key. */
  param(key: string, sqlType: string, value: (request: ReadRequest) => unknown): string;
  /** A fresh table alias, a fresh node id. */
  alias(): string;
  node(): string;
  order(model: string, a: string, orderBy: ReadonlyArray<Record<string, "asc" | "desc">>): string;
  /** The condition on a root's rows (alias `a`). */
  rowsOf(r: Root, a: string, id: string): string;
  object(plan: ObjectPlan, a: string): Json;
}

// A connection (../connection.ts), keyset-paged newest first on (created_at, id) as readSlice pages it: `take` + 1
// rows from the window's start in its direction (the extra one says more follow), of which the page keeps `take`;
// a missing after/before is a bound no row passes ('infinity'), so the statement has one text for every window.
// Each direction is its own branch under a one-time filter on $back, so each reads the (team, created_at) index in
// its order and stops after take + 1 rows.
function connectionJson(build: Builder, r: Root, members: ConnectionMember[]): Json {
  const { columns, param, order, rowsOf, object } = build;
  const id = build.node();
  const a = build.alias();
  const [f, p] = [`f${id}`, `p${id}`];
  const win = (value: (w: { prefix: string; window: Window }) => unknown) => (request: ReadRequest) => value(connectionWindow(r, request)!);
  const w = (name: string, sqlType: string, value: (w: { prefix: string; window: Window }) => unknown) => param(`${id}.${name}`, sqlType, win(value));
  const back = w("back", "bool", (x) => x.window.backward);
  const take = w("take", "int", (x) => x.window.take);
  const idType = columns.isUuid(r.model, "id") ? "uuid" : "text";
  const NONE_ID = idType === "uuid" ? "00000000-0000-0000-0000-000000000000" : "";
  const afterAt = w("afterAt", "timestamptz", (x) => x.window.after?.createdAt.toISOString() ?? "infinity");
  const afterId = w("afterId", idType, (x) => x.window.after?.id ?? NONE_ID);
  const beforeAt = w("beforeAt", "timestamptz", (x) => x.window.before?.createdAt.toISOString() ?? "-infinity");
  const beforeId = w("beforeId", idType, (x) => x.window.before?.id ?? NONE_ID);
  const prefix = w("prefix", "text", (x) => x.prefix);
  const where = rowsOf(r, a, id);
  const table = `${columns.table(r.model)} ${a}`;
  const key = (b: string) => `(${b}.${columns.column(r.model, "createdAt")}, ${b}.${columns.column(r.model, "id")})`;
  const desc = order(r.model, a, [{ createdAt: "desc" }, { id: "desc" }]);
  const asc = order(r.model, a, [{ createdAt: "asc" }, { id: "asc" }]);
  const inWindow = `${where} AND ${key(a)} < (${afterAt}, ${afterId}) AND ${key(a)} > (${beforeAt}, ${beforeId})`;
  const fetched = `(SELECT * FROM ${table} WHERE ${inWindow} AND NOT ${back} ORDER BY ${desc} LIMIT ${take} + 1) UNION ALL (SELECT * FROM ${table} WHERE ${inWindow} AND ${back} ORDER BY ${asc} LIMIT ${take} + 1)`;
  const page = `(SELECT * FROM ${f} ${a} WHERE NOT ${back} ORDER BY ${desc} LIMIT ${take}) UNION ALL (SELECT * FROM ${f} ${a} WHERE ${back} ORDER BY ${asc} LIMIT ${take})`;
  const cursor = (b: string) =>
    `translate(encode(convert_to(${prefix} || (extract(epoch FROM ${b}.${columns.column(r.model, "createdAt")}) * 1000)::bigint::text || ':' || ${b}.${columns.column(r.model, "id")}::text, 'UTF8'), 'base64'), E'+/=\\n', '-_')`;
  const more = `((SELECT count(*) FROM ${f}) > ${take})`;
  // hasPreviousPage going forward (hasNextPage going backward): a row of the list at or beyond the cursor.
  const beyond = (cmp: string, at: string, rowId: string) => `EXISTS (SELECT 1 FROM ${table} WHERE ${where} AND ${key(a)} ${cmp} (${at}, ${rowId}))`;
  const json = jsonObject(
    members.map((m): [string, Json] => {
      if (m.kind === "typename") return [m.key, leaf(`'${m.name}'::text`)];
      if (m.kind === "totalCount") return [m.key, leaf(`(SELECT count(*) FROM ${table} WHERE ${where})`)];
      if (m.kind === "pageInfo") {
        const fields = m.members.map((i): [string, Json] => {
          if (i.kind === "typename") return [i.key, leaf(`'${i.name}'::text`)];
          if (i.kind === "hasNextPage") return [i.key, leaf(`CASE WHEN ${back} THEN ${beyond("<=", beforeAt, beforeId)} ELSE ${more} END`)];
          if (i.kind === "hasPreviousPage") return [i.key, leaf(`CASE WHEN ${back} THEN ${more} ELSE ${beyond(">=", afterAt, afterId)} END`)];
          const by = i.kind === "startCursor" ? desc : asc;
          return [i.key, leaf(`(SELECT ${cursor(a)} FROM ${p} ${a} ORDER BY ${by} LIMIT 1)`)];
        });
        return [m.key, jsonObject(fields)];
      }
      const edge = jsonObject(
        m.members.map((e): [string, Json] => {
          if (e.kind === "typename") return [e.key, leaf(`'${e.name}'::text`)];
          if (e.kind === "cursor") return [e.key, leaf(cursor(a))];
          return [e.key, object(e.object, a)];
        }),
      );
      return [m.key, jsonArray(edge, desc, `${p} ${a}`)];
    }),
  );
  return { sql: `(WITH ${f} AS (${fetched}), ${p} AS (${page}) SELECT ${json.sql})`, shape: json.shape };
}

/** The statement of a plan; `included(permission)` says whether a collection needing it is part of the answer. */
export function statementOf(plan: Plan, columns: Columns, included: (permission: Permission | undefined) => boolean): Statement | null {
  const params: Statement["params"] = [];
  const byKey = new Map<string, string>();
  const param = (key: string, sqlType: string, value: (request: ReadRequest) => unknown) => {
    let ref = byKey.get(key);
    if (!ref) {
      params.push(value);
      byKey.set(key, (ref = `$${params.length}::${sqlType}`));
    }
    return ref;
  };
  let aliases = 0;
  const alias = () => `t${aliases++}`;
  const team = param("team", "uuid", (r) => r.teamId);
  const arg = (node: object, name: string, sqlType: string, id: string, value?: (args: Record<string, unknown>) => unknown) =>
    param(`${id}.${name}.${sqlType}`, sqlType, (r) => {
      const args = r.args.get(node as never) ?? {};
      return value ? value(args) : args[name];
    });
  let nodes = 0;
  const order = (model: string, a: string, orderBy: ReadonlyArray<Record<string, "asc" | "desc">>) =>
    orderBy.flatMap((entry) => Object.entries(entry).map(([field, dir]) => `${a}.${columns.column(model, field)} ${dir.toUpperCase()}`)).join(", ");

  const object = (plan: ObjectPlan, a: string): Json =>
    jsonObject(plan.members.filter((m) => m.kind === "leaf" || included(m.permission)).map((m) => [m.key, member(m, plan.model, a)]));
  const member = (m: Member, model: string, a: string): Json => {
    if (m.kind === "leaf") return { sql: m.sql(columns.row(model, a)), shape: m.compute ? { compute: m.compute } : m.date ? "date" : null };
    const id = `n${nodes++}`;
    const c = alias();
    const child = m.object.model;
    const limit = arg(m.args.node, "limit", "int", id);
    const offset = arg(m.args.node, "offset", "int", id);
    const by = order(child, c, m.orderBy);
    const on = m.join.map(([childField, parentField]) => `${c}.${columns.column(child, childField)} = ${a}.${columns.column(model, parentField)}`).join(" AND ");
    return pageOf(object(m.object, c), c, `${columns.table(child)} ${c}`, on, by, limit, offset);
  };
  // The root's rows, from the declaration its resolver's Prisma `where` comes from (../where.ts): each field equals
  // the team or an argument; an argument's `any` value (e.g. status "all") is sent as null, meaning every row.
  const rowsOf = (r: Root, a: string, id: string) =>
    Object.entries(r.spec.where.condition)
      .map(([field, ref]) => {
        const column = `${a}.${columns.column(r.model, field)}`;
        if (ref.from === "team") return `${column} = ${team}`;
        const sqlType = columns.sqlType(r.model, field);
        if (!("any" in ref)) return `${column} = ${arg(r.args.node, ref.name, sqlType, id)}`;
        const value = arg(r.args.node, ref.name, sqlType, id, (args) => (args[ref.name] === ref.any ? null : args[ref.name]));
        return `(${value} IS NULL OR ${column} = ${value})`;
      })
      .join(" AND ");
  const lists: Statement["lists"] = [];
  /** Root `index`'s value; a page's items are listed in `lists`, their place in the value null. */
  const root = (r: Root, index: number): Json => {
    const id = `n${nodes++}`;
    const a = alias();
    const where = rowsOf(r, a, id);
    const from = `${columns.table(r.model)} ${a}`;
    const one = r.object && object(r.object, a);
    if (one) return { sql: `(SELECT ${one.sql} FROM ${from} WHERE ${where})`, shape: one.shape };
    const by = order(r.model, a, r.spec.orderBy!);
    return jsonObject(
      r.page!.map((m, at): [string, Json] => {
        if (m.kind === "typename") return [m.key, leaf(`'${m.name}'::text`)];
        if (m.kind === "limit" || m.kind === "offset") return [m.key, leaf(arg(r.args.node, m.kind, "int", id))];
        if (m.kind === "total") return [m.key, leaf(`(SELECT count(*) FROM ${from} WHERE ${where})`)];
        const limit = arg(r.args.node, "limit", "int", id);
        const offset = arg(r.args.node, "offset", "int", id);
        const item = object(m.object, a);
        const rows = `(SELECT ${picked(a, `${item.sql} ${by}`)} FROM ${from} WHERE ${where} ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${a}`;
        lists.push({ root: index, at, select: `(row_number() OVER (ORDER BY ${by}))::int, (${item.sql})::text FROM ${rows}` });
        return [m.key, { sql: "NULL", shape: { list: item.shape } }];
      }),
    );
  };
  try {
    const builder: Builder = { columns, param, alias, node: () => `n${nodes++}`, order, rowsOf, object };
    const built = plan.roots.map((r, i) => (r.connection ? connectionJson(builder, r, r.connection) : root(r, i)));
    return { columns: built.map((b, i) => `(${b.sql})::text AS r${i}`), lists, params, shapes: built.map((b) => b.shape) };
  } catch (err) {
    if (err instanceof TooWide) return null;
    throw err;
  }
}
