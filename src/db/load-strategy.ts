// Prisma's relation joins (the `relationJoins` preview feature) build the JSON of every child row, with all of its
// own nested joins, before the LIMIT of a nested list applies: a list inside a list inside a list costs the product
// of the children's counts, not of the limits (report → showings → report → showings on a report with 130 showings
// did not finish at depth 3). A query that nests a list below a list therefore loads its relations with
// one statement per level ("query" strategy: the children of all parents by IN, linear in the rows), whoever makes
// it — our resolvers or Pothos' fallback lookups; the common shapes (a page of reports with its collections, a
// report detail) keep their single joined statement.
// And a read whose nesting of lists could build more than MAX_READ_ROWS rows is refused before it runs (TooManyRows):
// Prisma builds the whole nested result in memory before any resolver sees it, so this bound — not a count of what
// the resolvers return — is what keeps one read from filling the heap (measured: a million rows, 1.5 GB, from one
// query whose limits were skipped). The GraphQL limits keep every query they let through far below it.
import type { PrismaClient } from "../generated/prisma/client";

type QueryArgs = { include?: Record<string, unknown>; select?: Record<string, unknown>; take?: number };

const isArgs = (value: unknown): value is QueryArgs => typeof value === "object" && value !== null;

/** How many lists (relations with a `take`) the deepest chain of the query nests. */
export function listDepth(args: QueryArgs): number {
  let deepest = 0;
  for (const relations of [args.include, args.select]) {
    for (const value of Object.values(relations ?? {})) {
      if (isArgs(value)) deepest = Math.max(deepest, (typeof value.take === "number" ? 1 : 0) + listDepth(value));
    }
  }
  return deepest;
}

/**
 * Rows one read of the resolvers may build. Prisma turns each row into an object in the request's thread (about
 * 40–120 µs a row here, ARCHITECTURE.md "Limits"), so this also bounds how long one read holds the event loop: a
 * shape within the GraphQL estimate but built row by row (report → showings(100) → report → showings(80) → report →
 * showings(2): 32,200 rows) held it 3–7 s with 100,000 here. A page of 50 reports with four collections of 100
 * (20,050 rows) fits; the one-statement path, which serves the common pages, builds no rows in JavaScript.
 */
export const MAX_READ_ROWS = 25_000;

/** A read refused before it ran because of the rows its nesting of lists could build. */
export class TooManyRows extends Error {
  constructor(readonly rows: number) {
    super(`A read could build ${rows} rows, the limit is ${MAX_READ_ROWS}`);
  }
}

/** The most rows the relations of a query can build: each list (a relation with a `take`) multiplies what is below it. */
export function rowBound(args: QueryArgs): number {
  let rows = 1;
  for (const relations of [args.include, args.select]) {
    for (const value of Object.values(relations ?? {})) {
      if (isArgs(value)) rows += (typeof value.take === "number" ? Math.abs(value.take) : 1) * rowBound(value);
    }
  }
  return rows;
}

const READS = new Set(["findFirst", "findFirstOrThrow", "findUnique", "findUniqueOrThrow", "findMany", "create", "update", "upsert"]);

/** The client, choosing the load strategy of every read by the shape of its query, and refusing one past MAX_READ_ROWS. */
export function withSafeRelationLoading(client: PrismaClient): PrismaClient {
  return client.$extends({
    query: {
      $allModels: {
        $allOperations({ operation, args, query }) {
          if (READS.has(operation) && isArgs(args) && listDepth(args) > 1) {
            const rows = (typeof args.take === "number" ? Math.abs(args.take) : 1) * rowBound(args);
            if (rows > MAX_READ_ROWS) throw new TooManyRows(rows);
            return query({ ...args, relationLoadStrategy: "query" } as typeof args);
          }
          return query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
}
