// The read cost (src/schema/read-cost.ts; docs/api.md "Read cost") of every GraphQL query and mutation, a Yoga
// plugin: charged before it runs, written into its answer's extensions.cost.
import type { ExecutionResult } from "graphql";
import { getOperationAST } from "graphql";
import { isAsyncIterable, type Plugin } from "@envelop/core";
import type { Context } from "../context";
import { requestCost } from "../auth/request-cost";
import { acceptedEstimate } from "../schema/limits";
import { charge, extensionOf, readPrice, type CostExtension } from "../schema/read-cost";

const withCost = (result: ExecutionResult, cost: CostExtension): ExecutionResult => ({ ...result, extensions: { ...result.extensions, cost } });

/**
 * Yoga/envelop plugin, after the limits (whose accepted estimate prices a query): charges each query and mutation
 * before it runs and writes extensions.cost into its answer (the first part of an incremental one). Subscriptions
 * are not priced.
 */
export function useReadCost(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Context | undefined;
      if (!context?.viewer) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation || operation.operation === "subscription") return;
      const price =
        operation.operation === "mutation"
          ? requestCost(args.schema, args.document, args.operationName, args.variableValues)
          : readPrice(acceptedEstimate(context));
      return charge(context, price).then((charged) => {
        if (!charged) return;
        if (charged.refused) return void setResultAndStopExecution({ errors: [charged.refused] });
        const cost = extensionOf(charged.state);
        return {
          onExecuteDone({ result, setResult }) {
            if (!isAsyncIterable(result)) return void setResult(withCost(result, cost));
            let first = true;
            return {
              onNext({ result: part, setResult: setPart }) {
                if (!first) return;
                first = false;
                setPart(withCost(part as ExecutionResult, cost) as typeof part);
              },
            };
          },
        };
      });
    },
  };
}
