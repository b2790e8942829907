// A GraphQL mutation request pays one rate-limit point per root field it runs (src/auth/request-cost.ts), a Yoga
// plugin: charged just before it executes, all of it or none.
import type { Plugin } from "@envelop/core";
import { chargeRest, requestCost, type RequestContext } from "../auth/request-cost";

/** Yoga/envelop plugin: a mutation request pays for each root field it runs before it runs. */
export function useRequestCost(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = requestCost(args.schema, args.document, args.operationName, args.variableValues);
      if (cost <= 1) return; // no promise for a query
      return chargeRest(args.contextValue as RequestContext, cost).then((refused) => {
        if (refused) setResultAndStopExecution({ errors: [refused] });
      });
    },
  };
}
