// The one execution engine of both interfaces: graphql-jit compiles each document once and the compiled query runs
// every request of it. /graphql uses it through Yoga (src/yoga/use-compiled-execution.ts); REST routes run their pre-parsed
// documents through `execute` directly. Compiled documents are kept by document object (Yoga's parser cache hands
// the same object for the same text) with a bounded cache by text behind it, so clients sending many different
// documents cannot grow memory without bound.
import {
  execute as graphqlExecute,
  getOperationAST,
  print,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
} from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { LRUCache } from "lru-cache";
import { pendingRiders, settleRiders, type Context, type Refusal, type Rider } from "../context";
import { chooseRead, hasReplicas, readingFrom } from "../db/replicas";
import { logger } from "../logger";
import { cacheableOperation } from "./cacheable";
import { refusedBy } from "./errors";
import { schema } from "./index";
import { variableError } from "./input-errors";
import { answerTooLarge, builtPastLimit, countAnswer, textPastLimit } from "./limits";
import { rawDataOf } from "./sql-json/raw";
import { runSqlJson, sqlJsonEntry, type SqlJsonEntry, type SqlJsonOptions } from "./sql-json/run";

interface Compiled {
  query: CompiledQuery | { errors: ExecutionResult["errors"] };
  /** The one-statement read path's plan (./sql-json), when it can answer the document. */
  sql: SqlJsonEntry | null;
  /** The operation's variables that have a default: name and the default as a client would send it. */
  defaults: Array<[name: string, value: unknown]>;
  /** A query whose roots read only rows the team-version triggers watch: a read replica may answer it. */
  replicaSafe: boolean;
}

function replicaSafe(document: DocumentNode, operationName: string | undefined): boolean {
  return cacheableOperation(document, getOperationAST(document, operationName));
}

function defaultsOf(document: DocumentNode, operationName: string | undefined): Compiled["defaults"] {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? [];
  return definitions.flatMap((d) => (d.defaultValue ? [[d.variable.name.value, valueFromASTUntyped(d.defaultValue)] as [string, unknown]] : []));
}

/**
 * The request's variables with each one it leaves out that has a default given that default, as GraphQL's rules
 * say. graphql-jit's own variable parsing forgets the default of a non-null variable (`$id: ID! = "…"`) where
 * graphql-js (and so the one-statement path) applies it: both paths read these values, so they agree.
 */
function withDefaults(variables: Record<string, unknown>, defaults: Compiled["defaults"]): Record<string, unknown> {
  const missing = defaults.filter(([name]) => !Object.prototype.hasOwnProperty.call(variables, name));
  return missing.length ? { ...variables, ...Object.fromEntries(missing) } : variables;
}

function sqlJsonOf(document: DocumentNode, operationName: string | undefined): SqlJsonEntry | null {
  try {
    return sqlJsonEntry(schema, document, operationName);
  } catch (err) {
    logger.error({ err }, "one-statement read path could not plan a document; the resolvers answer it");
    return null;
  }
}

const byDocument = new WeakMap<DocumentNode, Map<string, Compiled>>();
const byText = new LRUCache<string, Compiled>({ max: 1000 });

function compiled(document: DocumentNode, operationName: string | null | undefined): Compiled {
  const name = operationName ?? "";
  let forDocument = byDocument.get(document);
  const hit = forDocument?.get(name);
  if (hit) return hit;
  const key = `${name}\n${print(document)}`;
  let entry = byText.get(key);
  if (!entry) {
    // Leaves are sent as the resolvers give them: the field tables and Prisma's types already make every value its
    // scalar's JSON (a DateTime is a Date, which JSON.stringify writes in ISO 8601, as DateTime.serialize would).
    // About 3 % of a report detail's CPU (BENCHMARKS.md, scenario 1).
    const result = compileQuery(schema, document, operationName ?? undefined, { disableLeafSerialization: true });
    const query = isCompiledQuery(result) ? result : { errors: result.errors };
    entry = { query, sql: "query" in query ? sqlJsonOf(document, operationName ?? undefined) : null, defaults: defaultsOf(document, operationName ?? undefined), replicaSafe: replicaSafe(document, operationName ?? undefined) };
    byText.set(key, entry);
  }
  if (!forDocument) byDocument.set(document, (forDocument = new Map()));
  forDocument.set(name, entry);
  return entry;
}

/**
 * Executes a validated document (graphql-js `execute` arguments): by one SQL statement when the one-statement read
 * path can answer it (its `data` is then a RawData), else by the compiled resolvers.
 */
export async function execute(args: ExecutionArgs, options?: SqlJsonOptions): Promise<ExecutionResult> {
  if (args.schema !== schema) return graphqlExecute(args);
  const entry = compiled(args.document, args.operationName);
  if (!("query" in entry.query)) return { errors: entry.query.errors };
  const variables = withDefaults(args.variableValues ?? {}, entry.defaults);
  // With read replicas, a query they may answer reads from one that has replayed the team's last write, chosen once
  // here for both engines (src/db/replicas.ts); everything else reads from, and writes to, the primary.
  const context = args.contextValue as Context | undefined;
  if (entry.replicaSafe && context?.viewer && !context.read && hasReplicas()) {
    // The request's riders whose answer is the primary's (context.ts: the key check) are settled there meanwhile: a
    // request they refuse reads nothing.
    let refusal: Refusal | undefined;
    const primaryOnly = (rider: Rider) => rider.primaryOnly === true;
    const settle = pendingRiders(context).some(primaryOnly) ? async () => !(refusal = await settleRiders(context, primaryOnly)) : undefined;
    const read = await chooseRead(context.viewer.teamId, settle);
    if (refusal) return { errors: [refusedBy(refusal)] };
    context.read = read;
    return readingFrom(read, () => executeCompiled(entry, args, variables, options)).finally(() => (context.read = undefined));
  }
  return executeCompiled(entry, args, variables, options);
}

async function executeCompiled(entry: Compiled, args: ExecutionArgs, variables: Record<string, unknown>, options?: SqlJsonOptions): Promise<ExecutionResult> {
  if (!("query" in entry.query)) return { errors: entry.query.errors };
  // The one statement carries the request's riders (context.ts, Rider: the key check, the data version).
  const context = args.contextValue as Context | undefined;
  const statementArgs = variables === args.variableValues ? args : { ...args, variableValues: variables };
  const answer = entry.sql && (await statementAnswer(entry.sql, statementArgs, options));
  if (answer) return answer;
  // Riders the statement did not settle are settled before anything else reads, and one that refuses (a key revoked
  // since this process read it) is the answer. One that kept the statement's answer from being used (the key's row
  // changed, still valid) leaves the request to be asked once more, for the key as it is now.
  const unsettled = pendingRiders(context).length > 0;
  const refusal = await settleRiders(context);
  if (refusal) return { errors: [refusedBy(refusal)] };
  const again = entry.sql && unsettled && (await statementAnswer(entry.sql, statementArgs, options));
  if (again) return again;
  // The text the resolvers return is counted against MAX_RESPONSE_BYTES as they return it (limits.ts).
  countAnswer(args.contextValue);
  const result = await entry.query.query(args.rootValue, args.contextValue, variables);
  // An answer that grew past what one request may build (items, or bytes) is dropped whole: one error instead.
  const tooBig = builtPastLimit(args.contextValue, result);
  if (tooBig) return { errors: [tooBig] };
  // Variable values refused before execution: say which field and why, in our words (input-errors.ts).
  if (result.errors?.length && !result.data && result.errors.every((e) => !e.path)) {
    const refused = variableError(schema, args.document, variables);
    if (refused) return { errors: [refused] };
  }
  return result;
}

/** The one statement's answer (null: not answered by it), or the error of an answer past MAX_RESPONSE_BYTES. */
async function statementAnswer(sql: SqlJsonEntry, args: ExecutionArgs, options?: SqlJsonOptions): Promise<ExecutionResult | null> {
  const answer = await runSqlJson(sql, args, options);
  // PostgreSQL's text is measured before it is sent (the estimate kept it from being much larger: limits.ts).
  const raw = answer && rawDataOf(answer);
  if (raw && textPastLimit(raw.fields.map(([, text]) => text))) return { errors: [answerTooLarge(args.contextValue)] };
  return answer;
}

/** Whether the one-statement read path answers the document (./sql-json), rather than the resolvers. */
export const oneStatementAnswers = (document: DocumentNode, operationName: string | null | undefined): boolean => {
  const entry = compiled(document, operationName);
  return "query" in entry.query && entry.sql !== null;
};
