// The query limits (src/schema/limits.ts; docs/api.md "GraphQL limits") checked on every client document, a Yoga
// plugin: the text's size before it is parsed, a bounded parse, the alias rule, and the estimate before it runs.
import type { Plugin } from "graphql-yoga";
import { aliasLimitRule, checkText, operationToRun, parseBounded, refuseOverLimits } from "../schema/limits";

/** Yoga/envelop plugin checking every client document against the limits before it runs. */
export function useQueryLimits(): Plugin {
  return {
    // Yoga's hook with the request's parameters, before the document is parsed: GET and POST alike.
    onParams({ params }) {
      checkText(params.query, params.variables);
    },
    onParse({ context, setParseFn }) {
      setParseFn(parseBounded);
      // Checked on the parsed (possibly cached) document, per request: the operation name is the request's.
      return ({ result }) => {
        if (result && !(result instanceof Error)) operationToRun(result, (context as { params?: { operationName?: string } }).params?.operationName);
      };
    },
    onValidate({ addValidationRule }) {
      addValidationRule(aliasLimitRule());
    },
    // The estimate depends on the variables (a list's limit may be one), so it runs per request, before execution —
    // not as a validation rule, whose result Yoga caches per document. It estimates the operation that will run.
    onExecute: ({ args, setResultAndStopExecution }) => refuseOverLimits(args, setResultAndStopExecution),
    // A subscription is checked the same way, before its stream opens (docs/api.md "Live updates").
    onSubscribe: ({ args, setResultAndStopExecution }) => refuseOverLimits(args, setResultAndStopExecution),
  };
}
