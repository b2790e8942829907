// Field tables: one declaration per field of a resource, from which everything else is derived — the GraphQL object
// fields, the create/update input types and their validation, the REST names (and second spellings) of bodies and
// responses, the REST response selections, and the OpenAPI schemas. Adding a field to a resource is one entry in its
// table (plus the column and its migration).
import type { EnumRef } from "@pothos/core";
import { z } from "zod";
import type { Prisma } from "../generated/prisma/client";
import { builder, type InputFields } from "./builder";
import type { RowSql } from "./computed";
import { checked, string } from "./rules";

type ScalarName = "String" | "Int" | "SafeInt" | "Float" | "Boolean" | "DateTime" | "ID" | "JSON";

/** An enum of the schema with its values (GraphQL type and zod/OpenAPI from one list). */
export interface EnumSpec<V extends string = string> {
  ref: EnumRef<typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never, V, V>;
  values: readonly V[];
}

export function enumSpec<const V extends string>(name: string, values: readonly V[], description: string): EnumSpec<V> {
  return { ref: builder.enumType(name, { values, description }), values };
}

export interface FieldSpec {
  /** GraphQL type: a scalar name or an enum. */
  type: ScalarName | EnumSpec;
  /** Name in REST responses (and bodies, unless `restInput`). */
  rest: string;
  /** Name in REST bodies when it differs from the response name. */
  restInput?: string;
  /** Second spellings accepted in REST bodies; the REST name wins when both are sent (docs/api.md "Names and aliases"). */
  aliases?: readonly string[];
  /** A second name under which REST list and detail responses carry the value too (the spec's sample names). */
  sampleName?: string;
  description: string;
  /** The value may be null (read), and null clears it (update). */
  nullable?: boolean;
  /** Checks on a written value beyond its GraphQL type (strings always refuse NUL and lone surrogates; JSON needs one). */
  rule?: z.ZodType;
  /** Accepted on create: required or optional. Absent: not settable on create. */
  create?: "required" | "optional";
  /** Accepted on update. */
  update?: boolean;
  /** For a column that always holds a value: what null means on update ("refuse": 400; "ignore": keep the value). */
  onNull?: "refuse" | "ignore";
  /** Left out of REST list items (the summary); carried by create/update responses and the detail. */
  detailOnly?: boolean;
  /** The message when a required value is missing, when it is not "<field> is required" (e.g. "Address is required"). */
  requiredMessage?: string;
  /** Example value for the OpenAPI document (must pass the rule). */
  example?: unknown;
  /** A computed field's value from the row (its GraphQL field when there is no `build`, and webhook payloads). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one table type serves every model: a row of Report, Showing, … (unknown would refuse their typed functions)
  value?: (row: any) => unknown;
  /** The GraphQL object field when it is not the column exposed as it is (computed fields), given the description. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos's field builder of whichever object type the table is for
  build?: (t: any, description: string) => unknown;
  /**
   * A computed field's value as SQL over the row, giving what `value` gives as JSON (the one-statement read path,
   * ./sql-json). `value`, `build` and `sql` (or `reads`) come together from one form of ./computed.ts; without
   * either a query selecting the field runs on the resolvers.
   */
  sql?: (row: RowSql) => string;
  /** A formula's fields: the one-statement path reads their columns and the service applies `value` to them. */
  reads?: readonly string[];
}

export type FieldTable = Record<string, FieldSpec>;
type Mode = "create" | "update";

const entries = (table: FieldTable) => Object.entries(table);
/** The name a REST body uses for the field. */
const restName = (spec: FieldSpec) => spec.restInput ?? spec.rest;
const writable = (spec: FieldSpec, mode: Mode) => (mode === "create" ? spec.create !== undefined : spec.update === true);
/** Whether null is accepted when the field is optional: it clears the value, or is ignored. */
const acceptsNull = (spec: FieldSpec) => Boolean(spec.nullable) || spec.onNull === "ignore";

// ---- GraphQL ----

const tables = new Map<string, FieldTable>();

/** The field table of a GraphQL object type whose fields come from one (after the schema is built). */
export const fieldTableOf = (typeName: string): FieldTable | undefined => tables.get(typeName);

/** Every field table an object type of the schema is built from (after the schema is built). */
export const fieldTables = (): FieldTable[] => [...new Set(tables.values())];

/** The object type's fields: every entry, exposed from its column or built by `build`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos's field builder and field map of whichever prisma object the table is for
export function objectFields(table: FieldTable, t: any): Record<string, any> {
  tables.set(t.typename as string, table);
  return Object.fromEntries(
    entries(table).map(([name, spec]) => [
      name,
      spec.build ? spec.build(t, spec.description) : t.expose(name, { type: typeOf(spec), nullable: Boolean(spec.nullable), description: spec.description }),
    ]),
  );
}

const typeOf = (spec: FieldSpec) => (typeof spec.type === "string" ? spec.type : spec.type.ref);

/** The input fields of a create or update input type. On update every field is optional. */
export function inputFields(table: FieldTable, mode: Mode) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos's input field map, typed per input type where inputType() declares it
  return (t: InputFields): Record<string, any> =>
    Object.fromEntries(
      entries(table)
        .filter(([, spec]) => writable(spec, mode))
        .map(([name, spec]) => [
          name,
          t.field({
            // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a type name chosen at run time from the table, which Pothos types as a literal
            type: typeOf(spec) as any,
            required: mode === "create" && spec.create === "required",
            description: inputDescription(spec, mode),
          }),
        ]),
    );
}

function inputDescription(spec: FieldSpec, mode: Mode): string {
  if (mode === "update" && spec.nullable) return `${spec.description} (null clears it)`;
  if (mode === "update" && spec.onNull === "ignore") return `${spec.description} (null is ignored)`;
  return spec.description;
}

/** The rule of one written value: its table rule, else its type's (GraphQL has typed it; this refuses null). */
function valueRule(spec: FieldSpec): z.ZodType {
  if (spec.rule) return spec.rule;
  const type = spec.type;
  if (typeof type !== "string") return z.enum(type.values as [string, ...string[]]);
  const byType: Record<ScalarName, () => z.ZodType> = {
    String: string,
    ID: () => z.string(),
    Int: () => z.int(),
    SafeInt: () => z.int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
    Float: () => z.number(),
    Boolean: () => z.boolean(),
    DateTime: () => z.date(),
    JSON: () => z.never(),
  };
  return byType[type]();
}

/** The validation of a create or update input (run by @pothos/plugin-validation, worded by rules.ts). */
export function inputRule(table: FieldTable, mode: Mode) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of entries(table)) {
    if (!writable(spec, mode)) continue;
    const rule = valueRule(spec);
    if (mode === "create" && spec.create === "required") shape[name] = rule;
    else if (acceptsNull(spec)) shape[name] = rule.nullish();
    else shape[name] = rule.optional();
  }
  return checked(z.looseObject(shape));
}

// ---- REST names ----

type BodyNames = ReadonlyArray<[rest: string, field: string, alias: boolean]>;
const bodyNamesOf = new WeakMap<FieldTable, Record<Mode, BodyNames>>();

/**
 * REST body name → GraphQL field, for one mode: the REST names first, then the aliases (the REST name wins).
 * Worked out once per table: every create and update request reads it.
 */
function bodyNames(table: FieldTable, mode: Mode): BodyNames {
  let known = bodyNamesOf.get(table);
  if (!known) {
    const list = (m: Mode): BodyNames => {
      const names: Array<[string, string, boolean]> = [];
      for (const [name, spec] of entries(table)) if (writable(spec, m)) names.push([restName(spec), name, false]);
      for (const [name, spec] of entries(table)) if (writable(spec, m)) for (const alias of spec.aliases ?? []) names.push([alias, name, true]);
      return names;
    };
    bodyNamesOf.set(table, (known = { create: list("create"), update: list("update") }));
  }
  return known[mode];
}

export interface RestInput {
  /** The GraphQL input: the fields the body holds, under their GraphQL names. */
  input: Record<string, unknown>;
  /** GraphQL field → the REST spelling the client used, so messages use the client's own words. */
  spelled: Map<string, string>;
}

/** A REST body as a GraphQL input. Unknown body fields are ignored (docs/api.md "Validation (400 unless stated)"). */
export function restToInput(table: FieldTable, mode: Mode, body: Record<string, unknown>): RestInput {
  const input: Record<string, unknown> = {};
  const spelled = new Map<string, string>();
  for (const [rest, field] of bodyNames(table, mode)) {
    if (body[rest] === undefined || field in input) continue;
    input[field] = body[rest];
    spelled.set(field, rest);
  }
  return { input, spelled };
}

/** The body's names that the table does not take in this mode (they are ignored, and a create says which). */
export function ignoredNames(table: FieldTable, mode: Mode, body: Record<string, unknown>): string[] {
  const taken = new Set(bodyNames(table, mode).map(([rest]) => rest));
  return Object.keys(body).filter((name) => !taken.has(name));
}

/** GraphQL field → REST name, over every table (for messages). */
export function restNames(...tables: FieldTable[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const table of tables) for (const [name, spec] of entries(table)) names.set(name, restName(spec));
  return names;
}

// ---- REST responses and OpenAPI ----

/** The response schema of one value as JSON. */
function responseSchema(spec: FieldSpec): z.ZodType {
  const type = spec.type;
  const base =
    type === "JSON"
      ? (spec.rule ?? z.unknown())
      : typeof type !== "string"
      ? z.enum(type.values as [string, ...string[]])
      : type === "Int" || type === "SafeInt"
        ? z.int()
        : type === "Float"
          ? z.number()
          : type === "Boolean"
            ? z.boolean()
            : type === "DateTime"
              ? z.iso.datetime()
              : type === "ID"
                ? z.uuid()
                : z.string();
  return spec.nullable ? base.nullable() : base;
}

/** The request schema of one value in a REST body (the OpenAPI document's words for the rule). */
function requestSchema(spec: FieldSpec, mode: Mode): z.ZodType {
  const type = spec.type;
  let base: z.ZodType;
  if (typeof type !== "string") base = z.enum(type.values as [string, ...string[]]);
  else if (type === "DateTime") base = z.iso.datetime({ offset: true });
  else if (type === "Boolean") base = z.boolean();
  else base = spec.rule ?? (type === "Int" || type === "SafeInt" ? z.int() : type === "Float" ? z.number() : z.string());
  const described = base.meta({ description: inputDescription(spec, mode), ...(spec.example === undefined ? {} : { example: spec.example }) });
  if (mode === "create" && spec.create === "required") return described;
  return (acceptsNull(spec) ? described.nullable() : described).optional();
}

/** The REST request body of a create or update (documentation: the schema itself validates). */
export function restBodySchema(table: FieldTable, mode: Mode): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [rest, field, alias] of bodyNames(table, mode)) {
    const spec = table[field];
    const schema = requestSchema(spec, mode);
    shape[rest] = alias ? schema.optional().meta({ description: `Alias of ${restName(spec)}; ${restName(spec)} wins when both are sent` }) : schema;
  }
  return z.object(shape);
}

/** Which fields a REST response carries: every field, or the list-item summary. */
type Shape = "full" | "summary";

/**
 * The (REST name, GraphQL field) pairs of a REST response, in its order: the summary's fields, their sample names,
 * then (full shape) the detail-only fields and theirs — the order REST clients have always seen.
 */
function responseNames(table: FieldTable, shape: Shape): Array<[rest: string, field: string, spec: FieldSpec, sample: boolean]> {
  const part = (detailOnly: boolean) => {
    const list = entries(table).filter(([, spec]) => Boolean(spec.detailOnly) === detailOnly);
    return [
      ...list.map(([name, spec]) => [spec.rest, name, spec, false] as [string, string, FieldSpec, boolean]),
      ...list.filter(([, spec]) => spec.sampleName).map(([name, spec]) => [spec.sampleName!, name, spec, true] as [string, string, FieldSpec, boolean]),
    ];
  };
  return shape === "summary" ? part(false) : [...part(false), ...part(true)];
}

/**
 * A row as its REST GET shows it (every response name of the full shape, dates as ISO text, 64-bit counts as
 * numbers), for records made outside a GraphQL operation: webhook payloads.
 */
export function restRecord(table: FieldTable, row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    responseNames(table, "full").map(([rest, field, spec]) => {
      const value = spec.value ? spec.value(row) : row[field];
      return [rest, value instanceof Date ? value.toISOString() : typeof value === "bigint" ? Number(value) : (value ?? null)];
    }),
  );
}

/** The REST response schema (OpenAPI). */
export function restResponseSchema(table: FieldTable, shape: Shape = "full"): z.ZodObject {
  return z.object(
    Object.fromEntries(
      responseNames(table, shape).map(([rest, , spec, sample]) => [rest, responseSchema(spec).meta({ description: sample ? `Same as ${spec.rest}` : spec.description })]),
    ),
  );
}

/**
 * The GraphQL selection of a REST response: each field under its REST name (an alias), in the order of
 * restResponseSchema, so an operation's result already is the REST body.
 */
export function restSelection(table: FieldTable, shape: Shape = "full"): string {
  return responseNames(table, shape)
    .map(([rest, field]) => (rest === field ? field : `${rest}: ${field}`))
    .join(" ");
}

// ---- writing inputs ----

/** The entries of a create input that hold a value: an absent or null optional field takes the column's default. */
export function withoutNulls<V extends object>(input: V): { [K in keyof V]?: NonNullable<V[K]> } {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value != null)) as { [K in keyof V]?: NonNullable<V[K]> };
}

/** An update's data: null on a field whose null is ignored (onNull "ignore") leaves the value as it is. */
export function dropIgnoredNulls(table: FieldTable, input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([name, value]) => !(value === null && table[name]?.onNull === "ignore")));
}

// ---- input types ----

type ValueOf<S> = S extends { type: "String" | "ID" }
  ? string
  : S extends { type: "Int" | "SafeInt" | "Float" }
    ? number
    : S extends { type: "Boolean" }
      ? boolean
      : S extends { type: "DateTime" }
        ? Date
        : S extends { type: "JSON" }
          ? Prisma.InputJsonObject
          : S extends { type: EnumSpec<infer V> }
            ? V
            : never;

type RequiredKeys<T, M extends Mode> = { [K in keyof T]: M extends "create" ? (T[K] extends { create: "required" } ? K : never) : never }[keyof T];
type OptionalKeys<T, M extends Mode> = {
  [K in keyof T]: M extends "create" ? (T[K] extends { create: "optional" } ? K : never) : T[K] extends { update: true } ? K : never;
}[keyof T];

/** The value a resolver receives for a create or update input of the table. */
export type InputOf<T extends FieldTable, M extends Mode> = { [K in RequiredKeys<T, M>]: ValueOf<T[K]> } & {
  [K in OptionalKeys<T, M>]?: ValueOf<T[K]> | null;
};

const requiredMessages = new Map<string, string>();

/** The message for a missing required field of an input type (see FieldSpec.requiredMessage). */
export const requiredMessageOf = (inputTypeName: string, field: string): string | undefined => requiredMessages.get(`${inputTypeName}.${field}`);

/** The GraphQL input type of a create or update, with its validation. */
export function inputType<T extends FieldTable, M extends Mode>(name: string, table: T, mode: M, description: string) {
  for (const [field, spec] of entries(table)) if (spec.requiredMessage) requiredMessages.set(`${name}.${field}`, spec.requiredMessage);
  return builder.inputRef<InputOf<T, M>>(name).implement({
    description,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the fields are made from the table at run time; InputOf<T, M> states their type
    fields: inputFields(table, mode) as any,
    validate: inputRule(table, mode),
  });
}
