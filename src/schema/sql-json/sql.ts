// The one-statement read path, part 2: a plan as one SQL statement whose every column is the JSON text of one root
// field, built by PostgreSQL. Objects are row_to_json of a row whose columns are named by the response keys (in the
// selection's order), lists are those texts joined with commas: compact JSON like JSON.stringify's (json_build_object
// and json_agg would add spaces and newlines, ~10 % of a page). The values are the resolvers'; a few are spelled
// otherwise: numbers below 1e-4 (PostgreSQL writes 5e-05 where JavaScript writes 0.00005) and JSON-typed values
// (jsonb's spacing and key order). The text is the same for every
// request of a plan (a prepared statement on PostgreSQL); a request's values are parameters. Collections the key
// may not read are left out of the text when the caller asks for that (REST).
import type { Permission } from "../../auth/permissions";
import type { Columns } from "./columns";
import type { Member, ObjectPlan, Plan, ReadRequest, Root } from "./plan";

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
  try {
    const columnsSql = plan.roots.map((r, i) => `(${root(r)})::text AS r${i}`);
    return { text: `SELECT ${columnsSql.join(", ")}`, params };
  } catch (err) {
    if (err instanceof TooLong) return null;
    throw err;
  }
}
