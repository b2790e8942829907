// A span around each GraphQL execution (traces on: src/observability/tracing.ts), an envelop plugin: the engine is
// graphql-jit, which GraphQL instrumentations do not see.
import type { Plugin } from "@envelop/core";
import { SpanStatusCode } from "@opentelemetry/api";
import { getOperationAST } from "graphql";
import { failed, tracer } from "../observability/spans";

/** Envelop plugin: a span around each execution, named and marked by its operation type and name. */
export const useExecutionSpans = (): Plugin => ({
  onExecute({ args, executeFn, setExecuteFn }) {
    const operation = getOperationAST(args.document, args.operationName);
    const type = operation?.operation ?? "unknown";
    const name = operation?.name?.value;
    const attributes = { "graphql.operation.type": type, ...(name ? { "graphql.operation.name": name } : {}) };
    setExecuteFn((execArgs) =>
      tracer.startActiveSpan(name ? `${type} ${name}` : type, { attributes }, async (span) => {
        try {
          const result = await executeFn(execArgs);
          const errors = (result as { errors?: readonly unknown[] }).errors;
          if (errors?.length) span.setStatus({ code: SpanStatusCode.ERROR, message: `${errors.length} GraphQL error(s)` });
          return result;
        } catch (err) {
          return failed(span, err);
        } finally {
          span.end();
        }
      }),
    );
  },
});
