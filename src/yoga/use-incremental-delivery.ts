// Incremental delivery (docs/api.md "Incremental delivery"): `@defer` on fragments and `@stream` on lists, answered
// as `multipart/mixed` parts (graphql-yoga's defer-stream plugin: the directives' validation rules; the directives
// are declared where the schema is built, ./index.ts, so the plugin never replaces it). A @defer document the
// one-statement read path can answer runs as two statements (./deferred.ts); any other document using either runs on
// graphql-tools' executor (graphql-js with incremental delivery) over the same resolvers: the first part is the
// non-deferred selection, each deferred fragment or streamed item follows as the resolvers finish it. The limits are
// those of any document: the estimate counts deferred fragments and streamed lists in full (./limits.ts), the read's
// price is that estimate's (./read-cost.ts), and the resolvers count every list item and text they build against
// the request's bounds, deferred parts included.
import type { Plugin } from "graphql-yoga";
import { normalizedExecutor } from "@graphql-tools/executor";
import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import { BREAK, GraphQLError, visit, type DocumentNode } from "graphql";
import { answerDeferred, deferredSplit } from "../schema/deferred";
import { execute, oneStatementAnswers } from "../schema/engine";
import { countAnswer } from "../schema/limits";

const notAcceptable = () =>
  new GraphQLError("@defer and @stream answer in parts: send Accept: multipart/mixed (or text/event-stream)", {
    extensions: { code: "NOT_ACCEPTABLE", status: 406, http: { status: 406 } },
  });

const incremental = new WeakMap<DocumentNode, boolean>();

/** Whether a document uses @defer or @stream anywhere (the answer is kept per parsed document). */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = incremental.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (node.name.value === "defer" || node.name.value === "stream") {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    incremental.set(document, found);
  }
  return found;
}

/** A negative `initialCount` of @stream (graphql-tools throws on it, which would answer a 500): the 400 naming it. */
function negativeInitialCount(document: DocumentNode, variables: Record<string, unknown> | undefined): GraphQLError | null {
  let found: GraphQLError | null = null;
  visit(document, {
    Directive(node) {
      if (node.name.value !== "stream") return;
      const arg = node.arguments?.find((a) => a.name.value === "initialCount");
      const value = !arg ? 0 : arg.value.kind === "IntValue" ? Number(arg.value.value) : arg.value.kind === "Variable" ? Number(variables?.[arg.value.name.value] ?? 0) : 0;
      if (value < 0) {
        found = new GraphQLError(`@stream's initialCount must be 0 or more; got ${value}`, { nodes: [node], extensions: { code: "BAD_USER_INPUT", http: { status: 400 } } });
        return BREAK;
      }
    },
  });
  return found;
}

/** Yoga plugins, after the engine's: the directives' rules, and documents using them executed incrementally. */
export function useIncrementalDelivery(): Plugin[] {
  return [
    useDeferStream(),
    {
      onExecute({ args, setExecuteFn, setResultAndStopExecution }) {
        if (!usesIncrementalDelivery(args.document)) return;
        // A client that cannot read parts gets a JSON error saying how to ask for them (Yoga: an empty 406).
        const accept = (args.contextValue as { request?: Request } | undefined)?.request?.headers.get("accept") ?? "*/*";
        if (!/multipart\/mixed|text\/event-stream|\*\/\*|multipart\/\*|text\/\*/i.test(accept)) {
          return setResultAndStopExecution({ errors: [notAcceptable()] });
        }
        const refused = negativeInitialCount(args.document, args.variableValues as Record<string, unknown> | undefined);
        if (refused) return setResultAndStopExecution({ errors: [refused] });
        setExecuteFn((executionArgs) => {
          // @defer that the one-statement path can answer: two statements of its own (./deferred.ts).
          const found = deferredSplit(executionArgs.document, executionArgs.operationName);
          if (found && oneStatementAnswers(found.full, executionArgs.operationName)) return answerDeferred(executionArgs, found, execute) as never;
          // The text the resolvers return is counted against MAX_RESPONSE_BYTES, every part's (./limits.ts).
          countAnswer(executionArgs.contextValue);
          return normalizedExecutor(executionArgs as Parameters<typeof normalizedExecutor>[0]) as never;
        });
      },
    },
  ];
}
