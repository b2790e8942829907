// The one-statement read path, part 1: which operations it can answer, and how. A query whose every selected field
// maps to a column, a computed field with its SQL (FieldSpec.sql), a collection or a supported root field (marked
// with `extensions.sqlJson` where they are declared) gets a plan; anything else (mutations, other fields, @skip or
// @include, arguments its checks refuse) gets none and runs on the resolvers as before. Plans are made once per
// document (engine.ts caches them with the compiled query) and hold no request's values.
import {
  getNamedType,
  GraphQLError,
  isNonNullType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { getArgumentValues, getVariableValues } from "graphql/execution/values";
import type { Permission } from "../../auth/permissions";
import type { RowSql } from "../computed";
import { fieldTableOf } from "../fields";
import type { RowFilter } from "../where";
import type { Columns, Relation } from "./columns";

/** How a root query field reads its rows (declared beside the field as `extensions: { sqlJson }`). */
export interface SqlJsonRoot {
  kind: "one" | "page" | "connection";
  /** Its rows: the same declaration the resolver's Prisma `where` comes from (../where.ts). */
  where: RowFilter<unknown>;
  /** Page order (Prisma orderBy form, the constant the resolver orders by); a page without one is not planned. */
  orderBy?: ReadonlyArray<Record<string, "asc" | "desc">>;
  /**
   * kind "connection" (../connection.ts): the list's name in its cursors. The rows are keyset-paged newest first on
   * (createdAt, id), as the resolver pages them.
   */
  list?: string;
}

/**
 * A list relation field with limit/offset (a `t.relation`): the related rows, joined on the relation's fields as the
 * data model declares them, in `orderBy` (the constant the relation's Prisma query orders by).
 */
export interface SqlJsonCollection {
  kind: "collection";
  orderBy: ReadonlyArray<Record<string, "asc" | "desc">>;
}

/** A request's values: the operation's variables and the key's team; argument values are worked out once. */
export interface ReadRequest {
  variables: Record<string, unknown>;
  teamId: string;
  args: Map<FieldNode, Record<string, unknown>>;
}

/** The arguments of one field node in a request (coerced, defaults applied). */
export interface Args {
  field: GraphQLField<unknown, unknown>;
  node: FieldNode;
}

/**
 * A value as it is; `date`: the statement has it as milliseconds since 1970, the answer as ISO 8601 (run.ts);
 * `compute`: the statement has the values of the fields a formula reads, the answer the formula's value of them.
 */
export type Leaf = { kind: "leaf"; key: string; sql: (row: RowSql) => string; date?: boolean; compute?: Compute };
/** A formula the service applies (../computed.ts): `value` of a row holding `fields`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are untyped, as in ../computed.ts
export type Compute = { fields: readonly string[]; value: (row: any) => unknown };
export type Collection = {
  kind: "collection";
  key: string;
  args: Args;
  permission?: Permission;
  join: Relation["join"];
  orderBy: SqlJsonCollection["orderBy"];
  object: ObjectPlan;
};
export type Member = Leaf | Collection;

export interface ObjectPlan {
  model: string;
  members: Member[];
}

export type PageMember =
  | { kind: "items"; key: string; object: ObjectPlan }
  | { kind: "total"; key: string }
  | { kind: "limit"; key: string }
  | { kind: "offset"; key: string }
  | { kind: "typename"; key: string; name: string };

/** What a connection's selection holds (../connection.ts): its edges, page info and count, each by response key. */
export type ConnectionMember =
  | { kind: "typename"; key: string; name: string }
  | { kind: "totalCount"; key: string }
  | { kind: "edges"; key: string; members: EdgeMember[] }
  | { kind: "pageInfo"; key: string; members: PageInfoMember[] };
export type EdgeMember = { kind: "typename"; key: string; name: string } | { kind: "cursor"; key: string } | { kind: "node"; key: string; object: ObjectPlan };
export type PageInfoMember = { kind: "typename"; key: string; name: string } | { kind: "hasNextPage" | "hasPreviousPage" | "startCursor" | "endCursor"; key: string };

export interface Root {
  key: string;
  /** The field's type allows null (a failure then nulls this root only, as in GraphQL). */
  nullable: boolean;
  args: Args;
  permission?: Permission;
  spec: SqlJsonRoot;
  model: string;
  /** kind "one": the object; kind "page": the page's members; kind "connection": the connection's. */
  object?: ObjectPlan;
  page?: PageMember[];
  connection?: ConnectionMember[];
}

export interface Plan {
  schema: GraphQLSchema;
  operation: OperationDefinitionNode;
  roots: Root[];
  /** Every field node with arguments, for the request-time checks. */
  argued: Args[];
}

class Unsupported extends Error {}
const unsupported = (): never => {
  throw new Unsupported();
};

/** The permission a field's authScopes names, when that is all they say; anything else is not planned. */
function permissionOf(field: GraphQLField<unknown, unknown>): Permission | undefined {
  const scopes = (field.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes;
  if (scopes === undefined) return undefined;
  if (typeof scopes === "object" && scopes !== null && Object.keys(scopes).length === 1 && typeof (scopes as { permission?: unknown }).permission === "string") {
    return (scopes as { permission: Permission }).permission;
  }
  return unsupported();
}

const hasFieldValidation = (field: GraphQLField<unknown, unknown>) => (field.extensions?.pothosOptions as { validate?: unknown } | undefined)?.validate !== undefined;

/** The fields of a selection set on `type`, by response key in order (fragments spread, no directives). */
function collect(
  set: SelectionSetNode,
  type: GraphQLObjectType,
  fragments: Record<string, FragmentDefinitionNode>,
  into = new Map<string, FieldNode>(),
): Map<string, FieldNode> {
  for (const selection of set.selections) {
    if (selection.directives?.length) unsupported();
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      const seen = into.get(key);
      // The same key twice merges in GraphQL; plain repeats of a leaf are all this path takes.
      if (seen && (seen.name.value !== selection.name.value || seen.selectionSet || selection.selectionSet || seen.arguments?.length || selection.arguments?.length)) unsupported();
      if (!seen) into.set(key, selection);
    } else {
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments[selection.name.value] : selection;
      if (!fragment) return unsupported();
      const on = fragment.typeCondition?.name.value;
      if (on !== undefined && on !== type.name) unsupported();
      collect(fragment.selectionSet, type, fragments, into);
    }
  }
  return into;
}

/**
 * The SQL of a stored value: timestamps as whole milliseconds since 1970, which the service writes as JavaScript's ISO
 * 8601 (what the resolvers send: Date#toISOString) — a tenth of the database's CPU for a detail went to formatting
 * them with to_char (BENCHMARKS "Database CPU per request"); the rest as it is.
 */
function columnSql(field: string, graphqlType: string): (row: RowSql) => string {
  if (graphqlType === "DateTime") return (row) => `floor(extract(epoch FROM ${row.column(field)}) * 1000)::int8`;
  return (row) => row.column(field);
}

/** What this path makes of one field of an object type (the same decision for planning and for tests). */
export type Served =
  | { kind: "leaf"; sql: (row: RowSql) => string; date?: boolean; compute?: Compute }
  | { kind: "collection"; orderBy: SqlJsonCollection["orderBy"]; relation: string; permission?: Permission }
  | null;

/**
 * A field this path answers, or null (the resolvers answer any selection holding it): `__typename`, a column
 * exposed as it is (`t.expose`), a computed field whose field table entry gives `sql`, or a list relation marked as
 * a collection. Fields with arguments other than a collection's, a `validate` option or authScopes other than one
 * permission are not answered.
 */
export function servedAs(type: GraphQLObjectType, name: string): Served {
  try {
    return served(type, name);
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
}

function served(type: GraphQLObjectType, name: string): Exclude<Served, null> {
  if (name === "__typename") return { kind: "leaf", sql: () => `'${type.name}'::text` };
  const field = type.getFields()[name] ?? unsupported();
  if (hasFieldValidation(field)) unsupported();
  const permission = permissionOf(field);
  const marker = field.extensions?.sqlJson as SqlJsonCollection | undefined;
  // plugin-prisma's own record of the relation (the Prisma field: name, type = the related model).
  const relation = field.extensions?.pothosPrismaRelationField as { name?: string } | undefined;
  if (marker?.kind === "collection") return relation?.name ? { kind: "collection", orderBy: marker.orderBy, relation: relation.name, permission } : unsupported();
  if (permission !== undefined || field.args.length) unsupported();
  const spec = fieldTableOf(type.name)?.[name];
  if (spec?.sql) return { kind: "leaf", sql: spec.sql };
  if (spec?.reads && spec.value) {
    const fields = spec.reads;
    return { kind: "leaf", sql: (row) => `json_build_array(${fields.map((f) => row.column(f)).join(", ")})`, compute: { fields, value: spec.value } };
  }
  const exposed = field.extensions?.pothosExposedField as string | undefined;
  const graphqlType = getNamedType(field.type).name;
  if (exposed && !spec?.build) return { kind: "leaf", sql: columnSql(exposed, graphqlType), ...(graphqlType === "DateTime" ? { date: true } : {}) };
  return unsupported();
}

/** The plan of one operation, or null when this path does not answer it. */
type Fragments = Record<string, FragmentDefinitionNode>;
/** The plan of an object's selection (planOperation's objectPlan). */
type ObjectOf = (type: GraphQLObjectType, set: SelectionSetNode | undefined) => ObjectPlan;

export function planOperation(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, columns: Columns): Plan | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
  if (!operation || operation.operation !== "query" || operation.directives?.length) return null;
  const fragments: Fragments = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const argued: Args[] = [];
  const argsOf = (field: GraphQLField<unknown, unknown>, node: FieldNode): Args => {
    if (hasFieldValidation(field)) unsupported();
    const args = { field, node };
    if (field.args.length) argued.push(args);
    return args;
  };

  const objectPlan = (type: GraphQLObjectType, set: SelectionSetNode | undefined): ObjectPlan => {
    const model = (type.extensions?.pothosPrismaModel as string | undefined) ?? unsupported();
    if ((type.extensions?.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes !== undefined || !set) unsupported();
    const members: Member[] = [];
    for (const [key, node] of collect(set!, type, fragments)) {
      const name = node.name.value;
      const how = served(type, name);
      if (how.kind === "leaf") {
        if (node.selectionSet) unsupported();
        members.push({ kind: "leaf", key, sql: how.sql, date: how.date, compute: how.compute });
        continue;
      }
      const field = type.getFields()[name];
      const child = getNamedType(field.type);
      const relation = columns.relation(model, how.relation);
      if (!isObjectType(child)) return unsupported();
      const object = objectPlan(child, node.selectionSet);
      if (object.model !== relation.model) unsupported();
      members.push({ kind: "collection", key, args: argsOf(field, node), permission: how.permission, join: relation.join, orderBy: how.orderBy, object });
    }
    return { model, members };
  };

  const query = schema.getQueryType()!;
  const roots: Root[] = [];
  try {
    for (const [key, node] of collect(operation.selectionSet, query, fragments)) {
      const field = query.getFields()[node.name.value] ?? unsupported();
      const spec = (field.extensions?.sqlJson as SqlJsonRoot | undefined) ?? unsupported();
      const permission = permissionOf(field);
      const args = argsOf(field, node);
      const named = getNamedType(field.type);
      if (!isObjectType(named)) return null;
      if (spec.kind === "one") {
        const object = objectPlan(named, node.selectionSet);
        if (object.model !== spec.where.model) unsupported();
        roots.push({ key, nullable: !isNonNullType(field.type), args, permission, spec, model: object.model, object });
        continue;
      }
      if (spec.kind === "connection") {
        const connection = connectionPlan(named, node.selectionSet, spec, fragments, objectPlan);
        if (!connection) return null;
        roots.push({ key, nullable: !isNonNullType(field.type), args, permission, spec, model: spec.where.model, connection });
        continue;
      }
      if (!spec.orderBy || !node.selectionSet) return null;
      const planned = pagePlan(named, node.selectionSet, fragments, objectPlan);
      if (!planned || planned.model !== spec.where.model) return null;
      roots.push({ key, nullable: !isNonNullType(field.type), args, permission, spec, ...planned });
    }
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
  return roots.length ? { schema, operation, roots, argued } : null;
}

/** A connection's members (edges { cursor node }, pageInfo { … }, totalCount, __typename), or null. */
function connectionPlan(
  type: GraphQLObjectType,
  set: SelectionSetNode | undefined,
  spec: SqlJsonRoot,
  fragments: Fragments,
  objectOf: ObjectOf,
): ConnectionMember[] | null {
  if (!spec.list || !set) return null;
  const child = (name: string) => {
    const named = getNamedType(type.getFields()[name]?.type);
    return isObjectType(named) ? named : unsupported();
  };
  const members: ConnectionMember[] = [];
  for (const [key, node] of collect(set, type, fragments)) {
    const name = node.name.value;
    if (name === "__typename") members.push({ kind: "typename", key, name: type.name });
    else if (name === "totalCount") members.push({ kind: "totalCount", key });
    else if (name === "edges") {
      const edge = child("edges");
      const edgeMembers: EdgeMember[] = [];
      for (const [edgeKey, edgeNode] of collect(node.selectionSet ?? unsupported(), edge, fragments)) {
        const edgeName = edgeNode.name.value;
        if (edgeName === "__typename") edgeMembers.push({ kind: "typename", key: edgeKey, name: edge.name });
        else if (edgeName === "cursor") edgeMembers.push({ kind: "cursor", key: edgeKey });
        else if (edgeName === "node") {
          const nodeType = getNamedType(edge.getFields().node?.type);
          if (!isObjectType(nodeType)) return null;
          const object = objectOf(nodeType, edgeNode.selectionSet);
          if (object.model !== spec.where.model) return null;
          edgeMembers.push({ kind: "node", key: edgeKey, object });
        } else return null;
      }
      members.push({ kind: "edges", key, members: edgeMembers });
    } else if (name === "pageInfo") {
      const info = child("pageInfo");
      const infoMembers: PageInfoMember[] = [];
      for (const [infoKey, infoNode] of collect(node.selectionSet ?? unsupported(), info, fragments)) {
        const infoName = infoNode.name.value;
        if (infoName === "__typename") infoMembers.push({ kind: "typename", key: infoKey, name: info.name });
        else if (infoName === "hasNextPage" || infoName === "hasPreviousPage" || infoName === "startCursor" || infoName === "endCursor") infoMembers.push({ kind: infoName, key: infoKey });
        else return null;
      }
      members.push({ kind: "pageInfo", key, members: infoMembers });
    } else return null;
  }
  return members;
}

/** A page's members (total, limit, offset, items { … }, __typename) and the model of its items, or null. */
function pagePlan(type: GraphQLObjectType, set: SelectionSetNode, fragments: Fragments, objectOf: ObjectOf): { page: PageMember[]; model: string } | null {
  const page: PageMember[] = [];
  let model: string | undefined;
  for (const [key, node] of collect(set, type, fragments)) {
    const name = node.name.value;
    if (name === "__typename") page.push({ kind: "typename", key, name: type.name });
    else if (name === "total" || name === "limit" || name === "offset") page.push({ kind: name, key } as PageMember);
    else if (name === "items") {
      const item = getNamedType(type.getFields().items.type);
      if (!isObjectType(item)) return null;
      const object = objectOf(item, node.selectionSet);
      model = object.model;
      page.push({ kind: "items", key, object });
    } else return null;
  }
  model ??= (getNamedType(type.getFields().items?.type ?? unsupported()) as GraphQLObjectType).extensions?.pothosPrismaModel as string | undefined;
  return model ? { page, model } : null;
}

/**
 * The argument values of every field node of the plan for this request, checked by the same rules as the resolvers
 * (each argument's `validate`). False when one does not coerce or is refused: the resolvers then answer (the error).
 */
export function resolveArgs(plan: Plan, request: ReadRequest): boolean {
  const variables = getVariableValues(plan.schema, plan.operation.variableDefinitions ?? [], request.variables);
  if (!variables.coerced) return false;
  for (const { field, node } of plan.argued) {
    let values: Record<string, unknown>;
    try {
      values = getArgumentValues(field, node, variables.coerced);
    } catch (err) {
      if (err instanceof GraphQLError) return false;
      throw err;
    }
    for (const arg of field.args) {
      const rule = (arg.extensions?.pothosOptions as { validate?: { "~standard"?: { validate(v: unknown): unknown } } } | undefined)?.validate;
      if (!rule) continue;
      const checked = rule["~standard"]?.validate(values[arg.name]);
      if (!checked || checked instanceof Promise || (checked as { issues?: unknown }).issues) return false;
    }
    request.args.set(node, values);
  }
  return true;
}
