// What the one-statement read path serves, read from the schema and the planner (servedAs): every root query field
// it answers, and below it every field of every object type it can reach (leaves, collections). The differential
// test (test/system/sql-json-differential.test.ts) and test/sql-json.test.ts generate their documents from it, so a field
// added to a field table or a collection added to a type is covered without editing a test.
import {
  getNamedType,
  isEnumType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
} from "graphql";
import { servedAs, type SqlJsonRoot } from "../../src/schema/sql-json/plan";

export interface ServedObject {
  type: GraphQLObjectType;
  /** Leaf fields, `__typename` first. */
  leaves: string[];
  collections: Array<{ name: string; field: GraphQLField<unknown, unknown>; object: ServedObject }>;
}

export interface ServedRoot {
  field: GraphQLField<unknown, unknown>;
  kind: SqlJsonRoot["kind"];
  /**
   * kind "page": the page type and its members besides `items`; kind "connection": the connection type and its
   * members besides `edges` (pageInfo with every field of it).
   */
  page?: { type: GraphQLObjectType; members: string[] };
  object: ServedObject;
}

/** A root's selection around `inner` (fields of its object): the object, a page's items, a connection's nodes. */
export function selectionAround(root: ServedRoot, inner: string): string {
  if (root.kind === "one") return `{ ${inner} }`;
  if (root.kind === "page") return `{ ${root.page!.members.join(" ")} items { ${inner} } }`;
  return `{ ${root.page!.members.join(" ")} edges { __typename cursor node { ${inner} } } }`;
}

/** The served fields of an object type and of the collections below it (a type is not entered twice on a path). */
export function servedObject(type: GraphQLObjectType, above: ReadonlySet<string> = new Set()): ServedObject {
  const served: ServedObject = { type, leaves: ["__typename"], collections: [] };
  for (const [name, field] of Object.entries(type.getFields())) {
    const how = servedAs(type, name);
    const child = getNamedType(field.type);
    if (how?.kind === "leaf") served.leaves.push(name);
    else if (how?.kind === "collection" && isObjectType(child) && !above.has(child.name)) {
      served.collections.push({ name, field, object: servedObject(child, new Set([...above, type.name])) });
    }
  }
  return served;
}

/** The root query fields the path answers (those declaring `extensions.sqlJson`). */
export function servedRoots(schema: GraphQLSchema): ServedRoot[] {
  return Object.values(schema.getQueryType()!.getFields()).flatMap((field): ServedRoot[] => {
    const spec = field.extensions?.sqlJson as SqlJsonRoot | undefined;
    const type = getNamedType(field.type);
    if (!spec || !isObjectType(type)) return [];
    if (spec.kind === "one") return [{ field, kind: "one", object: servedObject(type) }];
    if (spec.kind === "connection") {
      const edge = getNamedType(type.getFields().edges.type) as GraphQLObjectType;
      const node = getNamedType(edge.getFields().node.type) as GraphQLObjectType;
      const members = [
        "__typename",
        ...Object.entries(type.getFields())
          .filter(([name]) => name !== "edges")
          .map(([name, f]) => {
            const named = getNamedType(f.type);
            return isObjectType(named) ? `${name} { __typename ${Object.keys(named.getFields()).join(" ")} }` : name;
          }),
      ];
      return [{ field, kind: "connection", page: { type, members }, object: servedObject(node) }];
    }
    const items = getNamedType(type.getFields().items.type) as GraphQLObjectType;
    const members = ["__typename", ...Object.keys(type.getFields()).filter((name) => name !== "items")];
    return [{ field, kind: "page", page: { type, members }, object: servedObject(items) }];
  });
}

/** Every path to a leaf: the collections above it and the leaf. */
export interface LeafPath {
  collections: ServedObject["collections"];
  leaf: string;
  type: GraphQLObjectType;
}

export function leafPaths(object: ServedObject, above: ServedObject["collections"] = []): LeafPath[] {
  return [
    ...object.leaves.map((leaf) => ({ collections: above, leaf, type: object.type })),
    ...object.collections.flatMap((c) => leafPaths(c.object, [...above, c])),
  ];
}

/** Every served field of the object and of its collections (with their default arguments). */
export function everyField(object: ServedObject): string {
  return [...object.leaves, ...object.collections.map((c) => `${c.name} { ${everyField(c.object)} }`)].join(" ");
}

/** An argument's value as a GraphQL literal. */
export function literal(arg: GraphQLArgument, value: unknown): string {
  if (isEnumType(getNamedType(arg.type))) return String(value);
  return JSON.stringify(value);
}

/** Whether an argument's own rule (`validate`, as the resolvers check it) accepts a value. */
export function argAccepts(arg: GraphQLArgument, value: unknown): boolean {
  const rule = (arg.extensions?.pothosOptions as { validate?: { "~standard"?: { validate(v: unknown): unknown } } } | undefined)?.validate;
  const checked = rule?.["~standard"]?.validate(value) as { issues?: unknown } | undefined;
  return !checked?.issues;
}
