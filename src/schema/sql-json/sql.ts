// The one-statement read path, part 2: a plan as one SQL statement whose every column is the JSON text of one root
// field, built by PostgreSQL. Objects are row_to_json of a row whose columns are named by the response keys (in the
// selection's order), lists are those texts joined with commas: compact JSON like JSON.stringify's (json_build_object
// and json_agg would add spaces and newlines, ~10 % of a page). The values are the resolvers'; a few are spelled
// otherwise: numbers below 1e-4 (PostgreSQL writes 5e-05 where JavaScript writes 0.00005) and JSON-typed values
// (jsonb's spacing and key order). The text is the same for every
// request of a plan (a prepared statement on PostgreSQL); a request's values are parameters. Collections the key
// may not read are left out of the text when the caller asks for that (REST).
import type { Permission } from "../../auth/permissions";
import { columns as defaultColumns, type Columns } from "./columns";
import { cursorPrefix, windowOf, type Window } from "../cursor";
import { ApiError } from "../errors";
import type { ConnectionMember, Member, ObjectPlan, Plan, ReadRequest, Root } from "./plan";

export interface Statement {
  text: string;
  /** Each parameter's value for a request. */
  params: Array<(request: ReadRequest) => unknown>;
}

/** PostgreSQL cuts identifiers (the keys) at 63 bytes: a longer response key is not answered here. */
const MAX_KEY_BYTES = 63;

class TooLong extends Error {}

/** `{ key: sql, … }` as one JSON object: row_to_json of a one-row select whose columns are named by the keys. */
function jsonObject(pairs: Array<[key: string, sql: string]>): string {
  for (const [key] of pairs) if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new TooLong();
  // j$: no response key can be named so (GraphQL names have no $), so row_to_json reads the row, not a column.
  return `(SELECT row_to_json(j$) FROM (SELECT ${pairs.map(([key, sql]) => `${sql} AS "${key}"`).join(", ")}) j$)`;
}

/** A JSON array of `element` (JSON per row of `from`), in `order`: '[]' when there is none. */
const jsonArray = (element: string, order: string, from: string) =>
  `(SELECT coalesce('[' || string_agg(${element}::text, ',' ORDER BY ${order}) || ']', '[]')::json FROM ${from})`;

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

  const object = (plan: ObjectPlan, a: string): string =>
    jsonObject(plan.members.filter((m) => m.kind === "leaf" || included(m.permission)).map((m) => [m.key, member(m, plan.model, a)]));
  const member = (m: Member, model: string, a: string): string => {
    if (m.kind === "leaf") return m.sql(columns.row(model, a));
    const id = `n${nodes++}`;
    const c = alias();
    const child = m.object.model;
    const limit = arg(m.args.node, "limit", "int", id);
    const offset = arg(m.args.node, "offset", "int", id);
    const by = order(child, c, m.orderBy);
    const on = m.join.map(([childField, parentField]) => `${c}.${columns.column(child, childField)} = ${a}.${columns.column(model, parentField)}`).join(" AND ");
    const rows = `(SELECT * FROM ${columns.table(child)} ${c} WHERE ${on} ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${c}`;
    return jsonArray(object(m.object, c), by, rows);
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
  const root = (r: Root): string => {
    const id = `n${nodes++}`;
    const a = alias();
    const where = rowsOf(r, a, id);
    const from = `${columns.table(r.model)} ${a}`;
    if (r.object) return `(SELECT ${object(r.object, a)} FROM ${from} WHERE ${where})`;
    const by = order(r.model, a, r.spec.orderBy!);
    return jsonObject(
      r.page!.map((m): [string, string] => {
        if (m.kind === "typename") return [m.key, `'${m.name}'::text`];
        if (m.kind === "limit" || m.kind === "offset") return [m.key, arg(r.args.node, m.kind, "int", id)];
        if (m.kind === "total") return [m.key, `(SELECT count(*) FROM ${from} WHERE ${where})`];
        const limit = arg(r.args.node, "limit", "int", id);
        const offset = arg(r.args.node, "offset", "int", id);
        return [m.key, jsonArray(object(m.object, a), by, `(SELECT * FROM ${from} WHERE ${where} ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${a}`)];
      }),
    );
  };
  // A connection (../connection.ts), keyset-paged newest first on (created_at, id) as readSlice pages it: `take` + 1
  // rows from the window's start in its direction (the extra one says more follow), of which the page keeps `take`;
  // a missing after/before is a bound no row passes ('infinity'), so the statement has one text for every window.
  // Each direction is its own branch under a one-time filter on $back, so each reads the (team, created_at) index in
  // its order and stops after take + 1 rows.
  const connection = (r: Root, members: ConnectionMember[]): string => {
    const id = `n${nodes++}`;
    const a = alias();
    const f = `f${id}`;
    const p = `p${id}`;
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
      members.map((m): [string, string] => {
        if (m.kind === "typename") return [m.key, `'${m.name}'::text`];
        if (m.kind === "totalCount") return [m.key, `(SELECT count(*) FROM ${table} WHERE ${where})`];
        if (m.kind === "pageInfo") {
          const fields = m.members.map((i): [string, string] => {
            if (i.kind === "typename") return [i.key, `'${i.name}'::text`];
            if (i.kind === "hasNextPage") return [i.key, `CASE WHEN ${back} THEN ${beyond("<=", beforeAt, beforeId)} ELSE ${more} END`];
            if (i.kind === "hasPreviousPage") return [i.key, `CASE WHEN ${back} THEN ${more} ELSE ${beyond(">=", afterAt, afterId)} END`];
            const by = i.kind === "startCursor" ? desc : asc;
            return [i.key, `(SELECT ${cursor(a)} FROM ${p} ${a} ORDER BY ${by} LIMIT 1)`];
          });
          return [m.key, jsonObject(fields)];
        }
        const edge = jsonObject(
          m.members.map((e): [string, string] => {
            if (e.kind === "typename") return [e.key, `'${e.name}'::text`];
            if (e.kind === "cursor") return [e.key, cursor(a)];
            return [e.key, object(e.object, a)];
          }),
        );
        return [m.key, jsonArray(edge, desc, `${p} ${a}`)];
      }),
    );
    return `(WITH ${f} AS (${fetched}), ${p} AS (${page}) SELECT ${json})`;
  };

  try {
    const columnsSql = plan.roots.map((r, i) => `(${r.connection ? connection(r, r.connection) : root(r)})::text AS r${i}`);
    return { text: `SELECT ${columnsSql.join(", ")}`, params };
  } catch (err) {
    if (err instanceof TooLong) return null;
    throw err;
  }
}
