// GraphQL limits (DECISIONS "GraphQL limits"): a request is refused before execution, with extensions.code
// QUERY_TOO_COMPLEX and a message saying which limit and by how much, when its depth exceeds 12, it has more than 30
// aliases (GraphQL Armor's rule), or its estimated result exceeds 50,000 objects (@pothos/plugin-complexity's
// estimate: every object counts 1 and a list multiplies what is below it by its limit; see builder.ts).
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import type { Plugin } from "@envelop/core";
import { PothosValidationError } from "@pothos/core";
import { createComplexityRule } from "@pothos/plugin-complexity";
import { GraphQLError, type ValidationContext, type ValidationRule } from "graphql";

export const LIMITS = { depth: 12, aliases: 30, objects: 50_000 } as const;

export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

// A validation error like any other: its HTTP status is what the GraphQL-over-HTTP spec gives for one (400 with
// Accept: application/graphql-response+json; 200 with the legacy application/json), chosen by Yoga.
const tooComplex = (message: string) => new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX } });

interface YogaParams {
  params?: { variables?: Record<string, unknown> | null; operationName?: string | null };
}

/**
 * The complexity rule walks the schema's fields, so on a document that names an unknown field it reports its own
 * "Unknown field selected" beside graphql-js's "Cannot query field …": leave that to graphql-js.
 */
const quietly =
  (rule: ValidationRule): ValidationRule =>
  (ctx) =>
    rule(
      new Proxy(ctx, {
        get(target, prop) {
          if (prop === "reportError") return (error: GraphQLError) => void (error instanceof PothosValidationError || target.reportError(error));
          const value: unknown = Reflect.get(target, prop);
          return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      }),
    );

/** Yoga/envelop plugin adding the three limits to the validation of every client document. */
export function useQueryLimits(): Plugin<YogaParams> {
  return {
    onValidate({ addValidationRule, context }) {
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
      addValidationRule(
        quietly(
          createComplexityRule({
            context,
            variableValues: context.params?.variables ?? {},
            operationName: context.params?.operationName,
            validate: ({ depth, complexity }, report) => {
              if (depth > LIMITS.depth) report(tooComplex(`Query too complex: depth ${depth}, the limit is ${LIMITS.depth}`));
              else if (complexity > LIMITS.objects) {
                report(tooComplex(`Query too complex: it can return ${complexity} objects, the limit is ${LIMITS.objects}`));
              }
            },
          }),
        ),
      );
    },
  };
}
