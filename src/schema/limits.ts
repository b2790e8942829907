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
import { getMappedArgumentValues } from "@pothos/core";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import {
  defaultFieldResolver,
  getNamedType,
  getOperationAST,
  getVariableValues,
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
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";
import { config } from "../config";
import { MAX_READ_ROWS, TooManyRows } from "../db/load-strategy";
import { graphqlNesting, jsonDepth } from "../http/nesting";
import { fieldTableOf } from "./fields";
import { variableError } from "./input-errors";
import { storedLengths } from "./stored-lengths";

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
export function checkText(query: unknown, variables: unknown): void {
  if (typeof query === "string" && graphqlNesting(query, TEXT_LIMITS.nesting) > TEXT_LIMITS.nesting) {
    throw badRequest(`Query too complex: it is nested more than ${TEXT_LIMITS.nesting} levels deep`, QUERY_TOO_COMPLEX);
  }
  if (jsonDepth(variables, TEXT_LIMITS.variablesNesting + 1) > TEXT_LIMITS.variablesNesting + 1) {
    // The variables object itself is one level: its values may nest 32.
    throw badRequest(`variables are nested more than ${TEXT_LIMITS.variablesNesting} levels deep`, "BAD_USER_INPUT");
  }
}

/** graphql-js parse with the token limit, its refusal in our words. */
export function parseBounded(source: Parameters<typeof parse>[0], options?: Parameters<typeof parse>[1]): DocumentNode {
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
export function operationToRun(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode {
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
function estimate(
  schema: GraphQLSchema,
  document: DocumentNode,
  context: unknown,
  variables: Record<string, unknown>,
  stored?: ReadonlyMap<string, number>,
): Estimate | GraphQLError {
  const withVariables = (values: Record<string, unknown>): Estimate => ({
    ...complexityFromQuery(document, { schema, ctx: context as object, variables: values }),
    bytes: bytesFromQuery(schema, document, context as object, values, stored),
  });
  try {
    return withVariables(variables);
  } catch (err) {
    const refused = variableError(schema, document, variables);
    if (refused) return refused;
    const withoutNulls = Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== null));
    try {
      return withVariables(withoutNulls);
    } catch {
      return err instanceof GraphQLError ? err : new GraphQLError("Invalid variables", { extensions: { code: "BAD_USER_INPUT" } });
    }
  }
}

export interface Estimate {
  depth: number;
  complexity: number;
  /** The answer's largest size in bytes (bytesFromQuery). */
  bytes: number;
}

/** The refusal of the operation that runs, or undefined when it is within the depth, object and size limits. */
function estimateRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  context: unknown,
  variables: Record<string, unknown>,
  stored?: ReadonlyMap<string, number>,
): GraphQLError | undefined {
  const found = estimate(schema, document, context, variables, stored);
  if (found instanceof GraphQLError) return found;
  const message = limitPassed(found);
  if (message === undefined && typeof context === "object" && context !== null) accepted.set(context, found);
  return message === undefined ? undefined : tooComplex(message, validationStatus(context));
}

/** The estimate each execution's operation was accepted with, by its context (the read's price: src/schema/read-cost.ts). */
const accepted = new WeakMap<object, Estimate>();

/** The objects and bytes the limits estimated for the operation running with this context, once it was accepted. */
export const acceptedEstimate = (context: unknown): Readonly<Estimate> | undefined =>
  typeof context === "object" && context !== null ? accepted.get(context) : undefined;

/**
 * The objects and bytes of an operation (a REST route's document) as the limits estimate them, without a refusal:
 * undefined when its variables do not coerce (execution refuses it).
 */
export function operationEstimate(schema: GraphQLSchema, document: DocumentNode, context: unknown, variables: Record<string, unknown>): Readonly<Estimate> | undefined {
  const found = estimate(schema, document, context, variables);
  return found instanceof GraphQLError ? undefined : found;
}

/** The message of the depth, object or size limit an estimate passes, or undefined. */
const limitPassed = (found: Estimate): string | undefined =>
  found.depth > LIMITS.depth
    ? `Query too complex: depth ${found.depth}, the limit is ${LIMITS.depth}`
    : found.complexity > LIMITS.objects
      ? `Query too complex: it can return ${found.complexity} objects, the limit is ${LIMITS.objects}`
      : found.bytes > config.MAX_RESPONSE_BYTES
        ? tooLargeMessage(`it can return ${formatBytes(found.bytes)}`)
        : undefined;

// ---- The size of an answer (docs/api.md "GraphQL limits"): estimated before it runs, counted while it is built ----

/**
 * What the byte estimate prices each value at, in bytes of the answer's JSON. A string field is priced by the
 * longest value its field table's rule accepts (description: 20,000 characters), one byte a character: text is
 * mostly ASCII, and the count while the answer is built (countText, and the one-statement path's text) holds the
 * limit whatever the characters are, so the estimate refuses what must be too large without refusing every detail.
 */
export const BYTE_PRICES = {
  /** Quotes, colon and comma around each response key (plus the key's own length). */
  key: 4,
  /** An object's braces; a list item's comma. */
  object: 2,
  /** A number, boolean, enum value, id or date (an ISO 8601 date is 26 bytes with its quotes). */
  scalar: 40,
  /** A string field whose table gives it no bound (the default text rule's 1,000 characters). */
  text: 1000,
  /** A JSON field (an audit entry's changes, a webhook event's payload): the longest text bound. */
  json: 20_000,
  /** Items priced for a list of scalars (event types, warnings). */
  scalarList: 10,
} as const;

const MIB = 1024 * 1024;

/** A byte count as the messages and docs say it: "8 MiB", "187.3 MiB", "64 KiB", "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= MIB) return `${Number.isInteger(bytes / MIB) ? bytes / MIB : (bytes / MIB).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${Number.isInteger(bytes / 1024) ? bytes / 1024 : (bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

const TOO_LARGE = "Response too large: ";

/** The refusal's message: REST answers it with 413, GraphQL as QUERY_TOO_COMPLEX. */
const tooLargeMessage = (what: string) =>
  `${TOO_LARGE}${what} (at most ${formatBytes(config.MAX_RESPONSE_BYTES)}; select fewer fields or smaller pages)`;

/** Whether an error is the size limit's refusal (src/rest/graphql.ts answers it with 413). */
export const isResponseTooLarge = (error: GraphQLError): boolean =>
  error.extensions?.code === QUERY_TOO_COMPLEX && error.message.startsWith(TOO_LARGE);

/** The refusal of an answer that grew past MAX_RESPONSE_BYTES while it was built (either read engine). */
export const answerTooLarge = (context?: unknown): GraphQLError =>
  tooComplex(
    tooLargeMessage("the answer grew past the limit while it was built"),
    context === undefined ? undefined : validationStatus(context),
  );

/** The longest string a zod rule accepts (through pipes and wrappers), or undefined. */
function maxLengthOf(rule: unknown): number | undefined {
  type Rule = { maxLength?: number | null; in?: unknown; out?: unknown; _zod?: { def?: { innerType?: unknown } } };
  const schema = rule as Rule | undefined;
  if (typeof schema?.maxLength === "number") return schema.maxLength;
  if (schema?.in !== undefined || schema?.out !== undefined) {
    const bounds = [maxLengthOf(schema.in), maxLengthOf(schema.out)].filter((b): b is number => b !== undefined);
    return bounds.length ? Math.min(...bounds) : undefined;
  }
  return schema?._zod?.def?.innerType ? maxLengthOf(schema._zod.def.innerType) : undefined;
}

const isListField = (type: GraphQLOutputType) => isListType(isNonNullType(type) ? type.ofType : type);

const leafPrices = new WeakMap<GraphQLField<unknown, unknown>, number>();

/** The bytes of one value of a leaf field (a list of scalars: BYTE_PRICES.scalarList of them). */
function leafBytes(parent: GraphQLNamedType, field: GraphQLField<unknown, unknown>, stored?: ReadonlyMap<string, number>): number {
  // A long text field is priced at the longest value the team stored, when that is known (./stored-lengths.ts).
  const longest = stored?.get(`${parent.name}.${field.name}`);
  if (longest !== undefined) return longest + 2;
  const known = leafPrices.get(field);
  if (known !== undefined) return known;
  const named = getNamedType(field.type).name;
  const rule = fieldTableOf(parent.name)?.[field.name]?.rule;
  const bound = named === "String" ? (maxLengthOf(rule) ?? BYTE_PRICES.text) : undefined;
  const one = bound !== undefined ? bound + 2 : named === "JSON" ? BYTE_PRICES.json : BYTE_PRICES.scalar;
  const price = isListField(field.type) ? 2 + BYTE_PRICES.scalarList * (one + 1) : one;
  leafPrices.set(field, price);
  return price;
}

interface ByteWalk {
  ctx: object;
  info: {
    schema: GraphQLSchema;
    fragments: Record<string, FragmentDefinitionNode>;
    variableValues: Record<string, unknown>;
  };
  /** Bytes of a (merged) selection set on a type, by the ids of the sets it merges: fragments are priced once. */
  memo: Map<string, number>;
  ids: WeakMap<SelectionSetNode, number>;
  /** The team's longest stored long texts, when the estimate reads them (else each is priced at its bound). */
  stored?: ReadonlyMap<string, number>;
}

interface FieldGroup {
  parent: GraphQLNamedType;
  responseKey: string;
  nodes: FieldNode[];
}

type ComplexityOption =
  | number
  | { field?: number; multiplier?: number }
  | ((...args: unknown[]) => ComplexityOption)
  | undefined;

/** A list field's multiplier, as the object estimate (@pothos/plugin-complexity, builder.ts) takes it. */
function multiplierOf(walk: ByteWalk, field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  let option = field.extensions?.complexity as ComplexityOption;
  if (typeof option === "function") {
    option = option(getMappedArgumentValues(field, node, walk.ctx, walk.info), walk.ctx, field);
  }
  if (typeof option === "object" && option.multiplier !== undefined) return Math.max(option.multiplier, 0);
  return isListField(field.type) ? 10 : 1;
}

/** The fields of selection sets by response key and parent type, fragments flattened (GraphQL merges them so). */
function collectFields(
  walk: ByteWalk,
  sets: readonly SelectionSetNode[],
  type: GraphQLNamedType,
  into = new Map<string, FieldGroup>(),
): Map<string, FieldGroup> {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const responseKey = (selection.alias ?? selection.name).value;
        const group = into.get(`${type.name}.${responseKey}`);
        if (group) group.nodes.push(selection);
        else into.set(`${type.name}.${responseKey}`, { parent: type, responseKey, nodes: [selection] });
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? walk.info.fragments[selection.name.value] : selection;
      if (!fragment) continue;
      const on = fragment.typeCondition ? walk.info.schema.getType(fragment.typeCondition.name.value) : type;
      collectFields(walk, [fragment.selectionSet], on ?? type, into);
    }
  }
  return into;
}

let setIds = 0;
const idOf = (walk: ByteWalk, set: SelectionSetNode) => {
  let id = walk.ids.get(set);
  if (id === undefined) walk.ids.set(set, (id = ++setIds));
  return id;
};

/** The largest size of an object answering these (merged) selection sets on `type`. */
function selectionBytes(walk: ByteWalk, sets: readonly SelectionSetNode[], type: GraphQLNamedType): number {
  const memoKey = `${type.name}:${sets.map((set) => idOf(walk, set)).join(",")}`;
  const known = walk.memo.get(memoKey);
  if (known !== undefined) return known;
  let bytes = BYTE_PRICES.object;
  for (const { parent, responseKey, nodes } of collectFields(walk, sets, type).values()) {
    const node = nodes[0];
    bytes += BYTE_PRICES.key + responseKey.length;
    const field = isObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
    if (!field) {
      bytes += BYTE_PRICES.scalar; // __typename
      continue;
    }
    const children = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    if (!children.length) {
      bytes += leafBytes(parent, field, walk.stored);
      continue;
    }
    const multiplier = multiplierOf(walk, field, node);
    const item = selectionBytes(walk, children, getNamedType(field.type)) + 1;
    bytes += isListField(field.type) ? BYTE_PRICES.object + multiplier * item : multiplier * item;
  }
  walk.memo.set(memoKey, bytes);
  return bytes;
}

/**
 * The largest size in bytes of the answer of a document's (first) operation: every value priced by BYTE_PRICES, each
 * list multiplied by the same limits as the object estimate. Throws on variables that do not coerce.
 */
export function bytesFromQuery(
  schema: GraphQLSchema,
  document: DocumentNode,
  ctx: object,
  variables: Record<string, unknown>,
  stored?: ReadonlyMap<string, number>,
): number {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return 0;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) throw coerced.errors[0];
  const fragments = Object.fromEntries(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const info = { schema, fragments, variableValues: coerced.coerced };
  const walk: ByteWalk = { ctx, info, memo: new Map(), ids: new WeakMap(), stored };
  // The answer's envelope: {"data":…}.
  return 10 + selectionBytes(walk, [operation.selectionSet], root);
}

/** GraphQL Armor's alias rule at LIMITS.aliases, its refusal in our words. */
export const aliasLimitRule = () =>
  maxAliasesRule({
    n: LIMITS.aliases,
    // Every alias counts, `__typename`'s too (GraphQL Armor lets those through by default: thousands of them each
    // add their key and value to the answer).
    allowList: [],
    propagateOnRejection: false,
    onReject: [
      (ctx: ValidationContext | null, error: GraphQLError) => {
        const found = /found (\d+)/.exec(error.message)?.[1] ?? "more";
        ctx?.reportError(tooComplex(`Query too complex: ${found} aliases, the limit is ${LIMITS.aliases}`));
      },
    ],
  });

/** Stops an execution (or a subscription) whose operation is not defined or whose estimate passes the limit. */
export function refuseOverLimits(
  args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: unknown; variableValues?: Record<string, unknown> | null },
  stop: (result: ExecutionResult) => void,
): void | Promise<void> {
  let operation: OperationDefinitionNode;
  try {
    operation = operationToRun(args.document, args.operationName ?? undefined);
  } catch (err) {
    return stop({ errors: [err as GraphQLError] });
  }
  const document = runningDocument(args.document, operation);
  const variables = args.variableValues ?? {};
  const refusal = estimateRefusal(args.schema, document, args.contextValue, variables);
  if (!refusal) return;
  // Over a limit with long texts priced at their bounds: priced again at what the team stored, when that is known.
  const teamId = (args.contextValue as { viewer?: { teamId?: string } } | undefined)?.viewer?.teamId;
  if (!teamId || !isResponseTooLarge(refusal)) return stop({ errors: [refusal] });
  return storedLengths(teamId).then(
    (stored) => {
      const again = estimateRefusal(args.schema, document, args.contextValue, variables, stored);
      if (again) stop({ errors: [again] });
    },
    () => stop({ errors: [refusal] }),
  );
}

// The second line of defence: list items built per request, counted as the resolvers return them, and the bytes of
// the text they return (strings, JSON) while an execution counts them (countAnswer: the engine's, per operation).
const built = new WeakMap<object, { items: number; bytes?: number }>();

/** Starts counting the bytes of text the resolvers return for one execution with this context (engine.ts). */
export function countAnswer(context: unknown): void {
  if (typeof context !== "object" || context === null) return;
  const count = built.get(context);
  if (count) count.bytes = 0;
  else built.set(context, { items: 0, bytes: 0 });
}

/** Whether an answer's text (the one-statement path's JSON) is larger than MAX_RESPONSE_BYTES. */
export function textPastLimit(texts: readonly string[]): boolean {
  const limit = config.MAX_RESPONSE_BYTES;
  let length = 0;
  for (const text of texts) length += text.length;
  // A UTF-16 unit is 1 to 3 bytes of UTF-8: only a text between the two bounds needs counting.
  if (length > limit) return true;
  if (length * 3 <= limit) return false;
  return texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0) > limit;
}

/**
 * The refusal of an execution that built more list items than BUILT_ITEMS_LIMIT or more text than
 * MAX_RESPONSE_BYTES, or one of whose reads was refused for the rows it could build (TooManyRows,
 * src/db/load-strategy.ts); undefined otherwise.
 */
export function builtPastLimit(context: unknown, result: ExecutionResult): GraphQLError | undefined {
  const count = typeof context === "object" && context !== null ? built.get(context) : undefined;
  const rows = result.errors?.find((e) => e.originalError instanceof TooManyRows)?.originalError as TooManyRows | undefined;
  if (rows) return tooComplex(`Query too complex: one of its reads could build ${rows.rows} rows, the limit is ${MAX_READ_ROWS}`, validationStatus(context));
  if ((count?.bytes ?? 0) > config.MAX_RESPONSE_BYTES) return answerTooLarge(context);
  if ((count?.items ?? 0) <= BUILT_ITEMS_LIMIT) return undefined;
  return tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects, the limit of one request`, validationStatus(context));
}

/** Throws when the execution with this context already passed a limit: nothing more is loaded or built. */
function refuseWhenPast(context: unknown): void {
  const current = built.get(context as object);
  if (!current) return;
  if (current.items > BUILT_ITEMS_LIMIT) throw tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects`);
  if ((current.bytes ?? 0) > config.MAX_RESPONSE_BYTES) throw answerTooLarge();
}

function countItems(context: unknown, value: unknown): unknown {
  if (!Array.isArray(value) || typeof context !== "object" || context === null) return value;
  let count = built.get(context);
  if (!count) built.set(context, (count = { items: 0 }));
  count.items += value.length;
  if (count.items > BUILT_ITEMS_LIMIT) throw tooComplex(`Query too complex: its answer passed ${BUILT_ITEMS_LIMIT} objects`);
  return value;
}

function countText(context: unknown, value: unknown): unknown {
  const count = typeof context === "object" && context !== null ? built.get(context) : undefined;
  if (count?.bytes === undefined || value === null || value === undefined) return value;
  count.bytes += typeof value === "string" ? Buffer.byteLength(value) : (JSON.stringify(value)?.length ?? 0);
  if (count.bytes > config.MAX_RESPONSE_BYTES) throw answerTooLarge();
  return value;
}

const isObjectList = (type: Parameters<typeof getNamedType>[0]) =>
  isListType(isNonNullType(type) ? type.ofType : type) && isObjectType(getNamedType(type));

/** Fields whose values are text: strings and JSON (alone or in lists); other scalars are short. */
const isText = (type: GraphQLOutputType) => ["String", "JSON"].includes(getNamedType(type).name);

/**
 * Makes every resolver of a list of objects count the items it returns against the request's BUILT_ITEMS_LIMIT, and
 * every resolver of text the bytes it returns against MAX_RESPONSE_BYTES (while the engine counts them), and fail
 * (nothing more is loaded) past either; the engine then answers the one QUERY_TOO_COMPLEX error (builtPastLimit).
 * Lists of scalars are not counted as items: only objects multiply what is below them.
 */
export function countBuiltItems(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const counted = isObjectList(field.type) ? countItems : isText(field.type) ? countText : undefined;
      if (!counted) continue;
      const count: (context: unknown, value: unknown) => unknown = counted;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        refuseWhenPast(context);
        const value = resolve(source, args, context, info);
        return value instanceof Promise ? value.then((v) => count(context, v)) : count(context, value);
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
    const found = complexityFromQuery(document, { schema, ctx: {}, variables });
    return { ...found, bytes: bytesFromQuery(schema, document, {}, variables) };
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
      // Depth and objects only: an answer's size depends on what the team stores, estimated when it runs.
      const found = registrationEstimate(schema, runningDocument(document, operation), operation);
      const passed = found && limitPassed({ ...found, bytes: 0 });
      if (passed) return passed;
    }
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
