// Which GraphQL reads may be answered from a validator, a cached answer or a read replica: a query whose root fields
// all read only rows the team-version triggers watch. Stated once here, below both users: the HTTP cache
// (../yoga/use-http-cache.ts, ../rest/http-cache.ts) and the engine's replica routing (./engine.ts, ../db/replicas.ts).
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from "graphql";

/**
 * Query root fields whose answers are built only from rows the team-version triggers watch (also what a read replica
 * may answer: src/db/replicas.ts).
 */
export const CACHEABLE_ROOTS = new Set([
  "__typename",
  "report",
  "reports",
  "reportByAddress",
  "showing",
  "showings",
  "comparable",
  "comparables",
  "valuation",
  "agentInsight",
  "agentInsights",
  "socialMediaPost",
  "socialMediaPosts",
  "socialEngagement",
  "webhookEndpoint",
  "webhookEndpoints",
  "webhookEvent",
  "webhookEvents",
  "webhookEventTypes",
  "webhookDeliveries",
  "reportsConnection",
  "showingsConnection",
  "eventsConnection",
  "webhookDeliveriesConnection",
]);

/** The root fields an operation's selection names, through its fragments ("(unknown fragment)" for a missing one). */
export function rootFields(document: DocumentNode, selectionSet: SelectionSetNode, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(document, selection.selectionSet, seen);
    if (seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION ? rootFields(document, fragment.selectionSet, seen) : ["(unknown fragment)"];
  });
}

/** A query (not a mutation or subscription) whose every root field is cacheable. */
export const cacheableOperation = (document: DocumentNode, operation: OperationDefinitionNode | null | undefined): boolean =>
  operation?.operation === "query" && rootFields(document, operation.selectionSet).every((name) => CACHEABLE_ROOTS.has(name));
