// REST shapes of GraphQL object types without a field table (webhook endpoints, deliveries, events, event types):
// the REST names, the GraphQL selection that answers them (each field under its REST name, an alias) and the zod
// schema of the OpenAPI document are all read from the object type of the built schema, so a field added to the
// type reaches REST and its documentation without being written again. docs/api.md "Names and aliases": REST names
// are the GraphQL names in snake_case.
import { getNullableType, isEnumType, isListType, isNonNullType, isScalarType, type GraphQLOutputType } from "graphql";
import { z } from "zod";
import { schema } from "../schema";

/** `disabledReason` → `disabled_reason`. */
export const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export interface ObjectShapeOptions {
  /** The REST fields in order, when they are not every field of the type: a field, or [REST name, field]. */
  fields?: ReadonlyArray<string | readonly [rest: string, field: string]>;
  /** Fields of the type REST leaves out. */
  omit?: readonly string[];
  /** REST name → a narrower schema than the GraphQL type says (an enum kept as a String, an ID that is no uuid). */
  types?: Readonly<Record<string, z.ZodType>>;
  /** REST name → its description when it is not the GraphQL field's (a second name of one field). */
  descriptions?: Readonly<Record<string, string>>;
}

export interface ObjectShape {
  /** [REST name, GraphQL field] in the REST order. */
  names: ReadonlyArray<readonly [rest: string, field: string]>;
  /** `fragment <name> on <Type> { rest_name: field … }`. */
  fragment: string;
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

/** The JSON schema of a GraphQL output type (scalars, enums and lists of them). */
function zodOf(type: GraphQLOutputType): z.ZodType {
  const inner = getNullableType(type);
  let base: z.ZodType;
  if (isListType(inner)) base = z.array(zodOf(inner.ofType));
  else if (isEnumType(inner)) base = z.enum(inner.getValues().map((v) => v.name) as [string, ...string[]]);
  else if (isScalarType(inner) && SCALARS[inner.name]) base = SCALARS[inner.name]();
  else throw new Error(`No REST shape for ${inner.toString()}`);
  return isNonNullType(type) ? base : base.nullable();
}

/** The REST shape of a GraphQL object type, fragment named `fragmentName`. */
export function objectShape(typeName: string, fragmentName: string, options: ObjectShapeOptions = {}): ObjectShape {
  const type = schema.getType(typeName);
  if (!type || !("getFields" in type)) throw new Error(`No object type ${typeName}`);
  const fields = type.getFields();
  const listed = options.fields ?? Object.keys(fields).filter((name) => !options.omit?.includes(name));
  const names = listed.map((entry) => (typeof entry === "string" ? ([snakeCase(entry), entry] as const) : entry));
  const shape = Object.fromEntries(
    names.map(([rest, field]) => {
      const graphql = fields[field];
      if (!graphql) throw new Error(`${typeName} has no field ${field}`);
      const description = options.descriptions?.[rest] ?? graphql.description;
      const schema = options.types?.[rest] ?? zodOf(graphql.type as GraphQLOutputType);
      return [rest, description ? schema.meta({ description }) : schema];
    }),
  );
  const selection = names.map(([rest, field]) => (rest === field ? field : `${rest}: ${field}`)).join(" ");
  return { names, fragment: `fragment ${fragmentName} on ${typeName} { ${selection} }`, schema: z.object(shape) };
}

/** The fields of a GraphQL input type, REST name (snake_case) → GraphQL name. */
export function inputNames(typeName: string): ReadonlyArray<readonly [rest: string, field: string]> {
  const type = schema.getType(typeName);
  if (!type || !("getFields" in type)) throw new Error(`No input type ${typeName}`);
  return Object.keys(type.getFields()).map((name) => [snakeCase(name), name] as const);
}

/** A REST body as a GraphQL input of `names`: the fields it holds; anything else is ignored, as elsewhere. */
export function bodyToInput(names: ReturnType<typeof inputNames>, body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(names.filter(([rest]) => rest in body).map(([rest, field]) => [field, body[rest]]));
}
