// The team's audit log, read-only (docs/api.md "Audit log"): a Relay-style connection, newest
// first, filtered by action, acting key, target and time range. Entries are written by the mutations themselves
// (src/audit/log.ts); no field of this schema changes or deletes one.
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from "../../audit/log";
import { prisma } from "../../db";
import type { AuditLogEntry, Prisma } from "../../generated/prisma/client";
import { builder } from "../builder";
import { badFields, badInput } from "../errors";
import { intBetween } from "../rules";
import { isUuid, teamIdOf } from "../scope";
import { needs } from "../needs";
import type { PageInfoShape } from "../connection";
import { valueObject } from "../value-object";

/** "a, b or c". */
const inWords = (list: readonly string[]): string => `${list.slice(0, -1).join(", ")} or ${list[list.length - 1]}`;

const Actor = builder.objectRef<AuditLogEntry>("AuditActor").implement({
  description: "Who made a change: a request's API key (as the key was then), or the prs command line.",
  fields: (t) => ({
    type: t.exposeString("actorType", { description: inWords(AUDIT_ACTOR_TYPES) }),
    keyId: t.exposeID("actorKeyId", { nullable: true, description: "The key's id (null for the command line)" }),
    keyName: t.exposeString("actorKeyName", { nullable: true, description: "The key's name at the time" }),
    keyPrefix: t.exposeString("actorKeyPrefix", { nullable: true, description: "The key's display prefix" }),
  }),
});

const Target = builder.objectRef<AuditLogEntry>("AuditTarget").implement({
  description: "What a change was made to.",
  fields: (t) => ({
    type: t.exposeString("targetType", { description: inWords(AUDIT_TARGET_TYPES) }),
    id: t.exposeID("targetId", { description: "Its id" }),
  }),
});

const Entry = builder.prismaObject("AuditLogEntry", {
  description: "One change to the team's access or configuration. Entries are never changed or deleted (kept AUDIT_RETENTION_DAYS, default 365).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The entry's id" }),
    action: t.exposeString("action", { description: `What happened: ${AUDIT_ACTIONS.join(", ")}` }),
    actor: t.field({ type: Actor, description: "Who did it", resolve: (entry) => entry }),
    target: t.field({ type: Target, description: "What it was done to", resolve: (entry) => entry }),
    changes: t.expose("changes", { type: "JSON", description: "{ field: { before, after } } of the changed fields; never a secret or token" }),
    ip: t.exposeString("ip", { nullable: true, description: "The client's address (null for the command line)" }),
    requestId: t.exposeString("requestId", { nullable: true, description: "The request's X-Request-Id (null for the command line)" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When" }),
  }),
});

interface Slice {
  where: Prisma.AuditLogEntryWhereInput;
  /** Offset of the first entry of the slice in the whole filtered list, and how many it holds at most. */
  start: number;
  take: number;
  total: number;
}

// Cursors are positions in the filtered list, newest first (as graphql-relay's array connections): opaque to clients,
// and what REST's offset maps to (src/rest/audit-log.ts).
const CURSOR_PREFIX = "audit:";
export const auditCursor = (position: number): string => Buffer.from(`${CURSOR_PREFIX}${position}`).toString("base64url");
function positionOf(cursor: string, name: string): number {
  const text = Buffer.from(cursor, "base64url").toString();
  const position = text.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(position) || position < 0 || auditCursor(position) !== cursor) {
    throw badFields((nameOf) => `${nameOf([name])} is not a cursor of this list`, [name]);
  }
  return position;
}

const Edge = builder.objectRef<{ node: AuditLogEntry; cursor: string }>("AuditLogEdge").implement({
  description: "An entry and its cursor.",
  fields: (t) => ({
    cursor: t.exposeString("cursor", { description: "Pass as after (or before) to page on from here" }),
    node: t.field({ type: Entry, description: "The entry", resolve: (edge) => edge.node }),
  }),
});

const PageInfo = valueObject<PageInfoShape>("AuditLogPageInfo", "Where a page of the audit log is in the whole list (Relay).", {
  hasNextPage: ["Boolean", "Older entries follow"],
  hasPreviousPage: ["Boolean", "Newer entries precede"],
  startCursor: ["String", "The first edge's cursor", "nullable"],
  endCursor: ["String", "The last edge's cursor", "nullable"],
});

const ORDER: Prisma.AuditLogEntryOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

const Connection = builder.objectRef<Slice>("AuditLogConnection").implement({
  description: "A page of the team's audit log, newest first.",
  fields: (t) => ({
    edges: t.field({
      type: [Edge],
      description: "The entries of this page",
      complexity: { field: 0, multiplier: 1 },
      resolve: async ({ where, start, take }) => {
        const rows = take > 0 ? await prisma.auditLogEntry.findMany({ where, orderBy: ORDER, skip: start, take }) : [];
        return rows.map((node, i) => ({ node, cursor: auditCursor(start + i) }));
      },
    }),
    pageInfo: t.field({
      type: PageInfo,
      description: "Where this page is",
      resolve: ({ start, take, total }) => {
        const end = Math.min(start + take, total);
        const any = end > start;
        return { hasPreviousPage: start > 0, hasNextPage: end < total, startCursor: any ? auditCursor(start) : null, endCursor: any ? auditCursor(end - 1) : null };
      },
    }),
    totalCount: t.exposeInt("total", { description: "Entries matching the filters" }),
  }),
});

builder.queryField("auditLog", (t) =>
  t.field({
    type: Connection,
    ...needs("audit_log:read", "The team's audit log, newest first: every key created, rolled and revoked, webhook endpoint created, changed, deleted and secret rotated, share link made and revoked, report deleted. Page with first/after or last/before (1 to 100; default first 50)."),
    complexity: (args) => ({ field: 2 + (args.first ?? args.last ?? 50), multiplier: args.first ?? args.last ?? 50 }),
    args: {
      first: t.arg.int({ description: "Entries after `after` (1 to 100)", validate: intBetween(1, 100) }),
      after: t.arg.string({ description: "A cursor: the page starts after it" }),
      last: t.arg.int({ description: "Entries before `before` (1 to 100)", validate: intBetween(1, 100) }),
      before: t.arg.string({ description: "A cursor: the page ends before it" }),
      action: t.arg.string({ description: `Only this action (${AUDIT_ACTIONS.join(", ")})` }),
      actorKeyId: t.arg.id({ description: "Only changes made with this key" }),
      targetId: t.arg.id({ description: "Only changes to this object" }),
      from: t.arg({ type: "DateTime", description: "Only entries at or after this instant" }),
      to: t.arg({ type: "DateTime", description: "Only entries before this instant" }),
    },
    resolve: async (_root, args, ctx) => {
      const where = filterOf(teamIdOf(ctx), args);
      const total = await prisma.auditLogEntry.count({ where });
      return { where, total, ...window(args, total) };
    },
  }),
);

builder.queryField("auditActions", (t) =>
  t.stringList({
    ...needs("audit_log:read", "The actions an audit log entry can have (auditLog's action filter takes one)."),
    resolve: () => [...AUDIT_ACTIONS],
  }),
);

interface Filters {
  action?: string | null;
  actorKeyId?: string | number | null;
  targetId?: string | number | null;
  from?: Date | null;
  to?: Date | null;
}

function filterOf(teamId: string, { action, actorKeyId, targetId, from, to }: Filters): Prisma.AuditLogEntryWhereInput {
  if (action != null && !(AUDIT_ACTIONS as readonly string[]).includes(action)) badAction(action);
  if (actorKeyId != null && !isUuid(String(actorKeyId))) throw badFields((nameOf) => `${nameOf(["actorKeyId"])} must be a key id (a UUID)`, ["actorKeyId"]);
  if (from && to && from > to) throw badInput("from must not be after to");
  return {
    teamId,
    ...(action != null ? { action } : {}),
    ...(actorKeyId != null ? { actorKeyId: String(actorKeyId) } : {}),
    ...(targetId != null ? { targetId: String(targetId) } : {}),
    ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } } : {}),
  };
}

const badAction = (action: string): never => {
  throw badInput(`action '${action.slice(0, 100)}' is not one of ${AUDIT_ACTIONS.join(", ")}`);
};

/** The positions a page covers: first/after count forward, last/before backward (Relay), within [0, total). */
function window(args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null }, total: number) {
  if (args.first != null && args.last != null) throw badInput("Give first or last, not both");
  const after = args.after != null ? positionOf(args.after, "after") + 1 : 0;
  const before = args.before != null ? Math.min(positionOf(args.before, "before"), total) : total;
  const from = Math.min(after, before);
  if (args.last != null) {
    const start = Math.max(from, before - args.last);
    return { start, take: before - start };
  }
  return { start: from, take: Math.min(args.first ?? 50, before - from) };
}
