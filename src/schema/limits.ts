// GraphQL limits (DECISIONS "GraphQL limits"): a request is refused before execution, with extensions.code
// QUERY_TOO_COMPLEX and a message saying which limit and by how much, when its depth exceeds 12, it has more than 30
// aliases (GraphQL Armor's rule), or its estimated result exceeds 50,000 objects (@pothos/plugin-complexity's
// estimate: every object counts 1 and a list multiplies what is below it by its limit; see builder.ts).
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import type { Plugin } from "@envelop/core";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import { GraphQLError, type ValidationContext } from "graphql";

export const LIMITS = { depth: 12, aliases: 30, objects: 50_000 } as const;

export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

// Answered like a validation error: its HTTP status is what the GraphQL-over-HTTP spec gives for one (400 with
// Accept: application/graphql-response+json; 200 with the legacy application/json). Yoga chooses it for the alias
// rule (a validation rule); the estimate, which runs at execution, sets it the same way.
const tooComplex = (message: string, httpStatus?: number) =>
  new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, ...(httpStatus ? { http: { status: httpStatus } } : {}) } });

/** Yoga/envelop plugin checking every client document against the three limits before it runs. */
export function useQueryLimits(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(
        maxAliasesRule({
          n: LIMITS.aliases,
          propagateOnRejection: false,
          onReject: [
            (ctx: ValidationContext | null, error: GraphQLError) => {
              const found = /found (\d+)/.exec(error.message)?.[1] ?? "more";
              ctx?.reportError(tooComplex(`Query too complex: ${found} aliases, the limit is ${LIMITS.aliases}`));
            },
          ],
        }),
      );
    },
    // The estimate depends on the variables (a list's limit may be one), so it runs per request, before execution —
    // not as a validation rule, whose result Yoga caches per document.
    onExecute({ args, setResultAndStopExecution }) {
      let estimate: { depth: number; complexity: number };
      try {
        estimate = complexityFromQuery(args.document, { schema: args.schema, ctx: args.contextValue, variables: args.variableValues ?? {} });
      } catch {
        return; // variables that do not coerce: execution reports them
      }
      const error =
        estimate.depth > LIMITS.depth
          ? `Query too complex: depth ${estimate.depth}, the limit is ${LIMITS.depth}`
          : estimate.complexity > LIMITS.objects
            ? `Query too complex: it can return ${estimate.complexity} objects, the limit is ${LIMITS.objects}`
            : undefined;
      // The status Yoga gives validation errors: 400 under the GraphQL-over-HTTP media type, 200 under legacy JSON.
      const accept = (args.contextValue as { request?: Request }).request?.headers.get("accept") ?? "";
      if (error) setResultAndStopExecution({ errors: [tooComplex(error, accept.includes("application/graphql-response+json") ? 400 : undefined)] });
    },
  };
}
