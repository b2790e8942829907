// The one-statement read path, part 5: a root's arrays (./sql.ts) written as the answer's JSON text, keys put back
// from the shape. The text is written directly, not built as objects and then stringified: for a REST detail that
// halves the service's CPU of this step (BENCHMARKS "Database CPU per request"). Values are spelled as
// JSON.stringify spells them (the resolvers' answers are written by it), attendee fields are opened
// (../sealed.ts), dates written in ISO 8601 as Date#toISOString writes them (a date outside its range throws, and
// the resolvers answer). Both are written without the general functions where they are plain (see leaf, isoDate).
import { openStoredValue } from "../sealed";
import type { Shape } from "./sql";

type Write = (value: unknown) => string;

/** A string JSON.stringify writes as it is between quotes: no quote, backslash, control character or surrogate. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON must escape
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * A value taken as it is: a string (opened if sealed), a number, a boolean, null, or JSON (a jsonb column). Spelled
 * as JSON.stringify spells it; the common kinds without calling it (a REST detail writes ~800 of them: 4× faster).
 */
const leaf: Write = (value) => {
  switch (typeof value) {
    case "string": {
      const text = openStoredValue(value);
      return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
    }
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "null";
    default:
      return value === null ? "null" : JSON.stringify(value);
  }
};

const two = (n: number) => (n < 10 ? `0${n}` : String(n));
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));
/** Milliseconds of 9999-12-31T23:59:59.999Z + 1: the dates Date#toISOString writes with four-digit years from 1970. */
const YEAR_10000 = 253_402_300_800_000;

/**
 * Date#toISOString's text of epoch milliseconds from 1970 to 9999, by arithmetic (the civil date of a day number,
 * H. Hinnant's algorithm): 3× faster than making a Date for each of a REST detail's ~60 timestamps. Other values go
 * through Date (which throws for one outside its range, as the resolvers would).
 */
export function isoDate(ms: number): string {
  if (!(Number.isInteger(ms) && ms >= 0 && ms < YEAR_10000)) return new Date(ms).toISOString();
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const era = Math.floor((days + 719_468) / 146_097);
  const dayOfEra = days + 719_468 - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153); // months from March
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${year}-${two(month)}-${two(day)}T${two(hours)}:${two(minutes)}:${two(seconds)}.${three(rest - seconds * 1000)}Z`;
}

const date: Write = (value) => (value === null || value === undefined ? "null" : `"${isoDate(value as number)}"`);

function compile(shape: Shape): Write {
  if (shape === null) return leaf;
  if (shape === "date") return date;
  if ("compute" in shape) {
    const { fields, value: formula } = shape.compute;
    return (value) => {
      const values = value as unknown[];
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) row[fields[i]] = values[i];
      return leaf(formula(row));
    };
  }
  if ("list" in shape) {
    const element = writer(shape.list);
    return (value) => {
      if (value === null || value === undefined) return "null";
      const items = value as unknown[];
      let text = "[";
      for (let i = 0; i < items.length; i++) text += (i ? "," : "") + element(items[i]);
      return `${text}]`;
    };
  }
  // Keys are written once per shape; `__proto__` is a key like any other in text.
  const keys = shape.keys.map((key, i) => `${i ? "," : ""}${JSON.stringify(key)}:`);
  const members = shape.values.map(writer);
  return (value) => {
    if (value === null || value === undefined) return "null";
    const values = value as unknown[];
    let text = "{";
    for (let i = 0; i < keys.length; i++) text += keys[i] + members[i](values[i]);
    return `${text}}`;
  };
}

const compiled = new WeakMap<object, Write>();

/** The writer of a shape (made once per shape: shapes live as long as their statements). */
export function writer(shape: Shape): Write {
  if (shape === null || shape === "date") return compile(shape);
  let write = compiled.get(shape);
  if (!write) compiled.set(shape, (write = compile(shape)));
  return write;
}
