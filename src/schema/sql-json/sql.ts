// The one-statement read path, part 2: a plan as one SQL statement whose every column is the JSON text of one root
// field, built by PostgreSQL with json_build_object/json_agg (json, not jsonb: kept in the selection's order). The
// text is the same for every request of a plan (a prepared statement on PostgreSQL); a request's values are
// parameters. Collections the key may not read are left out of the text when the caller asks for that (REST).
import type { Permission } from "../../auth/permissions";
import type { Columns, Member, ObjectPlan, Plan, Request, Root } from "./plan";

export interface Statement {
  text: string;
  /** Each parameter's value for a request. */
  params: Array<(request: Request) => unknown>;
}

/** json_build_object takes at most 100 arguments: an object of more fields is not built here. */
const MAX_KEYS = 50;

class TooWide extends Error {}

/** The statement of a plan; `included(permission)` says whether a collection needing it is part of the answer. */
export function statementOf(plan: Plan, columns: Columns, included: (permission: Permission | undefined) => boolean): Statement | null {
  const params: Statement["params"] = [];
  const byKey = new Map<string, string>();
  const param = (key: string, sqlType: string, value: (request: Request) => unknown) => {
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
  const arg = (node: object, name: string, sqlType: string, id: string) => param(`${id}.${name}`, sqlType, (r) => r.args.get(node as never)?.[name]);
  let nodes = 0;
  const order = (model: string, a: string, orderBy: ReadonlyArray<Record<string, "asc" | "desc">>) =>
    orderBy.flatMap((entry) => Object.entries(entry).map(([field, dir]) => `${a}.${columns.column(model, field)} ${dir.toUpperCase()}`)).join(", ");

  const object = (plan: ObjectPlan, a: string): string => {
    const pairs = plan.members.filter((m) => m.kind === "leaf" || included(m.permission)).map((m) => `'${m.key}', ${member(m, plan.model, a)}`);
    if (pairs.length > MAX_KEYS) throw new TooWide();
    return `json_build_object(${pairs.join(", ")})`;
  };
  const member = (m: Member, model: string, a: string): string => {
    if (m.kind === "leaf") return m.sql(a);
    const id = `n${nodes++}`;
    const c = alias();
    const child = m.object.model;
    const limit = arg(m.args.node, "limit", "int", id);
    const offset = arg(m.args.node, "offset", "int", id);
    const by = order(child, c, m.orderBy);
    return `(SELECT coalesce(json_agg(${object(m.object, c)} ORDER BY ${by}), '[]'::json) FROM (SELECT * FROM ${columns.table(child)} ${c} WHERE ${c}.${columns.column(child, m.foreignKey)} = ${a}.id ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${c})`;
  };
  const root = (r: Root): string => {
    const id = `n${nodes++}`;
    const a = alias();
    const where = r.spec.where(a, { arg: (name, sqlType) => arg(r.args.node, name, sqlType, id), team });
    const from = `${columns.table(r.model)} ${a}`;
    if (r.object) return `(SELECT ${object(r.object, a)} FROM ${from} WHERE ${where})`;
    const by = order(r.model, a, r.spec.orderBy!);
    const pairs = r.page!.map((m) => {
      if (m.kind === "typename") return `'${m.key}', '${m.name}'::text`;
      if (m.kind === "limit" || m.kind === "offset") return `'${m.key}', ${arg(r.args.node, m.kind, "int", id)}`;
      if (m.kind === "total") return `'${m.key}', (SELECT count(*) FROM ${from} WHERE ${where})`;
      const limit = arg(r.args.node, "limit", "int", id);
      const offset = arg(r.args.node, "offset", "int", id);
      return `'${m.key}', (SELECT coalesce(json_agg(${object(m.object, a)} ORDER BY ${by}), '[]'::json) FROM (SELECT * FROM ${from} WHERE ${where} ORDER BY ${by} LIMIT ${limit} OFFSET ${offset}) ${a})`;
    });
    return `json_build_object(${pairs.join(", ")})`;
  };
  try {
    const columnsSql = plan.roots.map((r, i) => `(${root(r)})::text AS r${i}`);
    return { text: `SELECT ${columnsSql.join(", ")}`, params };
  } catch (err) {
    if (err instanceof TooWide) return null;
    throw err;
  }
}
