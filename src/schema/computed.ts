// Computed fields, each declared once: a form below gives the field's value from a row (webhook payloads, and the
// resolver), its GraphQL field (`build`) and how the one-statement read path answers it — as SQL (`sql`), or, for a
// formula, by the same JavaScript after the statement from the columns it `reads` — all from the same declaration,
// so the two read engines cannot disagree (ARCHITECTURE.md "The two read engines"). A field table entry spreads one
// form (`...equals("status", "draft")`); an entry with a `build` but neither `sql` nor `reads` is answered by the
// resolvers whenever a query selects it.
/* eslint-disable @typescript-eslint/no-explicit-any -- rows and Pothos' field builder are untyped here */

/** SQL over one row of the model under its alias, with names from the data model (sql-json/columns.ts). */
export interface RowSql {
  /** The row's column of a field. */
  column(field: string): string;
  /** The number of the row's related rows of a list relation, joined as Prisma joins it. */
  count(relation: string): string;
}

export type Computed = {
  value: (row: any) => unknown;
  build: (t: any, description: string) => unknown;
} & ({ sql: (row: RowSql) => string } | { reads: readonly string[] });

/** A SQL string literal. */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** true when the row's `field` holds `value` (e.g. isDraft: status is draft). */
export function equals(field: string, value: string): Computed {
  const valueOf = (row: any) => row[field] === value;
  return {
    value: valueOf,
    build: (t, description) => t.boolean({ description, select: { [field]: true }, resolve: valueOf }),
    sql: (row) => `(${row.column(field)} = ${literal(value)})`,
  };
}

/** The number of the row's related rows (Prisma's relation count). */
export function relationCount(relation: string): Computed {
  return {
    value: (row: any) => row._count[relation], // the row as Prisma gives it with `_count: { [relation]: true }`
    build: (t, description) => t.relationCount(relation, { description }),
    sql: (row) => row.count(relation),
  };
}

/** A BigInt column whose values stay within 2^53 - 1, as a JSON number (PostgreSQL's json writes a bigint so too). */
export function bigintNumber(field: string, nullable: boolean): Computed {
  const valueOf = (row: any) => (row[field] === null ? null : Number(row[field]));
  return {
    value: valueOf,
    build: (t, description) => t.field({ type: "SafeInt", nullable, description, resolve: valueOf }),
    sql: (row) => row.column(field),
  };
}

// ---- formulas: arithmetic over a row, computed by the service in both engines ----
// The one-statement path reads the columns a formula `reads` and the service applies the same `js` after the
// statement (sql-json/write.ts): arithmetic over a JSON column cost the REST detail's statement an eighth of its
// database CPU in SQL (two jsonb_each sub-plans per comparable; BENCHMARKS.md "Database CPU per request"), and the
// service is the part that scales out. Formulas read numeric and JSON columns only: those come out of the
// statement's JSON as the resolvers' rows hold them (a date would come as text).

/** An expression over a row: its value (null in, null out, as in SQL) and the fields it reads. */
export interface Expr {
  js: (row: any) => number | null;
  reads: readonly string[];
}

const union = (a: Expr, b: Expr) => [...new Set([...a.reads, ...b.reads])];

const binary = (a: Expr, b: Expr, apply: (x: number, y: number) => number): Expr => ({
  js: (row) => {
    const x = a.js(row);
    const y = b.js(row);
    return x === null || y === null ? null : apply(x, y);
  },
  reads: union(a, b),
});

/** A numeric column (null stays null). */
export const column = (field: string): Expr => ({ js: (row) => (row[field] as number | null) ?? null, reads: [field] });
/** A constant. */
export const constant = (value: number): Expr => ({ js: () => value, reads: [] });
export const plus = (a: Expr, b: Expr) => binary(a, b, (x, y) => x + y);
export const times = (a: Expr, b: Expr) => binary(a, b, (x, y) => x * y);
/** a / b; null when b is 0 (or null). */
export const over = (a: Expr, b: Expr): Expr => ({
  js: (row) => {
    const x = a.js(row);
    const y = b.js(row);
    return x === null || !y ? null : x / y;
  },
  reads: union(a, b),
});
/** The largest integer not above a. */
export const floor = (a: Expr): Expr => ({
  js: (row) => {
    const x = a.js(row);
    return x === null ? null : Math.floor(x);
  },
  reads: a.reads,
});
/** The sum of the numbers among the values of a JSON object column (anything but an object sums to 0). */
export const sumOfNumbers = (field: string): Expr => ({
  js: (row) => {
    const value = row[field];
    if (typeof value !== "object" || value === null || Array.isArray(value)) return 0;
    let total = 0;
    for (const item of Object.values(value)) if (typeof item === "number") total += item;
    return total;
  },
  reads: [field],
});

/** A Float field computed by a formula. */
export function formula(expr: Expr): Computed {
  return {
    value: expr.js,
    build: (t, description) => t.float({ nullable: true, description, resolve: expr.js }),
    reads: expr.reads,
  };
}
