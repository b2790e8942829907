// Runs a GraphQL operation in-process for a REST route: each document is parsed, validated and compiled once, at
// start-up (graphql-jit), and executed directly with the request's context (no HTTP hop, no per-request parsing).
// Compiled execution of a REST document costs about half of graphql-js's per-request CPU, and its database queries are
// planned once (../schema/plan-cache.ts), not on every request (BENCHMARKS.md).
import { GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import type { Context } from "../context";
import { isDatabaseUnavailable, isStatementTimeout } from "../db/errors";
import { logger } from "../logger";
import { schema } from "../schema";
import { cachePlansOf } from "../schema/plan-cache";
import { toRestMessage } from "./names";

export interface Operation {
  name: string;
  document: DocumentNode;
  execute(context: Context, variables: Record<string, unknown>): Promise<ExecutionResult>;
}

export function operation(source: string): Operation {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`Invalid REST operation: ${errors.map((e) => e.message).join("; ")}`);
  const def = document.definitions[0];
  cachePlansOf(document);
  const compiled = compileQuery(schema, document);
  if (!isCompiledQuery(compiled)) throw new Error(`Cannot compile REST operation: ${compiled.errors?.map((e) => e.message).join("; ")}`);
  return {
    name: def.kind === "OperationDefinition" ? (def.name?.value ?? "anonymous") : "anonymous",
    document,
    execute: async (context, variables) => compiled.query(undefined, context, variables),
  };
}

/** A GraphQL error carried to the REST layer with the HTTP status it maps to. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface RunOptions {
  /** Nested fields the key may not read come back null instead of failing the request (e.g. a report's showings). */
  allowForbiddenNested?: boolean;
}

const isForbiddenNested = (error: GraphQLError) => error.extensions?.status === 403 && (error.path?.length ?? 0) > 1;

/** Runs the operation and returns its data, or throws the first error as a RestError. */
export async function run<Data = Record<string, unknown>>(
  op: Operation,
  variables: Record<string, unknown>,
  context: Context,
  options: RunOptions = {},
): Promise<Data> {
  const result = await op.execute(context, variables);
  const error = result.errors?.find((e) => !(options.allowForbiddenNested && isForbiddenNested(e)));
  if (error) throw toRestError(error, op);
  return result.data as Data;
}

function toRestError(error: GraphQLError, op: Operation): RestError | Error {
  // Database unreachable (503 + Retry-After) or past its time budget (504): the error handler answers those.
  if (isDatabaseUnavailable(error.originalError) || isStatementTimeout(error.originalError)) return error.originalError!;
  const status = error.extensions?.status;
  if (typeof status === "number") return new RestError(status, toRestMessage(error.message));
  // Variable coercion errors (a wrong type that slipped past the route's shape check) are the client's.
  if (!error.originalError && !error.path) return new RestError(400, toRestMessage(error.message));
  logger.error({ err: error.originalError ?? error, operation: op.name }, "operation failed");
  return new RestError(500, "Internal server error");
}
