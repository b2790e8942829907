// The cost of a request in rate-limit points: one, except a GraphQL mutation request, which costs one point per root
// mutation field it runs (aliases count, and so do the fields its fragments put at the root). The auth middleware
// has counted the request's first point before the document is read; the rest is taken here, from the document Yoga
// has parsed (and cached) and validated, just before it executes: all of it or none. A request the rest of the
// hour cannot pay for is refused whole — 429 RATE_LIMITED, nothing runs — and keeps only its first point spent, as
// any refused request does (and, like one, is no call in the usage counts). REST routes run one root field each: one point, counted by the middleware alone.
import type { Response } from "express";
import { GraphQLError, getOperationAST, Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema } from "graphql";
import { collectFields } from "graphql/execution/collectFields";
import { getVariableValues } from "graphql/execution/values";
import type { Context } from "../context";
import { setRateLimitHeaders } from "./middleware";
import { applyLimit } from "./rate-limit";
import { countCall } from "./usage";

/**
 * The points the operation `operationName` of `document` costs: the root mutation fields it will run (fields of one
 * response name run once; @skip/@include and fragments as execution applies them; `__typename` is free), at least 1.
 * A query, or a document execution will refuse (unknown operation, variables that do not coerce), costs 1.
 */
export function requestCost(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null, variables?: Record<string, unknown> | null): number {
  const operation = getOperationAST(document, operationName);
  const mutation = schema.getMutationType();
  if (operation?.operation !== "mutation" || !mutation) return 1;
  const { coerced } = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (!coerced) return 1;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  let cost = 0;
  try {
    for (const [, nodes] of collectFields(schema, fragments, coerced, mutation, operation.selectionSet)) if (nodes[0].name.value !== "__typename") cost++;
  } catch {
    return 1; // a directive argument that does not coerce: execution refuses the document
  }
  return Math.max(1, cost);
}

export type RequestContext = Context & { res?: Response };

const rateLimited = (message: string) =>
  new GraphQLError(message, { extensions: { code: "RATE_LIMITED", status: 429, http: { status: 429 } } });

/**
 * Takes the points of a request costing `cost` beyond the one the middleware counted, and counts them as calls of the
 * key (usage counts the points of the requests that ran). Null when they were taken (or the request has no key
 * budget); the error to answer when the rest of the hour cannot pay for them (the rate-limit headers then say so,
 * Retry-After included).
 */
export async function chargeRest(context: RequestContext, cost: number): Promise<GraphQLError | null> {
  const { viewer, rateLimit, rateLimiter, rateKey, res } = context;
  if (cost <= 1 || !viewer || !rateLimit || !rateLimiter || !rateKey) return null;
  const counted = await rateLimiter.hitWithin(rateKey, cost - 1, rateLimit.limit);
  const result = applyLimit(counted, rateLimit.limit);
  if (res) setRateLimitHeaders(res, { ...result, exceeded: !counted.taken });
  if (!counted.taken) {
    // Answered 429 like a request refused by the middleware: not a call of the key (the middleware counted it).
    countCall(viewer.teamId, viewer.keyId, new Date(), -1);
    const left = result.remaining + 1; // before this request's own point
    return rateLimited(`Rate limit exceeded: this request's ${cost} mutations cost ${cost} requests and ${left} are left this hour. Please try again later.`);
  }
  rateLimit.remaining = result.remaining;
  countCall(viewer.teamId, viewer.keyId, new Date(), cost - 1);
  return null;
}
