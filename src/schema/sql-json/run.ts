// The one-statement read path, part 4: answering a request with a plan. It answers only what the resolvers would
// answer with the same rows: the key holds every permission the selection needs (REST may leave out collections it
// may not read, as its detail does), the arguments pass the same rules, and every root found its row. Otherwise it
// returns null and the resolvers run (and give the error). The query limits ran before execution, as for any
// document (/graphql checks each client document against them; REST's documents are fixed and checked by its tests),
// and the statement runs on the service's pool with its statement timeout.
import { createHash } from "node:crypto";
import { GraphQLError, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { can, type Permission } from "../../auth/permissions";
import { pendingRiders, type Context } from "../../context";
import { database } from "../../db";
import { databaseFailure } from "../../db/errors";
import { logger } from "../../logger";
import { columns } from "./columns";
import { planOperation, resolveArgs, type ObjectPlan, type Plan } from "./plan";
import { RawData } from "./raw";
import { connectionWindow, LIST_COLUMNS, statementOf, statementText, type Statement } from "./sql";
import { writer } from "./write";

export interface SqlJsonEntry {
  plan: Plan;
  /** Permissions of the collections in the selection (each may be left out for REST). */
  optional: Permission[];
  /** Statement per set of left-out permissions and extra columns, its text and prepared-statement name. */
  statements: Map<string, (Statement & { text: string; name?: string; keepPlan?: boolean }) | null>;
}

/**
 * Statements prepared on PostgreSQL's connections, by name (unless a pooler refuses names, src/db/prepared.ts): each
 * stays on every pooled connection for its lifetime, so only the first MAX_PREPARED distinct statements get a name
 * (REST's few and the documents clients send most early on); the others are planned each time. Clients sending ever
 * new documents cannot grow the server's memory.
 */
const MAX_PREPARED = 200;
const prepared = new Set<string>();

function nameOf(text: string): string | undefined {
  const name = `sqljson_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
  if (prepared.has(name)) return name;
  if (prepared.size >= MAX_PREPARED) return undefined;
  prepared.add(name);
  return name;
}

/** SQLSTATE class 42 (syntax error or access rule violation): the statement itself is wrong, every time. */
const isStatementFault = (err: unknown) => typeof (err as { code?: unknown })?.code === "string" && (err as { code: string }).code.startsWith("42");

function collectionPermissions(object: ObjectPlan, into: Set<Permission>): Set<Permission> {
  for (const m of object.members) {
    if (m.kind !== "collection") continue;
    if (m.permission) into.add(m.permission);
    collectionPermissions(m.object, into);
  }
  return into;
}

/** The entry of a document (null: the resolvers answer it). Made once per document and operation name. */
export function sqlJsonEntry(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): SqlJsonEntry | null {
  const plan = planOperation(schema, document, operationName, columns);
  if (!plan) return null;
  const optional = new Set<Permission>();
  for (const root of plan.roots) {
    if (root.object) collectionPermissions(root.object, optional);
    for (const m of root.page ?? []) if (m.kind === "items") collectionPermissions(m.object, optional);
    for (const m of root.connection ?? []) {
      if (m.kind === "edges") for (const e of m.members) if (e.kind === "node") collectionPermissions(e.object, optional);
    }
  }
  return { plan, optional: [...optional], statements: new Map() };
}

/**
 * The text of the statement that answers the entry's document for a key holding every permission, without riders
 * (null: no statement answers it): what test/snapshots/sql-json-statements.sql shows a reviewer.
 */
export function statementTextOf(entry: SqlJsonEntry): string | null {
  const made = statementOf(entry.plan, columns, () => true);
  return made && statementText(made);
}

export interface SqlJsonOptions {
  /** Collections the key may not read are left out of the answer (REST's detail) instead of failing it. */
  omitForbidden?: boolean;
}

/** The answer of the one-statement path, or null when the resolvers must answer. */
export async function runSqlJson(entry: SqlJsonEntry, args: ExecutionArgs, options: SqlJsonOptions = {}): Promise<ExecutionResult | null> {
  try {
    return await answer(entry, args, options);
  } catch (err) {
    // This path's own fault (a bug, not the database): say so in the log and let the resolvers answer.
    logger.error({ err }, "one-statement read failed; answered by the resolvers");
    return null;
  }
}

/** The column of the request's rider n (context.ts, Rider). */
const riderColumn = (n: number) => `x$${n}`;

async function answer(entry: SqlJsonEntry, args: ExecutionArgs, options: SqlJsonOptions): Promise<ExecutionResult | null> {
  const context = args.contextValue as Context | undefined;
  const viewer = context?.viewer;
  if (!viewer) return null;
  const { plan } = entry;
  const allowed = (p: Permission | undefined) => p === undefined || can(viewer.permissions, p);
  if (!plan.roots.every((r) => allowed(r.permission))) return null;
  const forbidden = entry.optional.filter((p) => !allowed(p));
  if (forbidden.length && !options.omitForbidden) return null;

  const request = { variables: args.variableValues ?? {}, teamId: viewer.teamId, args: new Map() };
  if (!resolveArgs(plan, request)) return null;
  if (!plan.roots.every((r) => r.spec.where.accepts(request.args.get(r.args.node) ?? {}))) return null;
  // A connection's cursors and counts: one the resolver refuses (a foreign cursor, first with last) is its error.
  if (!plan.roots.every((r) => !r.connection || connectionWindow(r, request) !== null)) return null;

  // The request's riders (context.ts, Rider: the key check, the team's data version): one more column each, read in
  // the snapshot of the data.
  const riders = pendingRiders(context);
  const key = `${forbidden.join(",")}|${riders.map((rider) => rider.name).join(",")}`;
  let statement = entry.statements.get(key);
  if (statement === undefined) {
    const made = statementOf(plan, columns, (p) => !forbidden.includes(p as Permission));
    let next = (made?.params.length ?? 0) + 1;
    const extra = riders.map((rider, n) => {
      const column = `${rider.column(next)} AS "${riderColumn(n)}"`;
      next += rider.params.length;
      return column;
    });
    const text = made && statementText(made, extra);
    statement = made && text ? { ...made, text, name: nameOf(text), keepPlan: true } : null;
    entry.statements.set(key, statement);
  }
  if (!statement) return null;

  type Row = Record<string, string | number | boolean | null>;
  let rows: Row[];
  try {
    const values = statement.params.map((value) => value(request));
    for (const rider of riders) values.push(...rider.params);
    // On the replica the executor chose for the request, if any (src/db/replicas.ts).
    rows = await (context.read?.database ?? database).query<Row>(statement, values);
  } catch (err) {
    // Unreachable or past its time budget: the answer the resolvers would give (503/504) — each nullable root null
    // with its error, the whole data null when a root may not be.
    if (databaseFailure(err)) {
      const errors = plan.roots.map((r) => new GraphQLError((err as Error).message, { originalError: err as Error, path: [r.key] }));
      const data = plan.roots.every((r) => r.nullable) ? Object.fromEntries(plan.roots.map((r) => [r.key, null])) : null;
      return { data, errors };
    }
    // A statement PostgreSQL refuses is refused every time: not tried again for this document.
    if (isStatementFault(err)) entry.statements.set(key, null);
    throw err;
  }
  // The roots' row, and each listed item's (sql.ts statementText), in its list's order.
  const { list, place, item } = LIST_COLUMNS;
  const row = statement.lists.length ? rows.find((r) => r[list] === -1) : rows[0];
  const items = statement.lists.map(() => [] as Array<[number, string]>);
  if (statement.lists.length) for (const r of rows) if (r[list] !== -1) items[r[list] as number].push([r[place] as number, r[item] as string]);
  // A rider that does not hold (a key row changed since this process read it) keeps the answer from being used.
  if (!riders.every((rider, n) => rider.holds?.(row?.[riderColumn(n)]) ?? true)) return null;
  riders.forEach((rider, n) => rider.read(row?.[riderColumn(n)]));
  const values = plan.roots.map((_, i) => (row?.[`r${i}`] as string | null | undefined) ?? null);
  // A root without its row (an unknown id): the resolvers give the error.
  if (values.some((v) => v === null)) return null;
  const parsed = values.map((text) => JSON.parse(text!) as unknown[]);
  statement.lists.forEach((l, n) => {
    parsed[l.root][l.at] = items[n].sort((x, y) => x[0] - y[0]).map(([, text]) => JSON.parse(text) as unknown);
  });
  const texts = parsed.map((value, i) => writer(statement.shapes[i])(value));
  return { data: new RawData(plan.roots.map((r, i) => [r.key, texts[i]] as const)) as unknown as Record<string, unknown> };
}
