// Runs a GraphQL operation in-process for a REST route: each document is parsed and validated once, at
// start-up, and executed directly with the request's context (no HTTP hop, no per-request parsing).
import { execute, GraphQLError, parse, validate, type DocumentNode } from "graphql";
import type { Context } from "../context";
import { logger } from "../logger";
import { schema } from "../schema";
import { toRestMessage } from "./names";

export interface Operation {
  name: string;
  document: DocumentNode;
}

export function operation(source: string): Operation {
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`Invalid REST operation: ${errors.map((e) => e.message).join("; ")}`);
  const def = document.definitions[0];
  return { name: def.kind === "OperationDefinition" ? (def.name?.value ?? "anonymous") : "anonymous", document };
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
  const result = await execute({ schema, document: op.document, variableValues: variables, contextValue: context });
  const error = result.errors?.find((e) => !(options.allowForbiddenNested && isForbiddenNested(e)));
  if (error) throw toRestError(error, op);
  return result.data as Data;
}

function toRestError(error: GraphQLError, op: Operation): RestError {
  const status = error.extensions?.status;
  if (typeof status === "number") return new RestError(status, toRestMessage(error.message));
  // Variable coercion errors (a wrong type that slipped past the route's shape check) are the client's.
  if (!error.originalError && !error.path) return new RestError(400, toRestMessage(error.message));
  logger.error({ err: error.originalError ?? error, operation: op.name }, "operation failed");
  return new RestError(500, "Internal server error");
}
