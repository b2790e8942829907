// Prisma's relation joins (the `relationJoins` preview feature) build the JSON of every child row, with all of its
// own nested joins, before the LIMIT of a nested list applies: a list inside a list inside a list costs the product
// of the children's counts, not of the limits (report → showings → report → showings on a report with 130 showings
// did not finish at depth 3; issue 12). A query that nests a list below a list therefore loads its relations with
// one statement per level ("query" strategy: the children of all parents by IN, linear in the rows), whoever makes
// it — our resolvers or Pothos' fallback lookups; the common shapes (a page of reports with its collections, a
// report detail) keep their single joined statement.
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

const READS = new Set(["findFirst", "findFirstOrThrow", "findUnique", "findUniqueOrThrow", "findMany", "create", "update", "upsert"]);

/** The client, choosing the load strategy of every read by the shape of its query. */
export function withSafeRelationLoading(client: PrismaClient): PrismaClient {
  return client.$extends({
    query: {
      $allModels: {
        $allOperations({ operation, args, query }) {
          if (READS.has(operation) && isArgs(args) && listDepth(args) > 1) return query({ ...args, relationLoadStrategy: "query" } as typeof args);
          return query(args);
        },
      },
    },
  }) as unknown as PrismaClient;
}
