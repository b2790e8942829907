// Values of fuzzed requests and their JSON text. A generated value may hold placeholders that are only known when the
// request is sent (ids of rows that exist at that moment), raw JSON number literals (1e400 parses as Infinity), and
// objects with repeated or prototype-polluting keys (`__proto__` must be an own key of the JSON text, which a plain
// JavaScript object literal cannot express).
import fc from "fast-check";

/** A JSON literal sent exactly as written, e.g. `1e400` or `-0.0`. */
export class Raw {
  constructor(readonly text: string) {}
  toJSON() {
    return `Raw(${this.text})`;
  }
  [fc.toStringMethod]() {
    return `Raw(${this.text})`;
  }
}

/** Which row a placeholder picks: one of the fuzz team's, one of the other team's, an unknown uuid, or a unique key. */
export type RefKind = "own" | "other" | "unknown" | "key";

/** A row id chosen when the request is sent: `hint` names the table (reportId, report_id, showing…). */
export class Ref {
  constructor(
    readonly hint: string,
    readonly kind: RefKind,
    readonly pick: number,
  ) {}
  toJSON() {
    return `Ref(${this.kind} ${this.hint} #${this.pick})`;
  }
  [fc.toStringMethod]() {
    return this.toJSON();
  }
}

/** An object as an ordered list of entries: keys may repeat and may be `__proto__`. */
export class Obj {
  constructor(readonly entries: Array<[string, Val]>) {}
  toJSON() {
    return Object.fromEntries(this.entries.map(([k, v]) => [k === "__proto__" ? "[__proto__]" : k, v]));
  }
  [fc.toStringMethod]() {
    return `Obj${fc.stringify(this.entries)}`;
  }
}

export type Val = null | boolean | number | string | Val[] | Obj | Raw | Ref;

/** Resolves placeholders to strings; `used` collects what each placeholder became. */
export type Resolver = (ref: Ref) => string;

/** The JSON text of a value (placeholders resolved). */
export function toJsonText(value: Val, resolve: Resolver): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Ref) return JSON.stringify(resolve(value));
  if (value instanceof Obj) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v, resolve)}`).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v, resolve)).join(",")}]`;
  if (typeof value === "number" && !Number.isFinite(value)) return "null";
  return JSON.stringify(value);
}

export const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A lone UTF-16 surrogate anywhere in the string. */
export const hasLoneSurrogate = (s: string): boolean => /(?:[\uD800-\uDBFF](?![\uDC00-\uDFFF]))|(?:(?<![\uD800-\uDBFF])[\uDC00-\uDFFF])/.test(s);

/** Shortens a value for a failure message. */
export function preview(text: string | undefined, max = 600): string {
  if (text === undefined) return "(none)";
  const shown = text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
  // Make invisible hostile characters visible.
  // eslint-disable-next-line no-control-regex -- control characters are what it escapes
  return shown.replace(/[\u0000-\u001f\ud800-\udfff\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
