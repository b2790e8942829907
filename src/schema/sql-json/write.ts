// The one-statement read path, part 5: a root's arrays (./sql.ts) written as the answer's JSON text, keys put back
// from the shape. The text is written directly, not built as objects and then stringified: for a REST detail that
// halves the service's CPU of this step (BENCHMARKS "Database CPU per request"). Values are spelled as
// JSON.stringify spells them (the resolvers' answers are written by it), attendee fields are opened
// (../sealed.ts), dates written in ISO 8601 as Date#toISOString writes them (a date outside its range throws, and
// the resolvers answer).
import { openStoredValue } from "../sealed";
import type { Shape } from "./sql";

type Write = (value: unknown) => string;

/** A value taken as it is: a string (opened if sealed), a number, a boolean, null, or JSON (a jsonb column). */
const leaf: Write = (value) => (value === undefined ? "null" : JSON.stringify(typeof value === "string" ? openStoredValue(value) : value));

const date: Write = (value) => (value === null || value === undefined ? "null" : `"${new Date(value as number).toISOString()}"`);

function compile(shape: Shape): Write {
  if (shape === null) return leaf;
  if (shape === "date") return date;
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
