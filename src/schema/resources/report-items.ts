// The items a report holds that are managed one by one (comparables, agent insights): the same queries and mutations
// for each, from one description — get by id, a page of one report's items (oldest first), create, update, delete,
// each behind the resource's permission and scoped to the key's team.
import type { Context } from "../../context";
import type { Prisma } from "../../generated/prisma/client";
import type { Resource } from "../../auth/permissions";
import { builder } from "../builder";
import { isRowGone, notFound } from "../errors";
import { dropIgnoredNulls, inputType, withoutNulls, type FieldTable } from "../fields";
import { listComplexity, pageArgs, pageType } from "../page";
import { isUuid, teamIdOf } from "../scope";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "./report/lookup";
import type { EventType } from "../../webhooks/catalog";
import { recordEvent, withEvents, type Tx } from "../../webhooks/outbox";
import { restRecord } from "../fields";
import { needs } from "../needs";

/** The Prisma calls the items need (the model delegates differ only in their types). */
/* eslint-disable @typescript-eslint/no-explicit-any -- the arguments and rows of whichever model delegate (comparable, insight, post) */
interface Items {
  findFirst(args: any): Promise<any>;
  findMany(args: any): Promise<any[]>;
  count(args: any): Promise<number>;
  create(args: any): Promise<any>;
  update(args: any): Promise<any>;
  delete(args: any): Promise<any>;
  deleteMany(args: any): Promise<{ count: number }>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export interface ReportItemsSpec<T extends FieldTable> {
  /** The GraphQL object type, e.g. Comparable; mutations are create<Type>, update<Type>, delete<Type>. */
  type: "Comparable" | "AgentInsight" | "SocialMediaPost";
  /** The item in descriptions, e.g. agent insight. */
  noun: string;
  /** The query of one item (e.g. comparable) and of a report's items (e.g. comparables). */
  one: string;
  many: string;
  /** The permission resource, e.g. comparables. */
  resource: Resource;
  table: T;
  /** The model's delegate, of the transaction when one is given. */
  items: (tx?: Tx) => Items;
  /** The prefix of the webhook events its writes record (e.g. comparable: comparable.created …); none: no events. */
  events?: "comparable" | "insight";
  /** The 404 message of an unknown id, e.g. Comparable not found. */
  notFound: string;
  /** Values the service sets on create besides the input (e.g. an insight's default author). */
  defaults?: (teamId: string, ctx: Context) => Promise<Record<string, unknown>>;
  /** Whether items are created and updated one by one (false: written some other way, e.g. an import). */
  writable?: boolean;
  /** The order of a report's list (default: oldest first). */
  order?: { orderBy: readonly object[]; words: string };
  /** An optional filter argument of the list, e.g. platform. */
  filter?: { name: string; description: string; where: (value: string) => object };
}

export const oldestFirst = [{ createdAt: "asc" }, { id: "asc" }] as const;

/** Registers the queries and mutations of one kind of report item; returns its page type and create input. */
export function reportItems<T extends FieldTable>(spec: ReportItemsSpec<T>) {
  const { type, noun, resource, notFound: missing, filter } = spec;
  const order = spec.order ?? { orderBy: oldestFirst, words: "oldest first" };
  const Page = pageType<typeof type, Prisma.ComparableWhereInput & Prisma.AgentInsightWhereInput>(type, `One page of a report's ${noun}s, ${order.words}.`, {
    items: (query, page) => spec.items().findMany({ ...query, where: page.where, orderBy: [...order.orderBy], take: page.limit, skip: page.offset }),
    count: (where) => spec.items().count({ where }),
  });
  builder.queryFields((t) => ({
    [spec.one]: t.prismaField({
      type,
      ...needs(`${resource}:read`, `One ${noun} of the team by id; unknown ids give NOT_FOUND.`),
      args: { id: t.arg.id({ required: true, description: `The ${noun}'s id` }) },
      resolve: async (query, _root, { id }, ctx) => {
        const item = isUuid(String(id)) ? await spec.items().findFirst({ ...query, where: byId(String(id), teamIdOf(ctx)) }) : null;
        if (!item) throw notFound(missing);
        return item;
      },
    }),
    [spec.many]: t.field({
      type: Page,
      ...needs(`${resource}:read`, `The ${noun}s of one report of the team, ${order.words}.`),
      complexity: listComplexity,
      args: {
        reportId: t.arg.id({ required: true, description: "The report's id" }),
        ...(filter ? { [filter.name]: t.arg.string({ description: filter.description }) } : {}),
        ...pageArgs(t),
      },
      resolve: async (_root, args, ctx) => {
        const { reportId, limit, offset } = args;
        const teamId = teamIdOf(ctx);
        const value = filter ? (args as Record<string, unknown>)[filter.name] : undefined;
        const narrowed = filter && typeof value === "string" ? filter.where(value) : {};
        return { where: { teamId, reportId: await reportIdOfTeam(teamId, String(reportId)), ...narrowed }, limit, offset };
      },
    }),
  }));

  const CreateInput = spec.writable === false ? undefined : writes(spec, missing);

  builder.mutationFields((t) => ({
    [`delete${type}`]: t.id({
      ...needs(`${resource}:delete`, `Deletes a ${noun}. Returns its id.`),
      args: { id: t.arg.id({ required: true, description: `The ${noun}'s id` }) },
      resolve: async (_root, { id }, ctx) => {
        const teamId = teamIdOf(ctx);
        if (!isUuid(String(id))) throw notFound(missing);
        const { events } = spec;
        if (!events) {
          const { count } = await spec.items().deleteMany({ where: byId(String(id), teamId) });
          if (count === 0) throw notFound(missing);
          return id;
        }
        await orNotFound(
          withEvents(async (tx) => {
            const gone = await spec.items(tx).delete({ where: byId(String(id), teamId), select: { id: true, reportId: true } });
            await recordEvent(tx, teamId, `${events}.deleted`, { id: gone.id, report_id: gone.reportId });
          }),
          missing,
        );
        return id;
      },
    }),
  }));

  return { Page, CreateInput };
}

const byId = (id: string, teamId: string) => ({ id, teamId });

/** create<Type> and update<Type>; returns the create input (for bulk writes). */
function writes<T extends FieldTable>(spec: ReportItemsSpec<T>, missing: string) {
  const { type, noun, resource, table } = spec;
  const CreateInput = inputType(`Create${type}Input`, table, "create", `A new ${noun} of a report.`);
  const UpdateInput = inputType(`Update${type}Input`, table, "update", "Only the fields given are changed.");
  builder.mutationFields((t) => ({
    [`create${type}`]: t.prismaField({
      type,
      ...needs(`${resource}:create`, `Adds a ${noun} to a report of the team.`),
      args: {
        reportId: t.arg.id({ required: true, description: "The report's id" }),
        input: t.arg({ type: CreateInput, required: true, description: `The new ${noun}` }),
      },
      resolve: async (query, _root, args, ctx) => {
        const { reportId, input } = args as unknown as { reportId: string; input: object };
        const teamId = teamIdOf(ctx);
        const report = await reportIdOfTeam(teamId, String(reportId));
        const data = { ...(await spec.defaults?.(teamId, ctx)), ...withoutNulls(input), reportId: report, teamId };
        return orNotFound(written(spec, teamId, "created", (tx) => spec.items(tx).create({ ...query, data })), REPORT_NOT_FOUND);
      },
    }),
    [`update${type}`]: t.prismaField({
      type,
      ...needs(`${resource}:update`, `Changes the given fields of a ${noun}.`),
      args: {
        id: t.arg.id({ required: true, description: `The ${noun}'s id` }),
        input: t.arg({ type: UpdateInput, required: true, description: "The fields to change" }),
      },
      resolve: async (query, _root, args, ctx) => {
        const { id, input } = args as unknown as { id: string; input: object };
        if (!isUuid(String(id))) throw notFound(missing);
        const data = dropIgnoredNulls(table, input);
        const teamId = teamIdOf(ctx);
        return orNotFound(written(spec, teamId, "updated", (tx) => spec.items(tx).update({ ...query, where: byId(String(id), teamId), data })), missing);
      },
    }),
  }));
  return CreateInput;
}

/** Runs a create or update and, when the items have events, records `<prefix>.<change>` with the item as REST shows it. */
async function written<T extends FieldTable, R extends { id: string }>(
  spec: ReportItemsSpec<T>,
  teamId: string,
  change: "created" | "updated",
  write: (tx?: Tx) => Promise<R>,
): Promise<R> {
  const { events } = spec;
  if (!events) return write();
  return withEvents(async (tx) => {
    const row = await write(tx);
    await recordEvent(tx, teamId, `${events}.${change}` as EventType, await itemRecord(spec, tx, row.id));
    return row;
  });
}

/** One item as its REST GET shows it (the webhook payload). */
export async function itemRecord<T extends FieldTable>(spec: Pick<ReportItemsSpec<T>, "items" | "table">, tx: Tx, id: string): Promise<Record<string, unknown>> {
  return restRecord(spec.table, await spec.items(tx).findFirst({ where: { id } }));
}

/**
 * A write whose target row is gone (deleted meanwhile, or never there) answers 404 with `message`: Prisma's own
 * "not found" and foreign-key errors, and a raw statement's foreign-key violation (SQLSTATE 23503: the report it
 * pointed at was deleted meanwhile).
 */
export async function orNotFound<T>(write: Promise<T>, message: string): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isRowGone(err) || isRawForeignKeyViolation(err)) throw notFound(message);
    throw err;
  }
}

/** Prisma's "raw query failed" (P2010) carrying the driver's foreign-key violation. */
function isRawForeignKeyViolation(err: unknown): boolean {
  const { code, meta } = (err ?? {}) as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } };
  const cause = meta?.driverAdapterError?.cause;
  return code === "P2010" && (cause?.kind === "ForeignKeyConstraintViolation" || cause?.originalCode === "23503");
}

/**
 * Holds the team's report row for the rest of the write's transaction (FOR NO KEY UPDATE: another such write of the
 * report, an update of the report and its delete wait until this one commits; adding showings or other items to it
 * does not), or answers 404 `Report not found` when it is gone.
 */
export async function lockReport(tx: Tx, reportId: string, teamId: string): Promise<void> {
  const held = await tx.$queryRaw<unknown[]>`SELECT 1 FROM reports WHERE id = ${reportId}::uuid AND team_id = ${teamId}::uuid FOR NO KEY UPDATE`;
  if (held.length === 0) throw notFound(REPORT_NOT_FOUND);
}
