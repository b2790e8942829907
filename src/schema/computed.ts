// Computed fields, each declared once: a form below gives the field's value from a row (webhook payloads, and the
// resolver), its GraphQL field (`build`) and its SQL for the one-statement read path (`sql`), all from the same
// declaration, so the two read engines cannot disagree (ARCHITECTURE.md "The two read engines"). A field table entry
// spreads one form (`...equals("status", "draft")`); an entry with a `build` but no `sql` is answered by the
// resolvers whenever a query selects it.
/* eslint-disable @typescript-eslint/no-explicit-any -- rows and Pothos' field builder are untyped here */

/** SQL over one row of the model under its alias, with names from the data model (sql-json/columns.ts). */
export interface RowSql {
  /** The row's column of a field. */
  column(field: string): string;
  /** The number of the row's related rows of a list relation, joined as Prisma joins it. */
  count(relation: string): string;
}

export interface Computed {
  value: (row: any) => unknown;
  build: (t: any, description: string) => unknown;
  sql: (row: RowSql) => string;
}

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

// ---- formulas: arithmetic over a row, one expression compiled to JavaScript and to SQL ----

/** An expression over a row: its value in JavaScript and in SQL (null in, null out, as in SQL). */
export interface Expr {
  js: (row: any) => number | null;
  sql: (row: RowSql) => string;
}

const binary = (a: Expr, b: Expr, op: "+" | "*", apply: (x: number, y: number) => number): Expr => ({
  js: (row) => {
    const x = a.js(row);
    const y = b.js(row);
    return x === null || y === null ? null : apply(x, y);
  },
  sql: (row) => `(${a.sql(row)} ${op} ${b.sql(row)})`,
});

/** A numeric column (null stays null). */
export const column = (field: string): Expr => ({ js: (row) => (row[field] as number | null) ?? null, sql: (row) => row.column(field) });
/** A constant; SQL computes it in double precision with the column it meets, as JavaScript does. */
export const constant = (value: number): Expr => ({ js: () => value, sql: () => String(value) });
export const plus = (a: Expr, b: Expr) => binary(a, b, "+", (x, y) => x + y);
export const times = (a: Expr, b: Expr) => binary(a, b, "*", (x, y) => x * y);
/** a / b; null when b is 0 (or null). */
export const over = (a: Expr, b: Expr): Expr => ({
  js: (row) => {
    const x = a.js(row);
    const y = b.js(row);
    return x === null || !y ? null : x / y;
  },
  sql: (row) => `(${a.sql(row)} / nullif(${b.sql(row)}, 0))`,
});
/** The largest integer not above a. */
export const floor = (a: Expr): Expr => ({
  js: (row) => {
    const x = a.js(row);
    return x === null ? null : Math.floor(x);
  },
  sql: (row) => `floor(${a.sql(row)})`,
});
/**
 * The sum of the numbers among the values of a JSON object column (anything but an object sums to 0). Whole numbers
 * sum exactly in any order (jsonb keeps its own key order, JavaScript the object's).
 */
export const sumOfNumbers = (field: string): Expr => ({
  js: (row) => {
    const value = row[field];
    if (typeof value !== "object" || value === null || Array.isArray(value)) return 0;
    let total = 0;
    for (const item of Object.values(value)) if (typeof item === "number") total += item;
    return total;
  },
  sql: (row) => {
    const c = row.column(field);
    return `coalesce((SELECT sum(v.value::text::float8) FROM jsonb_each(CASE WHEN jsonb_typeof(${c}) = 'object' THEN ${c} ELSE '{}'::jsonb END) v WHERE jsonb_typeof(v.value) = 'number'), 0)`;
  },
});

/** A Float field computed by a formula. */
export function formula(expr: Expr): Computed {
  return {
    value: expr.js,
    build: (t, description) => t.float({ nullable: true, description, resolve: expr.js }),
    sql: expr.sql,
  };
}
