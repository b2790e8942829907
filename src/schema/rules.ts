// The input rules of the schema: zod checks on the values GraphQL has already typed, and their wording. Every
// message is a reason without the field name ("must be at least 0"); errors.ts puts the field's name in front,
// in the naming of the interface that asked (GraphQL or REST). No global zod configuration: the wording is passed
// to each parse (see `checked`).
import { z } from "zod";

/** The words for one zod issue, without the field name. */
export function reasonOf(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.input === null) return "must not be null";
      return `must be ${issue.expected === "int" ? "an integer" : issue.expected === "object" || issue.expected === "record" ? "an object" : `a ${issue.expected}`}`;
    case "too_big":
      if (issue.origin === "string") return `must be at most ${issue.maximum} characters`;
      if (issue.origin === "array") return `must have at most ${issue.maximum} items`;
      return `must be at most ${issue.maximum}`;
    case "too_small":
      if (issue.origin === "string") return issue.minimum === 1 ? "must not be empty" : `must be at least ${issue.minimum} characters`;
      if (issue.origin === "array") return `must have at least ${issue.minimum} items`;
      return `must be at least ${issue.minimum}`;
    case "invalid_format":
      if (issue.format === "email") return "must be a valid e-mail address";
      if (issue.format === "uuid") return "must be a UUID";
      return undefined;
    case "invalid_value":
      if (issue.input === null) return "must not be null";
      return `must be one of: ${issue.values.map(String).join(", ")}`;
    case "not_multiple_of":
      return "must be an integer";
    default:
      return undefined;
  }
}

export interface Issue {
  message: string;
  path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>;
}

/**
 * A zod schema as a Standard Schema (what @pothos/plugin-validation runs) whose issue messages are our reasons.
 * Any zod schema works; this only chooses the wording.
 */
export function checked<S extends z.ZodType>(schema: S) {
  return {
    "~standard": {
      version: 1 as const,
      vendor: "prs",
      validate(value: unknown): { value: z.output<S> } | { issues: Issue[] } {
        const result = schema.safeParse(value, { error: reasonOf });
        return result.success ? { value: result.data } : { issues: result.error.issues.map(({ message, path }) => ({ message, path })) };
      },
    },
  };
}

/** A string holding NUL (PostgreSQL cannot store it) or half of a UTF-16 surrogate pair (not text). */
// eslint-disable-next-line no-control-regex -- NUL is the character this pattern exists to find
const INVALID_CHARACTERS = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const hasInvalidCharacters = (value: string): boolean => INVALID_CHARACTERS.test(value);

/** Every string input goes through this: NUL and lone surrogates are refused (docs/api.md "Robustness"). */
export const string = () => z.string().refine((s) => !hasInvalidCharacters(s), { error: "contains invalid characters" });

/** Largest magnitude accepted for numbers in bodies (docs/api.md "Robustness"). */
export const MAX_NUMBER = 1e12;

export const text = (max = 1000) => string().max(max);
/** Text that must say something: not empty or only spaces (kept as written). */
export const nonBlank = (max = 1000) => text(max).refine((s) => s.trim() !== "", { error: "must not be empty" });
/** A required name-like string: trimmed, not empty. */
export const label = (max = 1000) => string().trim().min(1).max(max);
export const amount = () => z.number().finite().min(0).max(MAX_NUMBER);
export const count = () => z.int().min(0).max(2_147_483_647);
export const hexColor = () => string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: "must be a hex colour like #1A2B3C" });
export const email = () => string().pipe(z.email().max(320));
export const uuid = () => z.uuid();
/** A number between min and max (both included). */
export const between = (min: number, max: number) => z.number().finite().min(min).max(max);
export const rating = () => z.int().min(1).max(5);
export const yearBuilt = () =>
  z.int().superRefine((year, ctx) => {
    const max = new Date().getUTCFullYear() + 5;
    if (year < 1600 || year > max) ctx.addIssue({ code: "custom", message: `must be between 1600 and ${max}`, input: year });
  });

/** limit (1..100) and offset (≥ 0) of every list (docs/api.md "Validation (400 unless stated)": no silent clamping); zod, for the OpenAPI document. */
export const pageRules = { limit: z.int().min(1).max(100), offset: z.int().min(0) };

/**
 * The same bounds as a Standard Schema without zod: list arguments are checked on every list of every request
 * (four per report detail), and this is their hot path.
 */
export function intBetween(min: number, max = Number.MAX_SAFE_INTEGER) {
  const fail = (message: string) => ({ issues: [{ message }] });
  return {
    "~standard": {
      version: 1 as const,
      vendor: "prs",
      validate(value: unknown): { value: number } | { issues: Issue[] } {
        if (typeof value !== "number" || !Number.isInteger(value)) return fail("must be an integer");
        if (value < min) return fail(`must be at least ${min}`);
        if (value > max) return fail(`must be at most ${max}`);
        return { value };
      },
    },
  };
}
export const pageArgRules = { limit: intBetween(1, 100), offset: intBetween(0) };
