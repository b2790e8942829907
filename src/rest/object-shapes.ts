// REST shapes of GraphQL types without a field table (webhooks, valuation, engagement, the import result, the current
// key, share links, usage, the audit log): the REST names, the GraphQL selection that answers them (each field under
// its REST name, an alias, nested object types too) and the zod schema of the OpenAPI document are all read from the
// type in the built schema, so a field added to the type reaches REST and its documentation without being written
// again. Request bodies are read from GraphQL input types the same way, and enumerations from enum types.
// docs/api.md "Names and aliases": REST names are the GraphQL names in snake_case.
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  GraphQLNonNull,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from "graphql";
import { z } from "zod";
import { schema } from "../schema";

/** `disabledReason` → `disabled_reason`. */
export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A type's names in snake_case, as `snakeCase` writes them (`skippedStale` → `skipped_stale`), nested types too. */
type Snake<S extends string> = S extends `${infer C}${infer Rest}` ? `${C extends Lowercase<C> ? C : `_${Lowercase<C>}`}${Snake<Rest>}` : S;
export type RestNamed<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer I>
    ? RestNamed<I>[]
    : T extends object
      ? { [K in keyof T as K extends string ? Snake<K> : K]: RestNamed<T[K]> }
      : T;

export interface ObjectShapeOptions {
  /** The REST fields in order, when they are not every field of the type: a field, or [REST name, field]. */
  fields?: ReadonlyArray<string | readonly [rest: string, field: string]>;
  /** Fields of the type REST leaves out. */
  omit?: readonly string[];
  /** REST name → a narrower schema than the GraphQL type says (an enum kept as a String, an ID that is no uuid). */
  types?: Readonly<Record<string, z.ZodType>>;
  /** REST name → its description when it is not the GraphQL field's (a second name of one field). */
  descriptions?: Readonly<Record<string, string>>;
  /** REST name of a field whose type is an object type → the options of that object's shape. */
  nested?: Readonly<Record<string, ObjectShapeOptions>>;
}

export interface ObjectShape {
  /** [REST name, GraphQL field] in the REST order. */
  names: ReadonlyArray<readonly [rest: string, field: string]>;
  /** `rest_name: field { … } …`: the selection of the REST fields, each under its REST name. */
  selection: string;
  /** The response schema (OpenAPI). */
  schema: z.ZodObject;
}

const SCALARS: Record<string, () => z.ZodType> = {
  ID: () => z.uuid(),
  String: () => z.string(),
  Int: () => z.int(),
  SafeInt: () => z.int(),
  Float: () => z.number(),
  Boolean: () => z.boolean(),
  DateTime: () => z.iso.datetime(),
  JSON: () => z.record(z.string(), z.unknown()),
};

/** The values of a GraphQL enum type, in its order. */
export function enumValues(typeName: string): [string, ...string[]] {
  const type = schema.getType(typeName);
  if (!isEnumType(type)) throw new Error(`No enum type ${typeName}`);
  return type.getValues().map((v) => v.name) as [string, ...string[]];
}

/** The JSON schema of a named scalar or enum type. */
function leafOf(named: GraphQLNamedType): z.ZodType {
  if (isEnumType(named)) return z.enum(enumValues(named.name));
  if (isScalarType(named) && SCALARS[named.name]) return SCALARS[named.name]();
  throw new Error(`No REST shape for ${named.name}`);
}

/** The schema of a GraphQL type with its lists and nullability, `leaf` standing for its named type. */
function wrapped(type: GraphQLOutputType | GraphQLInputType, leaf: z.ZodType): z.ZodType {
  const inner = getNullableType(type);
  const base = isListType(inner) ? z.array(wrapped(inner.ofType, leaf)) : leaf;
  return isNonNullType(type) ? base : base.nullable();
}

function objectType(typeName: string): GraphQLObjectType {
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`No object type ${typeName}`);
  return type;
}

function shapeOf(type: GraphQLObjectType, options: ObjectShapeOptions): ObjectShape {
  const fields = type.getFields();
  const listed = options.fields ?? Object.keys(fields).filter((name) => !options.omit?.includes(name));
  const names = listed.map((entry) => (typeof entry === "string" ? ([snakeCase(entry), entry] as const) : entry));
  const selections: string[] = [];
  const shape = Object.fromEntries(
    names.map(([rest, field]) => {
      const graphql = fields[field];
      if (!graphql) throw new Error(`${type.name} has no field ${field}`);
      const named = getNamedType(graphql.type);
      const object = isObjectType(named) ? shapeOf(named, options.nested?.[rest] ?? {}) : undefined;
      selections.push(`${rest === field ? field : `${rest}: ${field}`}${object ? ` { ${object.selection} }` : ""}`);
      const description = options.descriptions?.[rest] ?? graphql.description;
      const schema = options.types?.[rest] ?? wrapped(graphql.type, object ? object.schema : leafOf(named));
      return [rest, description ? schema.meta({ description }) : schema];
    }),
  );
  return { names, selection: selections.join(" "), schema: z.object(shape) };
}

/** The REST shape of a GraphQL object type. */
export const objectShape = (typeName: string, options: ObjectShapeOptions = {}): ObjectShape => shapeOf(objectType(typeName), options);

/** The REST shape of a GraphQL object type as a fragment named `fragmentName` (`fragment`). */
export function objectFragment(typeName: string, fragmentName: string, options: ObjectShapeOptions = {}): ObjectShape & { fragment: string } {
  const shape = objectShape(typeName, options);
  return { ...shape, fragment: `fragment ${fragmentName} on ${typeName} { ${shape.selection} }` };
}

/** The fields of a GraphQL input type, REST name (snake_case) → GraphQL name. */
export function inputNames(typeName: string): ReadonlyArray<readonly [rest: string, field: string]> {
  const type = schema.getType(typeName);
  if (!isInputObjectType(type)) throw new Error(`No input type ${typeName}`);
  return Object.keys(type.getFields()).map((name) => [snakeCase(name), name] as const);
}

export interface InputShapeOptions {
  /** REST name → the rule REST documents when it is narrower than the GraphQL type (a URL, a length, an enum). */
  types?: Readonly<Record<string, z.ZodType>>;
  /** REST name → an example value for Swagger UI's "Try it out". */
  examples?: Readonly<Record<string, unknown>>;
}

/**
 * The REST body of a GraphQL input type (OpenAPI): its fields under their REST names, those GraphQL requires
 * required, the others optional, each with the input field's description. A field takes null only where its rule in
 * `types` says so: a nullable GraphQL input field may be left out, and the resolvers refuse null for most.
 */
export function inputShape(typeName: string, options: InputShapeOptions = {}): z.ZodObject {
  const type = schema.getType(typeName);
  if (!isInputObjectType(type)) throw new Error(`No input type ${typeName}`);
  const fields = type.getFields();
  const shape = Object.fromEntries(
    inputNames(typeName).map(([rest, field]) => {
      const graphql = fields[field];
      const required = isNonNullType(graphql.type);
      const typed = wrapped(new GraphQLNonNull(getNullableType(graphql.type)), leafOf(getNamedType(graphql.type)));
      const schema = required ? (options.types?.[rest] ?? typed) : (options.types?.[rest] ?? typed).optional();
      const example = options.examples?.[rest];
      const meta = { ...(graphql.description ? { description: graphql.description } : {}), ...(example !== undefined ? { example } : {}) };
      return [rest, Object.keys(meta).length ? schema.meta(meta) : schema];
    }),
  );
  return z.object(shape);
}

/** A REST body as a GraphQL input of `names`: the fields it holds; anything else is ignored, as elsewhere. */
export function bodyToInput(names: ReturnType<typeof inputNames>, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(names.filter(([rest]) => rest in body).map(([rest, field]) => [field, body[rest]]));
}
