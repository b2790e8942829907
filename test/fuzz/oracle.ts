// Which requests are certainly invalid: the OpenAPI document's schemas (ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses)
// plus the rules of docs/api.md "Robustness" that a schema cannot state (no NUL or lone surrogate in strings, date-times
// with an offset and a year 1..9999 in UTC, numbers at most 10^12 unless a field states its own maximum, finite
// numbers, query integers in decimal digits only). A request with a problem must not get a 2xx. The oracle only
// says "certainly invalid": requests it cannot judge (semantic rules, undocumented bounds) are only held to "no 5xx".
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { typesOf, type Schema } from "./arbitraries";
import { hasLoneSurrogate, isObj } from "./values";

const MAX_NUMBER = 1e12;
const INT32_MAX = 2 ** 31 - 1;

const DATE_TIME = /^([+-]\d{6}|\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?([Zz]|[+-]\d\d:?\d\d)$/;

/** Problems of a date-time string under docs/api.md "Validation (400 unless stated)": an offset, a real calendar instant, a year 1..9999 in UTC. */
export function dateTimeProblem(s: string): string | undefined {
  const m = DATE_TIME.exec(s);
  if (!m) return "not an ISO 8601 date-time with an offset";
  const [, y, mo, d, h, mi, sec = "0", , off] = m;
  const year = Number(y);
  const ms = Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec));
  const check = new Date(ms);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23) return "not a calendar date-time";
  let offsetMinutes = 0;
  if (off.toUpperCase() !== "Z") {
    const sign = off[0] === "-" ? -1 : 1;
    const digits = off.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return "offset out of range";
    offsetMinutes = sign * (oh * 60 + om);
  }
  // The instant in UTC, computed without Date's ±275760-year range.
  const minutes = Number(h) * 60 + Number(mi) - offsetMinutes;
  let utcYear = year;
  if (minutes < 0 && Number(mo) === 1 && Number(d) === 1) utcYear -= 1;
  if (minutes >= 24 * 60 && Number(mo) === 12 && Number(d) === 31) utcYear += 1;
  if (utcYear < 1 || utcYear > 9999) return `year ${utcYear} (in UTC) outside 1..9999`;
  return undefined;
}

/** A problem of a string under docs/api.md "Robustness", whatever field holds it. */
export function stringProblem(s: string): string | undefined {
  if (s.includes("\u0000")) return "contains a NUL character";
  if (hasLoneSurrogate(s)) return "contains a lone UTF-16 surrogate";
  return undefined;
}

/** `#/…` references rewritten to point into the document registered as "openapi". */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObj(schema)) return schema;
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi${v}` : rebase(v)]));
}

export class Oracle {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Schema) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, "openapi");
  }

  /** Follows `$ref`s into the document. */
  deref = (schema: Schema): Schema => {
    let s = schema;
    for (let i = 0; s && typeof s.$ref === "string" && i < 20; i++) {
      s = s.$ref
        .replace(/^#\//, "")
        .split("/")
        .reduce((node: any, part: string) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], this.doc);
    }
    return s ?? {};
  };

  private validator(schema: Schema): ValidateFunction {
    const key = JSON.stringify(schema);
    let v = this.compiled.get(key);
    if (!v) {
      v = this.ajv.compile(rebase(schema) as object);
      this.compiled.set(key, v);
    }
    return v;
  }

  /**
   * An alias the document says loses to its spec name ("Alias of beds; beds wins when both are sent") is not judged
   * when the spec name is sent too: docs/api.md "Validation (400 unless stated)" leaves open whether the losing spelling is validated.
   */
  private overridden(propSchema: Schema, value: Record<string, unknown>): boolean {
    const m = /Alias of (\w+); \1 wins/.exec(this.deref(propSchema).description ?? "");
    return Boolean(m && Object.prototype.hasOwnProperty.call(value, m[1]));
  }

  /** Problems of a parsed JSON body (or GraphQL value) under its schema; `where` prefixes each. */
  valueProblems(schema: Schema, value: unknown, where: string): string[] {
    const problems: string[] = [];
    const validate = this.validator(schema);
    if (!validate(value)) {
      const errors = (validate.errors ?? []).filter((e) => {
        // Errors inside an overridden alias do not count (see overridden()).
        const top = e.instancePath.split("/")[1];
        const props = this.deref(schema).properties ?? {};
        return !(top && isObj(value) && props[top] && this.overridden(props[top], value));
      });
      if (errors.length) problems.push(`${where}: ${this.ajv.errorsText(errors, { dataVar: where })}`);
    }
    this.robustness(schema, value, where, problems);
    return problems;
  }

  /** The docs/api.md "Validation (400 unless stated)" rules along the documented properties of a value (unknown fields are ignored, as the API does). */
  private robustness(schemaIn: Schema, value: unknown, where: string, out: string[]): void {
    const schema = this.deref(schemaIn);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      if (Array.isArray(schema[key])) for (const branch of schema[key]) this.robustness(branch, value, where, out);
    }
    if (typeof value === "string") {
      const p = stringProblem(value);
      if (p) out.push(`${where} ${p}`);
      if (schema.format === "date-time") {
        const d = dateTimeProblem(value);
        if (d) out.push(`${where} ${d}`);
      }
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) out.push(`${where} is not finite`);
      else if (Math.abs(value) > MAX_NUMBER && schema.maximum === undefined && typesOf(schema).some((t) => t === "number" || t === "integer")) {
        out.push(`${where} beyond 10^12`);
      }
    } else if (Array.isArray(value)) {
      if (schema.items) value.forEach((v, i) => this.robustness(schema.items, v, `${where}[${i}]`, out));
    } else if (isObj(value)) {
      for (const [k, s] of Object.entries<Schema>(schema.properties ?? {})) {
        if (Object.prototype.hasOwnProperty.call(value, k) && !this.overridden(s, value)) this.robustness(s, value[k], where ? `${where}.${k}` : k, out);
      }
      if (isObj(schema.additionalProperties)) {
        for (const [k, v] of Object.entries(value)) if (!schema.properties?.[k]) this.robustness(schema.additionalProperties, v, `${where}.${k}`, out);
      }
    }
  }

  /** Problems of one query or header parameter as the server receives it (text, or a list when repeated). */
  paramProblems(name: string, schemaIn: Schema, received: string | string[] | undefined, required: boolean): string[] {
    if (received === undefined) return required ? [`${name} is required`] : [];
    // A repeated parameter or an empty one: docs/api.md "Validation (400 unless stated)" does not say; only "no 5xx" applies.
    if (Array.isArray(received) || received === "") return [];
    const schema = this.deref(schemaIn);
    const types = typesOf(schema);
    const s = stringProblem(received);
    if (s) return [`${name} ${s}`];
    if (types.includes("integer")) {
      const negative = (schema.minimum ?? 0) < 0;
      if (!(negative ? /^-?\d+$/ : /^\d+$/).test(received)) return [`${name}=${JSON.stringify(received)} is not decimal digits`];
      const n = BigInt(received);
      if (schema.minimum !== undefined && n < BigInt(schema.minimum)) return [`${name} below ${schema.minimum}`];
      if (schema.maximum !== undefined && n > BigInt(schema.maximum)) return [`${name} above ${schema.maximum}`];
      return [];
    }
    if (types.includes("number")) {
      if (!/^-?\d+(\.\d+)?$/.test(received)) return [`${name}=${JSON.stringify(received)} is not a decimal number`];
      return this.valueProblems(schema, Number(received), name);
    }
    if (types.includes("boolean")) return received === "true" || received === "false" ? [] : [`${name} is not true or false`];
    return this.valueProblems(schema, received, name);
  }
}

/** Whether an integer fits GraphQL's Int (32-bit signed). */
export const isInt32 = (n: unknown): boolean => typeof n === "number" && Number.isInteger(n) && Math.abs(n) <= INT32_MAX;
