// fast-check arbitraries: valid values built from a JSON Schema (the OpenAPI document's request schemas), and hostile
// values of every hostile kind (wrong types, NUL, lone surrogates, extreme numbers, impossible dates, long
// strings, nested structures, prototype-pollution keys).
import fc from "fast-check";
import { Obj, Raw, Ref, type Val } from "./values";

export type Schema = Record<string, any>;

/** Follows `$ref`s into the document. */
export type Deref = (schema: Schema) => Schema;

/** Types a schema allows (`type` may be a list such as ["string", "null"]). */
export function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === "string") return [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((v: unknown) => (v === null ? "null" : typeof v)))] as string[];
  return [];
}

/** Whether a field name points at a row of another table (report_id, reportId). */
export const isIdName = (name: string): boolean => /(^|_)id$|[a-z]Id$/.test(name);

const words = fc.constantFrom("Main", "Oak", "Pine", "Maple", "North", "Cedar", "Elm", "Lake", "Hill", "Park", "River", "Sunset");
const safeText = (min: number, max: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.integer({ min: 1, max: 9999 }), words, fc.constantFrom("St", "Ave", "Rd", "Blvd", "Dr")).map(([n, w, s]) => `${n} ${w} ${s}`) },
    { weight: 3, arbitrary: fc.string({ minLength: Math.max(1, min), maxLength: Math.max(1, Math.min(max, 24)) }).filter((s) => s.trim().length > 0) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: Math.max(1, min), maxLength: Math.max(1, Math.min(max, 12)) }).filter((s) => s.trim().length > 0) },
  ).filter((s) => s.length >= min && s.length <= max);

const isoDate = fc
  .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2035-12-31T23:59:59Z"), noInvalidDate: true })
  .chain((d) =>
    fc.constantFrom(
      d.toISOString(),
      d.toISOString().replace(/\.\d{3}Z$/, "Z"),
      d.toISOString().replace(/\.\d{3}Z$/, "+02:00"),
      d.toISOString().replace(/Z$/, "-05:30"),
    ),
  );

export interface ValidOptions {
  /** A marker every generated string starts with (the other team's rows carry one, so a leak can be recognised). */
  marker?: string;
  /** Probability that an optional property is present. */
  optionalRate?: number;
}

/** A value the schema accepts (within the bounds of docs/api.md "Robustness" where the schema states none). */
export function validArb(schemaIn: Schema, name: string, deref: Deref, options: ValidOptions = {}): fc.Arbitrary<Val> {
  const schema = deref(schemaIn);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Val[]));
  for (const key of ["anyOf", "oneOf"]) if (Array.isArray(schema[key])) return fc.oneof(...schema[key].map((s: Schema) => validArb(s, name, deref, options)));
  if (Array.isArray(schema.allOf)) return validArb(Object.assign({}, ...schema.allOf.map(deref)), name, deref, options);
  const types = typesOf(schema).filter((t) => t !== "null");
  const nullable = typesOf(schema).includes("null");
  const arbs = types.map((t) => byType(t, schema, name, deref, options));
  if (!arbs.length) arbs.push(fc.constantFrom<Val>("x", 1, true));
  const base = arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
  return nullable ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 12, arbitrary: base }) : base;
}

function byType(type: string, schema: Schema, name: string, deref: Deref, options: ValidOptions): fc.Arbitrary<Val> {
  switch (type) {
    case "object":
      return objectArb(schema, deref, options);
    case "array": {
      const items = schema.items ? validArb(schema.items, name, deref, options) : fc.constant<Val>("x");
      const min = schema.minItems ?? 0;
      return fc.array(items, { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? 4, 4)) });
    }
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number":
      return numberArb(type, schema, name);
    default:
      return stringArb(schema, name, options);
  }
}

function objectArb(schema: Schema, deref: Deref, options: ValidOptions): fc.Arbitrary<Val> {
  const required = new Set<string>(schema.required ?? []);
  const props = Object.entries<Schema>(schema.properties ?? {});
  const rate = options.optionalRate ?? 0.5;
  const entries = props.map(([key, s]) => {
    const value = validArb(s, key, deref, options);
    if (required.has(key)) return value.map((v) => [[key, v]] as Array<[string, Val]>);
    return fc.oneof(
      { weight: Math.round((1 - rate) * 100), arbitrary: fc.constant([] as Array<[string, Val]>) },
      { weight: Math.round(rate * 100), arbitrary: value.map((v) => [[key, v]] as Array<[string, Val]>) },
    );
  });
  if (!entries.length) {
    const extra = schema.additionalProperties;
    if (extra && typeof extra === "object") {
      return fc.dictionary(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), validArb(extra, "value", deref, options), { maxKeys: 4 }).map((d) => new Obj(Object.entries(d) as Array<[string, Val]>));
    }
    return fc.constant(new Obj([]));
  }
  return fc.tuple(...entries).map((parts) => new Obj(parts.flat()));
}

function numberArb(type: string, schema: Schema, name: string): fc.Arbitrary<Val> {
  let min: number = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (type === "integer" ? 1 : 0.01) : 0);
  let max: number = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - (type === "integer" ? 1 : 0.01) : Number.NaN);
  if (Number.isNaN(max)) max = /year/i.test(name) ? 2025 : min + 1_000_000;
  if (/year/i.test(name) && schema.minimum === undefined) min = 1900;
  if (type === "integer") return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.integer({ min: Math.ceil(min * 100), max: Math.floor(max * 100) }).map((n) => n / 100),
  );
}

function stringArb(schema: Schema, name: string, options: ValidOptions): fc.Arbitrary<Val> {
  const marker = options.marker ?? "";
  const min: number = schema.minLength ?? 0;
  const max: number = schema.maxLength ?? 200;
  switch (schema.format) {
    case "uuid":
      return isIdName(name) ? fc.integer({ min: 0, max: 1000 }).map((pick) => new Ref(name, "own", pick)) : fc.uuid({ version: 4 });
    case "date-time":
      return isoDate;
    case "date":
      return isoDate.map((d) => d.slice(0, 10));
    case "email":
      return fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/).map((local) => `${marker.toLowerCase()}${local}@example.com`);
    case "uri":
    case "url":
      return fc.stringMatching(/^[a-z0-9-]{1,20}$/).map((p) => `https://example.com/${marker}${p}`);
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= max);
  if (marker) return safeText(0, Math.max(0, max - marker.length - 1)).map((s) => `${marker} ${s}`.slice(0, max));
  return safeText(min, max);
}

// ---- hostile values ----

const deepArray = (depth: number): Val => {
  let v: Val = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const deepObject = (depth: number): Val => {
  let v: Val = 1;
  for (let i = 0; i < depth; i++) v = new Obj([["a", v]]);
  return v;
};

export const HOSTILE_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(64),
  "\uD800",
  "x\uDFFFy",
  "\uDBFF\uDBFF",
  "\uDC00\uD800",
  "\uFEFFtext",
  "\u202Eevil",
  "%ZZ",
  "%00",
  "' OR '1'='1' --",
  "'); DROP TABLE reports; --",
  "<script>alert(1)</script>",
  "${7*7}{{7*7}}",
  "../../etc/passwd",
  "",
  " ",
  "\t\r\n",
  "null",
  "NaN",
  "0x10",
  "1e400",
  "🏠🔑".repeat(300),
  "\\",
  "\"",
];

export const HOSTILE_DATES = [
  "0000-01-01T00:00:00Z",
  "0001-01-01T00:00:00+14:00",
  "+275760-09-13T00:00:00Z",
  "-271821-04-20T00:00:00Z",
  "+010000-01-01T00:00:00Z",
  "9999-12-31T23:59:59-14:00",
  "-000001-01-01T00:00:00Z",
  "2026-05-01T14:00:00",
  "2026-05-01",
  "2026-05-01T14:00",
  "2026-02-30T00:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-05-01T24:00:00Z",
  "2026-05-01T14:00:00+25:00",
  "2026-05-01T14:00:00.123456789123Z",
  "2026-05-01 14:00:00Z",
  "20260501T140000Z",
  "1714572000000",
  "now",
  "Fri, 01 May 2026 14:00:00 GMT",
  "1969-12-31T23:59:59.999Z",
];

export const HOSTILE_NUMBERS: Val[] = [
  1.7976931348623157e308,
  -1.7976931348623157e308,
  5e-324,
  -0,
  -1,
  -0.5,
  0.5,
  1.5,
  1e12,
  1e12 + 1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 63,
  1e21,
  1e300,
  new Raw("1e400"),
  new Raw("-1e400"),
  new Raw("1e-400"),
  new Raw("123456789012345678901234567890"),
  new Raw("-0.0"),
  new Raw("1E2"),
];

const POLLUTION = (): Val =>
  new Obj([
    ["__proto__", new Obj([["polluted", "yes"], ["isAdmin", true]])],
    ["constructor", new Obj([["prototype", new Obj([["polluted", "yes"]])]])],
  ]);

const STRUCTURES = (): Val[] => [
  [],
  [1],
  ["a", "b"],
  new Obj([]),
  new Obj([["a", 1]]),
  new Obj([["$gt", ""]]),
  deepArray(50),
  deepObject(50),
  true,
  false,
  null,
  POLLUTION(),
];

/** A long string: just over a documented limit, or far over it. */
const longString = fc.constantFrom(1001, 20_001, 65_536, 300_000).chain((n) => fc.constantFrom("a".repeat(n), "\u00e9".repeat(n)));

/** Any hostile value; `schema` biases it toward what hurts that field (numbers out of range for numbers…). */
export function hostileArb(schemaIn: Schema | undefined, name: string, deref: Deref): fc.Arbitrary<Val> {
  const schema = schemaIn ? deref(schemaIn) : {};
  const types = typesOf(schema);
  const targeted: Array<fc.Arbitrary<Val>> = [];
  if (types.includes("integer") || types.includes("number")) {
    const bounds: Val[] = [];
    if (schema.minimum !== undefined) bounds.push(schema.minimum - 1, schema.minimum - 0.5);
    if (schema.maximum !== undefined) bounds.push(schema.maximum + 1, schema.maximum + 0.5);
    targeted.push(fc.constantFrom(...HOSTILE_NUMBERS, ...bounds), fc.constantFrom<Val>("5", "5.0", "", "1e3", "0x10"), fc.double());
  }
  if (types.includes("string")) {
    targeted.push(fc.constantFrom(...HOSTILE_STRINGS), longString, fc.constantFrom<Val>(42, 0, true, -1.5));
    if (schema.format === "date-time" || schema.format === "date") targeted.push(fc.constantFrom(...HOSTILE_DATES), fc.constantFrom(...HOSTILE_DATES));
    if (schema.format === "uuid") {
      targeted.push(
        fc.constantFrom<Val>("abc", "00000000-0000-0000-0000-000000000000", "{00000000-0000-4000-8000-000000000000}", "00000000000040008000000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
        fc.integer({ min: 0, max: 1000 }).chain((pick) => fc.constantFrom<Val>(new Ref(name, "other", pick), new Ref(name, "unknown", pick), new Ref("showing", "own", pick))),
      );
    }
    if (schema.format === "email") targeted.push(fc.constantFrom<Val>("not-an-email", "a@", "@b.c", "a@b", "a\u0000@example.com", `${"a".repeat(320)}@example.com`));
  }
  if (schema.enum) {
    const e = schema.enum.filter((v: unknown) => typeof v === "string") as string[];
    if (e.length) targeted.push(fc.constantFrom(...e).chain((v) => fc.constantFrom<Val>(v.toUpperCase(), ` ${v}`, `${v}\u0000`, `${v}s`, [v])));
  }
  if (types.includes("boolean")) targeted.push(fc.constantFrom<Val>("true", "false", 0, 1, "yes", "", null));
  const generic = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_NUMBERS), fc.constantFrom(...HOSTILE_DATES), fc.constantFrom(...STRUCTURES()), longString);
  return targeted.length ? fc.oneof({ weight: 3, arbitrary: fc.oneof(...targeted) }, { weight: 1, arbitrary: generic }) : generic;
}

/** Keys a body may carry besides its documented ones. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "", "toString", "hasOwnProperty", "a".repeat(2000), "\u0000", "\uD800", "$where", "id", "team_id", "teamId", "created_at"];

/**
 * A valid object of the schema with one or two fields made hostile (or a hostile extra key, or a repeated key).
 * `validBody` comes from validArb on the same schema.
 */
export function hostileBodyArb(schemaIn: Schema, deref: Deref, validBody: fc.Arbitrary<Val>): fc.Arbitrary<Val> {
  const schema = deref(schemaIn);
  const props = Object.entries<Schema>(schema.properties ?? {});
  const fieldEdit = props.length
    ? fc.constantFrom(...props).chain(([key, s]) => hostileArb(s, key, deref).map((v) => ({ key, value: v, mode: "set" as const })))
    : fc.constant({ key: "x", value: "x" as Val, mode: "set" as const });
  const extraEdit = fc.constantFrom(...HOSTILE_KEYS).chain((key) => fc.oneof(hostileArb(undefined, key, deref), fc.constant(POLLUTION())).map((v) => ({ key, value: v, mode: "set" as const })));
  const dupEdit = props.length
    ? fc.constantFrom(...props).chain(([key, s]) => hostileArb(s, key, deref).map((v) => ({ key, value: v, mode: "append" as const })))
    : extraEdit;
  const edit = fc.oneof({ weight: 8, arbitrary: fieldEdit }, { weight: 2, arbitrary: extraEdit }, { weight: 1, arbitrary: dupEdit });
  return fc.tuple(validBody, fc.array(edit, { minLength: 1, maxLength: 2 })).map(([body, edits]) => {
    const entries = body instanceof Obj ? [...body.entries] : [];
    for (const e of edits) {
      const at = entries.findIndex(([k]) => k === e.key);
      if (e.mode === "set" && at >= 0) entries[at] = [e.key, e.value];
      else entries.push([e.key, e.value]);
    }
    return new Obj(entries);
  });
}

/** Hostile raw request bodies: not JSON, not an object, too big, too deep. */
export const RAW_BODIES: Array<{ text: string; contentType?: string }> = [
  { text: "{" },
  { text: '{"address": ' },
  { text: "[]" },
  { text: "null" },
  { text: '"text"' },
  { text: "42" },
  { text: "" },
  { text: "{'address': 'single quotes'}" },
  { text: '{"address": "x",}' },
  { text: '{"price": NaN}' },
  { text: '{"price": Infinity}' },
  { text: "\uFEFF{}" },
  { text: "[".repeat(100_000) + "]".repeat(100_000) },
  { text: `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}` },
  { text: `{"address": "${"a".repeat(1_100_000)}"}` },
  { text: '{"address": "x"}', contentType: "text/plain" },
  { text: "address=x", contentType: "application/x-www-form-urlencoded" },
  { text: '{"address": "x"}', contentType: "application/json; charset=utf-16" },
  { text: '{"address": "x"}', contentType: "application/json; charset=latin1" },
  { text: '{"address": "x"}', contentType: "" },
  { text: '{"address": "x"}', contentType: "multipart/form-data; boundary=x" },
  { text: '{"address": "\\ud800"}' },
  { text: '{"address": "\\u0000"}' },
  { text: '{"address": "\\uZZZZ"}' },
];
