// Runs a GraphQL operation in-process for a REST route or a public page (../share/), on the engine /graphql uses (../schema/engine.ts): each
// document is parsed once, at start-up, validated once, on its first use (a process answering a few routes does not
// validate ~80 documents as it starts; test/graphql-limits.test.ts validates every one), and executed with the
// request's context (no HTTP hop, no per-request parsing). Errors come back as RestErrors whose messages name fields
// in REST words. Below both ../rest/ (which re-exports it as ../rest/graphql.ts) and ../share/, so neither imports
// the other for it.
import { GraphQLError, parse, validate, type DocumentNode, type ExecutionResult } from "graphql";
import type { Context } from "../context";
import { isDatabaseUnavailable, isStatementTimeout } from "../db/errors";
import { logger } from "../logger";
import { schema } from "../schema";
import { execute } from "../schema/engine";
import { chargeRestDocument } from "../schema/read-cost";
import { rawDataOf, rawField } from "../schema/sql-json/raw";
import { ApiError, pathNaming, type NameOf } from "../schema/errors";
import { isResponseTooLarge } from "../schema/limits";
import { fieldTables, restNames } from "../schema/fields";
import { nonArrayForList } from "./lists";

export interface Operation {
  name: string;
  document: DocumentNode;
  kind: "query" | "mutation";
  /** Its first root field, and that field's key in the result (its alias, if any). */
  rootField: string;
  root: string;
  /** Whether it has been validated against the schema (on its first run). */
  valid?: true;
}

/** Every REST operation, registered as its module loads (tests check them against the GraphQL limits). */
export const restOperations: Operation[] = [];

export function operation(source: string): Operation {
  const document = parse(source);
  const def = document.definitions[0];
  const first = def.kind === "OperationDefinition" ? def.selectionSet.selections[0] : undefined;
  const field = first?.kind === "Field" ? first : undefined;
  const op: Operation = {
    name: def.kind === "OperationDefinition" ? (def.name?.value ?? "anonymous") : "anonymous",
    document,
    kind: def.kind === "OperationDefinition" && def.operation === "mutation" ? "mutation" : "query",
    rootField: field?.name.value ?? "",
    root: field ? (field.alias ?? field.name).value : "",
  };
  restOperations.push(op);
  return op;
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

// Every GraphQL field name of the field tables in its REST spelling.
const REST_NAMES = restNames(...fieldTables());

/**
 * REST spelling of an input path: the `input` argument is the body itself; fields get their REST names, or the
 * spelling the client used (an alias) when `spelled` knows it; list indexes are `[n]`.
 */
export function restNameOf(spelled?: ReadonlyMap<string, string>): NameOf {
  return pathNaming((field) => spelled?.get(field) ?? REST_NAMES.get(field) ?? field);
}

export interface RunOptions {
  /** Nested fields the key may not read come back null instead of failing the request (e.g. a report's showings). */
  allowForbiddenNested?: boolean;
  /** The REST spellings the client used for input fields (aliases), for messages. */
  spelled?: ReadonlyMap<string, string>;
  /** A naming of input paths of the route's own (e.g. CSV lines) instead of REST names. */
  nameOf?: NameOf;
}

const isForbiddenNested = (error: GraphQLError) => error.extensions?.status === 403 && (error.path?.length ?? 0) > 1;

/** Validates a REST operation against the schema (once): a document that is not valid is a fault of this code. */
export function validateOperation(op: Operation): void {
  if (op.valid) return;
  const errors = validate(schema, op.document);
  if (errors.length) throw new Error(`Invalid REST operation ${op.name}: ${errors.map((e) => e.message).join("; ")}`);
  op.valid = true;
}

/** Runs the operation; throws its first error as a RestError. */
async function executed(op: Operation, variables: Record<string, unknown>, context: Context, options: RunOptions): Promise<ExecutionResult> {
  validateOperation(op);
  // A single value where a list goes: GraphQL would take it as a list of one, REST does not (./lists.ts).
  const notList = nonArrayForList(schema, op.document, variables);
  if (notList) throw toRestError(notList, op, options.nameOf ?? restNameOf(options.spelled), context);
  // Its points (read cost: src/schema/read-cost.ts), charged before it runs; enforce mode refuses past the budget.
  const throttled = await chargeRestDocument(schema, op.document, op.kind, context, variables);
  if (throttled) throw new RestError(429, throttled);
  const args = { schema, document: op.document, contextValue: context, variableValues: variables };
  // The one-statement read path leaves out what the key may not read where the route allows that (its detail).
  const result = await execute(args, { omitForbidden: options.allowForbiddenNested });
  const error = result.errors?.find((e) => !(options.allowForbiddenNested && isForbiddenNested(e)));
  if (error) throw toRestError(error, op, options.nameOf ?? restNameOf(options.spelled), context);
  return result;
}

/** Runs the operation and returns its first root field's value, or throws the first error as a RestError. */
export async function runRoot<Value = unknown>(op: Operation, variables: Record<string, unknown>, context: Context, options: RunOptions = {}): Promise<Value> {
  return (await run<Record<string, Value>>(op, variables, context, options))[op.root];
}

/** Runs the operation and returns its data, or throws the first error as a RestError. */
export async function run<Data = Record<string, unknown>>(
  op: Operation,
  variables: Record<string, unknown>,
  context: Context,
  options: RunOptions = {},
): Promise<Data> {
  const result = await executed(op, variables, context, options);
  return (rawDataOf(result)?.toJSON() ?? result.data) as Data;
}

/**
 * Runs a read and returns one root field's value as JSON text: PostgreSQL's text as it is when the one-statement
 * read path answered (nothing parsed or copied), else `shape` of the resolvers' value, stringified.
 */
export async function runJson<Value>(
  op: Operation,
  key: string,
  variables: Record<string, unknown>,
  context: Context,
  options: RunOptions & { shape?: (value: Value) => unknown } = {},
): Promise<string> {
  const result = await executed(op, variables, context, options);
  const raw = rawField(result, key);
  if (raw !== undefined) return raw;
  const value = (result.data as Record<string, Value>)[key];
  return JSON.stringify(options.shape ? options.shape(value) : value);
}

function toRestError(error: GraphQLError, op: Operation, nameOf: NameOf, context: Context): RestError | Error {
  // Database unreachable (503 + Retry-After) or past its time budget (504): the error handler answers those.
  if (isDatabaseUnavailable(error.originalError) || isStatementTimeout(error.originalError)) return error.originalError!;
  // An answer larger than MAX_RESPONSE_BYTES (docs/api.md "GraphQL limits"): 413 with the limit's message.
  if (isResponseTooLarge(error)) return new RestError(413, error.message);
  // The schema's own errors, and variable values it refused (the engine names their field: input-errors.ts).
  const api = error instanceof ApiError ? error : error.originalError instanceof ApiError ? error.originalError : undefined;
  if (api) return new RestError(api.status, api.render(nameOf));
  logger.error({ err: error.originalError ?? error, operation: op.name, requestId: context.requestId }, "operation failed");
  return new RestError(500, "Internal server error");
}
