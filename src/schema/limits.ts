// GraphQL limits (docs/api.md "GraphQL limits"): a request is refused before execution, with extensions.code
// QUERY_TOO_COMPLEX and a message saying which limit and by how much, when the operation it runs (its
// `operationName`, with every fragment it spreads) has a depth over 12, the document has more than 30 aliases
// (GraphQL Armor's rule), or the operation's estimated result exceeds 50,000 objects (@pothos/plugin-complexity's
// estimate: every object counts 1 and a list multiplies what is below it by its limit; see builder.ts).
// Before any of that, the request's text is bounded where the parser and JSON's recursive walkers would otherwise
// overflow the stack: a document nested more than 64 brackets deep or longer than 10,000 tokens, or variables nested
// more than 32 levels deep, answer 400 without being parsed further. An operationName the document does not define
// answers 400. And whatever a bug in these checks lets through, one request cannot build more than 100,000 list items
// (BUILT_ITEMS_LIMIT, counted as resolvers return lists) nor run a read that could build more than MAX_READ_ROWS rows
// (src/db/load-strategy.ts): it stops there and answers QUERY_TOO_COMPLEX.
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import type { Plugin } from "graphql-yoga";
import {
  defaultFieldResolver,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  isEnumType,
  isScalarType,
  parse,
  specifiedRules,
  typeFromAST,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationContext,
} from "graphql";
import { MAX_READ_ROWS, TooManyRows } from "../db/load-strategy";
import { graphqlNesting, jsonDepth } from "../http/nesting";
import { variableError } from "./input-errors";

export const LIMITS = { depth: 12, aliases: 30, objects: 50_000 } as const;

/** What a request's text may be, checked before it is parsed (the parser and JSON walkers recurse per level). */
export const TEXT_LIMITS = { nesting: 64, tokens: 10_000, variablesNesting: 32 } as const;

/** List items one request may build, whatever the estimate said: twice what the estimate lets through. */
export const BUILT_ITEMS_LIMIT = 2 * LIMITS.objects;

export const QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX";

// Answered like a validation error: its HTTP status is what the GraphQL-over-HTTP spec gives for one (400 with
// Accept: application/graphql-response+json; 200 with the legacy application/json). Yoga chooses it for the alias
// rule (a validation rule); the estimate, which runs at execution, sets it the same way.
const tooComplex = (message: string, httpStatus?: number) =>
  new GraphQLError(message, { extensions: { code: QUERY_TOO_COMPLEX, ...(httpStatus ? { http: { status: httpStatus } } : {}) } });

/** A request refused before its document is parsed or run: 400 under every media type. */
const badRequest = (message: string, code: string) => new GraphQLError(message, { extensions: { code, status: 400, http: { status: 400 } } });

/** The status Yoga gives validation errors: 400 under the GraphQL-over-HTTP media type, 200 under legacy JSON. */
function validationStatus(context: unknown): number | undefined {
  const accept = (context as { request?: Request }).request?.headers.get("accept") ?? "";
  return accept.includes("application/graphql-response+json") ? 400 : undefined;
}

/** The document's text and variables, refused (thrown) when they nest past what the parser and walkers can take. */
function checkText(query: unknown, variables: unknown): void {
  if (typeof query === "string" && graphqlNesting(query, TEXT_LIMITS.nesting) > TEXT_LIMITS.nesting) {
    throw badRequest(`Query too complex: it is nested more than ${TEXT_LIMITS.nesting} levels deep`, QUERY_TOO_COMPLEX);
  }
  if (jsonDepth(variables, TEXT_LIMITS.variablesNesting + 1) > TEXT_LIMITS.variablesNesting + 1) {
    // The variables object itself is one level: its values may nest 32.
    throw badRequest(`variables are nested more than ${TEXT_LIMITS.variablesNesting} levels deep`, "BAD_USER_INPUT");
  }
}

/** graphql-js parse with the token limit, its refusal in our words. */
function parseBounded(source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]): DocumentNode {
  try {
    return parse(source, { ...options, maxTokens: TEXT_LIMITS.tokens });
  } catch (err) {
    if (err instanceof GraphQLError && /tokens/.test(err.message)) {
      throw badRequest(`Query too complex: it has more than ${TEXT_LIMITS.tokens} tokens, the limit is ${TEXT_LIMITS.tokens}`, QUERY_TOO_COMPLEX);
    }
    throw err;
  }
}

/** The operation a request runs, or the 400 saying why there is none (graphql-js's words). */
function operationToRun(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode {
  const operation = getOperationAST(document, operationName);
  if (operation) return operation;
  const count = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
  const message = operationName
    ? `Unknown operation named "${operationName}".`
    : count > 1
      ? "Must provide operation name if query contains multiple operations."
      : "Must provide an operation.";
  throw badRequest(message, "BAD_REQUEST");
}

/** The document as the operation that runs sees it: that operation and the fragments (those it spreads among them). */
const runningDocument = (document: DocumentNode, operation: OperationDefinitionNode): DocumentNode => ({
  ...document,
  definitions: [operation, ...document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION)],
});

/**
 * The operation's estimated depth and size. Variables that do not coerce are refused as execution would refuse them,
 * in our words (variableError); an argument execution would fail on its own (null for a non-null argument, from a
 * nullable variable) is estimated as if the variable were left out (its default, or the list's maximum) — never run
 * unestimated: that would let the rest of the document through unchecked.
 */
function estimate(schema: GraphQLSchema, document: DocumentNode, context: unknown, variables: Record<string, unknown>): { depth: number; complexity: number } | GraphQLError {
  try {
    return complexityFromQuery(document, { schema, ctx: context as object, variables });
  } catch (err) {
    const refused = variableError(schema, document, variables);
    if (refused) return refused;
    const withoutNulls = Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== null));
    try {
      return complexityFromQuery(document, { schema, ctx: context as object, variables: withoutNulls });
    } catch {
      return err instanceof GraphQLError ? err : new GraphQLError("Invalid variables", { extensions: { code: "BAD_USER_INPUT" } });
    }
  }
}

/** The refusal of the operation that runs, or undefined when it is within the depth and object limits. */
function estimateRefusal(schema: GraphQLSchema, document: DocumentNode, context: unknown, variables: Record<string, unknown>): GraphQLError | undefined {
  const found = estimate(schema, document, context, variables);
  if (found instanceof GraphQLError) return found;
  const message = limitPassed(found);
  return message === undefined ? undefined : tooComplex(message, validationStatus(context));
}

/** The message of the depth or object limit an estimate passes, or undefined. */
const limitPassed = (found: { depth: number; complexity: number }): string | undefined =>
  found.depth > LIMITS.depth
    ? `Query too complex: depth ${found.depth}, the limit is ${LIMITS.depth}`
    : found.complexity > LIMITS.objects
      ? `Query too complex: it can return ${found.complexity} objects, the limit is ${LIMITS.objects}`
      : undefined;

/** GraphQL Armor's alias rule at LIMITS.aliases, its refusal in our words. */
const aliasLimitRule = () =>
  maxAliasesRule({
    n: LIMITS.aliases,
    propagateOnRejection: false,
    onReject: [
      (ctx: ValidationContext | null, error: GraphQLError) => {
        const found = /found (\d+)/.exec(error.message)?.[1] ?? "more";
        ctx?.reportError(tooComplex(`Query too complex: ${found} aliases, the limit is ${LIMITS.aliases}`));
      },
    ],
  });

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

/** Stops an execution (or a subscription) whose operation is not defined or whose estimate passes the limit. */
function refuseOverLimits(
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: unknown; variableValues?: Record<string, unknown> | null },
  stop: (result: ExecutionResult) => void,
): void {
  let operation: OperationDefinitionNode;
  try {
    operation = operationToRun(args.document, args.operationName ?? undefined);
  } catch (err) {
    return stop({ errors: [err as GraphQLError] });
  }
  const refusal = estimateRefusal(args.schema, runningDocument(args.document, operation), args.contextValue, args.variableValues ?? {});
  if (refusal) stop({ errors: [refusal] });
}

// The second line of defence: list items built per request, counted as the resolvers return them.
const built = new WeakMap<object, { items: number }>();

/**
 * The refusal of an execution that built more list items than BUILT_ITEMS_LIMIT, or one of whose reads was refused
 * for the rows it could build (TooManyRows, src/db/load-strategy.ts); undefined otherwise.
 */
export function builtPastLimit(context: unknown, result: ExecutionResult): GraphQLError | undefined {
  const count = typeof context === "object" && context !== null ? built.get(context) : undefined;
  const rows = result.errors?.find((e) => e.originalError instanceof TooManyRows)?.originalError as TooManyRows | undefined;
  if (rows) return tooComplex(`Query too complex: one of its reads could build ${rows.rows} rows, the limit is ${MAX_READ_ROWS}`, validationStatus(context));
  if ((count?.items ?? 0) <= BUILT_ITEMS_LIMIT) return undefined;
  return tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects, the limit of one request`, validationStatus(context));
}

function countItems(context: unknown, value: unknown): unknown {
  if (!Array.isArray(value) || typeof context !== "object" || context === null) return value;
  let count = built.get(context);
  if (!count) built.set(context, (count = { items: 0 }));
  count.items += value.length;
  if (count.items > BUILT_ITEMS_LIMIT) throw tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects`);
  return value;
}

const isObjectList = (type: Parameters<typeof getNamedType>[0]) =>
  isListType(isNonNullType(type) ? type.ofType : type) && isObjectType(getNamedType(type));

/**
 * Makes every resolver of a list of objects count the items it returns against the request's BUILT_ITEMS_LIMIT, and
 * fail (nothing more is loaded) past it; the engine then answers the one QUERY_TOO_COMPLEX error (builtPastLimit).
 * Lists of scalars are left alone: only objects multiply what is below them.
 */
export function countBuiltItems(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isObjectList(field.type)) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const current = built.get(context as object);
        if (current && current.items > BUILT_ITEMS_LIMIT) throw tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects`);
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then((v) => countItems(context, v)) : countItems(context, value);
      };
    }
  }
  return schema;
}

/**
 * The estimate of a document being registered, without a request's variables: those left out take their default
 * (or, for a list's limit, its maximum); a required Int is taken at 100, the largest page a list takes, and other
 * required scalars and enums at a placeholder. Undefined when it cannot be estimated so (a required input object):
 * the estimate of each request that runs it still holds.
 */
function registrationEstimate(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode) {
  const variables: Record<string, unknown> = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.type.kind !== Kind.NON_NULL_TYPE || definition.defaultValue) continue;
    const type = typeFromAST(schema, definition.type);
    const named = type && getNamedType(type);
    const placeholder =
      type && isListType(isNonNullType(type) ? type.ofType : type)
        ? []
        : named?.name === "Int"
          ? 100
          : named?.name === "Float"
            ? 0
            : named?.name === "Boolean"
              ? false
              : isEnumType(named)
                ? named.getValues()[0]?.name
                : isScalarType(named)
                  ? "0"
                  : undefined;
    if (placeholder === undefined) return undefined;
    variables[definition.variable.name.value] = placeholder;
  }
  try {
    return complexityFromQuery(document, { schema, ctx: {}, variables });
  } catch {
    return undefined;
  }
}

/**
 * Why a document sent for registration as a trusted document (src/graphql-documents) would be refused, or undefined:
 * its text bounds, parsing, validation against the schema with the alias limit, and the depth and object estimate of
 * each of its operations with its variables left out (their defaults, or a list's maximum). The estimate still runs
 * per request when it is used: variables can change list sizes.
 */
export function documentRefusal(schema: GraphQLSchema, text: string): string | undefined {
  try {
    checkText(text, undefined);
    const document = parseBounded(text);
    const errors = validate(schema, document, [...specifiedRules, aliasLimitRule()]);
    if (errors.length) return errors[0].message;
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (!operations.length) return "Must provide an operation.";
    for (const operation of operations) {
      const found = registrationEstimate(schema, runningDocument(document, operation), operation);
      const passed = found && limitPassed(found);
      if (passed) return passed;
    }
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
