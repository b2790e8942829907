// Webhook endpoints' rules shared by webhooks and CRM destinations (rows of one table, ../crm): finding a team's
// endpoint, checking a URL and the fields of a change, the cap per team, redelivery, and changes recorded in the audit log.
import { changesOf, recordAudit } from "../../../audit/log";
import type { Context } from "../../../context";
import { config } from "../../../config";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { isEventType } from "../../../webhooks/catalog";
import { checkHost, PrivateAddressError } from "../../../webhooks/address";
import { withEvents, type Tx } from "../../../webhooks/outbox";
import { z } from "zod";
import { type ArgBuilder } from "../../builder";
import { badField, badInput, conflict, notFound } from "../../errors";
import { checked, hasInvalidCharacters, text } from "../../rules";
import { isUuid } from "../../scope";
import { DELIVERY_NOT_FOUND, DELIVERY_STATUSES, WEBHOOK_NOT_FOUND } from "./object";

/** Only webhooks: CRM destinations (../crm) are rows of the same table with another kind. */
export const WEBHOOK_KIND = { kind: "webhook" } as const;

/** The rows of the endpoints table a lookup sees (webhooks, or CRM destinations: ../crm), and its 404's message. */
export interface EndpointsOfKind {
  where: Prisma.WebhookEndpointWhereInput;
  notFound: string;
}

export const WEBHOOKS: EndpointsOfKind = { where: WEBHOOK_KIND, notFound: WEBHOOK_NOT_FOUND };

/** The team's row `id` among `rows`, as `read` reads it with the `where` it is given, or the kind's 404. */
export async function ofTeam<T>(rows: EndpointsOfKind, teamId: string, id: string, read: (where: Prisma.WebhookEndpointWhereInput) => Promise<T | null>): Promise<T> {
  const found = isUuid(id) ? await read({ id, teamId, ...rows.where }) : null;
  if (!found) throw notFound(rows.notFound);
  return found;
}

/** The team's webhook `id`, or a 404 (CRM destinations, rows of the same table, are not webhooks: ../crm). */
export const endpointOfTeam = (teamId: string, id: string) =>
  ofTeam(WEBHOOKS, teamId, id, (where) => prisma.webhookEndpoint.findFirst({ where, select: { id: true, enabled: true } }));

/** An endpoint's URL, trimmed: http(s), at most 2,000 characters, its host resolving to public addresses (or a 400 naming `input.url`). */
export async function checkedEndpointUrl(value: string): Promise<string> {
  const url = value.trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    /* not a URL */
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || url.length > 2000) throw badField(["input", "url"], "must be an http or https URL of at most 2,000 characters");
  try {
    await checkHost(parsed.hostname);
  } catch (err) {
    // The way out for a receiver on this machine or network, named where the refusal is read (docs/api.md "Webhooks").
    if (err instanceof PrivateAddressError) throw badField(["input", "url"], `is refused: ${err.message} (for local development, start the server with WEBHOOK_ALLOW_PRIVATE_URLS=true)`);
    throw badField(["input", "url"], `is refused: its host ${parsed.hostname} does not resolve`);
  }
  return url;
}

/** Checks an endpoint's fields; the URL's host must resolve to public addresses (src/webhooks/address.ts). */
export async function checkedFields(input: { url?: string | null; events?: string[] | null; description?: string | null; enabled?: boolean | null }) {
  const data: Prisma.WebhookEndpointUpdateInput = {};
  for (const name of ["url", "description"] as const) {
    const value = input[name];
    if (typeof value === "string" && hasInvalidCharacters(value)) throw badField(["input", name], "contains invalid characters");
  }
  if (input.url != null) data.url = await checkedEndpointUrl(input.url);
  else if (input.url === null) throw badField(["input", "url"], "must not be null");
  if (input.events != null) {
    const events = [...new Set(input.events)];
    if (events.length === 0) throw badField(["input", "events"], 'must list at least one event type, or ["*"]');
    const unknown = events.find((type) => type !== "*" && !isEventType(type));
    if (unknown !== undefined) throw badField(["input", "events"], `has an unknown event type '${unknown.slice(0, 100)}' (see GET /v1/webhooks/event-types)`);
    data.events = events.includes("*") ? ["*"] : events;
  } else if (input.events === null) throw badField(["input", "events"], "must not be null");
  return describedAndEnabled(input, data);
}

/**
 * The fields every kind of endpoint takes alike (webhooks, CRM destinations), added to `data`: its description (at
 * most 1,000 characters; null clears it) and whether it is enabled (enabling clears disabledReason).
 */
export function describedAndEnabled<Data extends Prisma.WebhookEndpointUpdateManyMutationInput>(input: { description?: string | null; enabled?: boolean | null }, data: Data): Data {
  if (input.description !== undefined) {
    if (input.description !== null && input.description.length > 1000) throw badField(["input", "description"], "must be at most 1000 characters");
    data.description = input.description;
  }
  if (input.enabled === null) throw badField(["input", "enabled"], "must not be null");
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.enabled === true) data.disabledReason = null;
  return data;
}

/**
 * Runs `create` unless the team already holds MAX_WEBHOOKS_PER_TEAM endpoints (400). The count and the insert run in
 * one transaction holding the team's row lock, so creates arriving together (aliased in one request, or through
 * several processes) are counted one after another and never pass the cap.
 */
export async function withinEndpointCap<T>(teamId: string, create: (tx: Tx) => Promise<T>): Promise<T> {
  const max = config.MAX_WEBHOOKS_PER_TEAM;
  return prisma.$transaction(
    async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`;
      if ((await tx.webhookEndpoint.count({ where: { teamId, ...WEBHOOK_KIND } })) >= max) throw badInput(`Webhook limit reached: a team holds at most ${max} endpoints`);
      return create(tx);
    },
    // Prisma's own limits (2 s to start, 5 s in all) would be tighter than the service's time budget.
    { maxWait: config.DB_TIMEOUT_MS, timeout: 2 * config.DB_TIMEOUT_MS },
  );
}

/**
 * Makes the event's next attempt to the endpoint due now: the retry already waiting, when there is one no process is
 * sending (so a redelivery never adds a second attempt beside the retry, and the event is not sent again by that
 * retry later); otherwise a new attempt.
 */
async function attemptNow(tx: Tx, teamId: string, eventId: string, endpointId: string): Promise<{ id: string }> {
  const now = new Date();
  const waiting = await tx.webhookDelivery.findFirst({
    where: { eventId, endpointId, status: "pending", OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    select: { id: true },
  });
  if (waiting) return tx.webhookDelivery.update({ where: { id: waiting.id }, data: { nextAttemptAt: now }, select: { id: true } });
  const last = await tx.webhookDelivery.aggregate({ where: { eventId, endpointId }, _max: { attempt: true } });
  return tx.webhookDelivery.create({ data: { teamId, eventId, endpointId, attempt: (last._max.attempt ?? 0) + 1, nextAttemptAt: now }, select: { id: true } });
}

/** The next attempt of a delivery's event to the endpoint (a webhook or a CRM destination), due now (see attemptNow). */
export async function redeliver(teamId: string, endpoint: { id: string; enabled: boolean }, deliveryId: string): Promise<{ id: string }> {
  if (!endpoint.enabled) throw conflict("Webhook is disabled; enable it first");
  const delivery = isUuid(deliveryId) ? await prisma.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: endpoint.id, teamId }, select: { eventId: true } }) : null;
  if (!delivery) throw notFound(DELIVERY_NOT_FOUND);
  return withEvents((tx) => attemptNow(tx, teamId, delivery.eventId, endpoint.id));
}

/** The arguments that filter an endpoint's delivery attempts (webhooks' and CRM destinations' logs alike). */
export const deliveryFilterArgs = (t: { arg: ArgBuilder }) => ({
  status: t.arg.string({ description: `Only attempts in this status: ${DELIVERY_STATUSES.join(", ")}`, validate: checked(z.enum(DELIVERY_STATUSES).nullish()) }),
  eventType: t.arg.string({ description: "Only attempts sending events of this type", validate: checked(text(100).nullish()) }),
});

/** The page of an endpoint's attempts, filtered. */
export const deliveryPage = (teamId: string, endpointId: string, a: { status?: string | null; eventType?: string | null; limit: number; offset: number }) => ({
  where: { endpointId, teamId, ...(a.status ? { status: a.status } : {}), ...(a.eventType ? { event: { type: a.eventType } } : {}) } as Prisma.WebhookDeliveryWhereInput,
  limit: a.limit,
  offset: a.offset,
});

/** An endpoint row's fields the audit log may show (never its secrets or key). */
export const AUDITED = { kind: true, url: true, events: true, description: true, enabled: true, disabledReason: true } as const;
export type AuditedRow = Prisma.WebhookEndpointGetPayload<{ select: typeof AUDITED }>;
/** A webhook's recorded fields under their REST names. */
export const auditFields = (e: AuditedRow) => ({
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
});

/** How the rows of one kind of endpoint (webhooks, CRM destinations) are found and audited. */
export interface EndpointAudit {
  /** The rows of this kind. */
  kind: Prisma.WebhookEndpointWhereInput;
  /** The audit target type; its actions are `<target>.updated` and `<target>.deleted`. */
  target: "webhook" | "crm_destination";
  fields: (row: AuditedRow) => Record<string, unknown>;
}
export const WEBHOOK_AUDIT: EndpointAudit = { kind: WEBHOOK_KIND, target: "webhook", fields: auditFields };

/**
 * Changes the team's endpoint `id` and records it in the audit log when a recorded field changed, or `changed` says
 * something unrecorded did (one transaction). Disabling is an update with enabled false. False when it is gone.
 */
export async function updateAudited(ctx: Context, teamId: string, id: string, data: Prisma.WebhookEndpointUpdateManyMutationInput, audit: EndpointAudit, changed?: Record<string, unknown>): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const where = { id, teamId, ...audit.kind };
    const before = await tx.webhookEndpoint.findFirst({ where, select: AUDITED });
    const { count } = await tx.webhookEndpoint.updateMany({ where, data });
    const after = count ? await tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: AUDITED }) : null;
    if (before && after && (changed || Object.keys(changesOf(audit.target, audit.fields(before), audit.fields(after))).length)) {
      const action = `${audit.target}.updated` as const;
      await recordAudit(tx, ctx, { teamId, action, target: { type: audit.target, id }, before: audit.fields(before), after: { ...audit.fields(after), ...changed } });
    }
    return count > 0;
  });
}

/** Deletes the team's endpoint `id` (its delivery log goes with it) and records it in the audit log. False when there was none. */
export async function deleteAudited(ctx: Context, teamId: string, id: string, audit: EndpointAudit): Promise<boolean> {
  if (!isUuid(id)) return false;
  return prisma.$transaction(async (tx) => {
    const where = { id, teamId, ...audit.kind };
    const before = await tx.webhookEndpoint.findFirst({ where, select: AUDITED });
    const { count } = await tx.webhookEndpoint.deleteMany({ where });
    const action = `${audit.target}.deleted` as const;
    if (count && before) await recordAudit(tx, ctx, { teamId, action, target: { type: audit.target, id }, before: audit.fields(before), after: null });
    return count > 0;
  });
}
