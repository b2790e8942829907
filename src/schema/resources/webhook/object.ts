// Webhooks (docs/api.md "Webhooks"): a team's endpoints, the events its changes recorded and the delivery attempts,
// with their queries and mutations. Events are recorded by the mutations that make changes (src/webhooks/outbox.ts);
// the worker (src/webhooks/worker.ts) sends them.
import { openSealedFields } from "../../../attendees/crypto";
import { randomBytes } from "node:crypto";
import { changesOf, recordAudit } from "../../../audit/log";
import type { Context } from "../../../context";
import { config } from "../../../config";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { EVENT_TYPES, isEventType } from "../../../webhooks/catalog";
import { MAX_CRM_DESTINATIONS } from "../../../webhooks/crm";
import { checkHost, PrivateAddressError } from "../../../webhooks/address";
import { recordEvent, withEvents, type Tx } from "../../../webhooks/outbox";
import { z } from "zod";
import { builder, type ArgBuilder } from "../../builder";
import { badField, badInput, conflict, notFound } from "../../errors";
import { pageArgs, pageType } from "../../page";
import { checked, hasInvalidCharacters, text } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { needs } from "../../needs";

export const WEBHOOK_NOT_FOUND = "Webhook not found";
export const EVENT_NOT_FOUND = "Event not found";
export const DELIVERY_NOT_FOUND = "Delivery not found";
/** A delivery attempt's statuses (docs/api.md "Webhooks", the delivery record). */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "retrying"] as const;
/** How long the previous secret keeps signing after a rotation. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** `whsec_` and the base64 of 32 random bytes (the Standard Webhooks secret format). */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

builder.prismaObject("WebhookEndpoint", {
  description: "Where the team's events are sent (signed per Standard Webhooks). The secret is shown only on create and rotate.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The endpoint's id (a UUID)" }),
    url: t.exposeString("url", { description: "The http(s) URL events are POSTed to" }),
    events: t.exposeStringList("events", { description: 'The event types sent to it, or ["*"] for all' }),
    description: t.exposeString("description", { nullable: true, description: "What it is for" }),
    enabled: t.exposeBoolean("enabled", { description: "Whether events are sent to it" }),
    disabledReason: t.exposeString("disabledReason", { nullable: true, description: "Why the service disabled it (the endpoint answered 410 Gone)" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed" }),
  }),
});

const EventObject = builder.prismaObject("WebhookEvent", {
  description: "Something that happened in the team, as sent to endpoints (kept 30 days).",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The event's id (evt_…), sent as webhook-id" }),
    type: t.exposeString("type", { description: "The event type" }),
    // Attendee fields are stored encrypted in the event and opened here (docs/data-protection.md).
    data: t.field({ type: "JSON", description: "The resource as its REST GET returns it, or { id } for a deletion", select: { data: true }, resolve: (e) => openSealedFields(e.data) }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it happened" }),
  }),
});

export const DeliveryObject = builder.prismaObject("WebhookDelivery", {
  description: "One attempt to send an event to an endpoint.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The attempt's id (a UUID)" }),
    eventId: t.exposeString("eventId", { description: "The event sent" }),
    eventType: t.string({ description: "The event's type", select: { event: { select: { type: true } } }, resolve: (d) => d.event.type }),
    endpointId: t.exposeID("endpointId", { description: "The endpoint it went to" }),
    attempt: t.exposeInt("attempt", { description: "1 for the first attempt, then each retry or redelivery" }),
    status: t.exposeString("status", { description: "pending, succeeded, failed (no retry left) or retrying (failed; the next attempt is pending)" }),
    responseStatus: t.exposeInt("responseStatus", { nullable: true, description: "The receiver's HTTP status" }),
    durationMs: t.exposeInt("durationMs", { nullable: true, description: "How long the attempt took" }),
    requestHeaders: t.field({
      type: "JSON",
      nullable: true,
      description: "The HTTP headers the attempt sent (an Authorization header redacted); null until it is sent",
      select: { requestHeaders: true },
      resolve: (d) => d.requestHeaders as Record<string, string> | null,
    }),
    responseBody: t.exposeString("responseBody", { nullable: true, description: "The first 1,024 bytes of the receiver's answer, as text; null until it answers" }),
    error: t.exposeString("error", { nullable: true, description: "Why it failed" }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the attempt was scheduled" }),
    sentAt: t.expose("sentAt", { type: "DateTime", nullable: true, description: "When the attempt was sent (the last try, after a process that took it stopped); null while it waits" }),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "DateTime", nullable: true, description: "When a pending attempt is due" }),
  }),
});

/** Where an event stands at one endpoint, from its attempts (docs/api.md "Webhooks", the delivery log by event). */
export const EVENT_DELIVERY_STATES = ["pending", "retrying", "delivered", "failed"] as const;
type EventDeliveryState = (typeof EVENT_DELIVERY_STATES)[number];
type Attempt = Prisma.WebhookDeliveryGetPayload<object>;

/**
 * An attempt waits: `retrying` when an earlier one failed and none succeeded, else `pending` (the first attempt, or a
 * redelivery of an event the endpoint already received); none waits: `delivered` when one succeeded, else `failed`.
 */
export function stateOf(attempts: Pick<Attempt, "status">[]): EventDeliveryState {
  const succeeded = attempts.some((a) => a.status === "succeeded");
  if (attempts.some((a) => a.status === "pending")) return !succeeded && attempts.some((a) => a.status === "retrying" || a.status === "failed") ? "retrying" : "pending";
  return succeeded ? "delivered" : "failed";
}

/** The events (of an endpoint) in `state`, as a filter on their attempts to that endpoint. */
function stateWhere(endpointId: string, state: EventDeliveryState): Prisma.WebhookEventWhereInput {
  const pending = { endpointId, status: "pending" };
  const succeeded = { endpointId, status: "succeeded" };
  const missed = { endpointId, status: { in: ["retrying", "failed"] } };
  switch (state) {
    case "delivered":
      return { AND: [{ deliveries: { some: succeeded } }, { deliveries: { none: pending } }] };
    case "failed":
      return { AND: [{ deliveries: { none: pending } }, { deliveries: { none: succeeded } }] };
    case "retrying":
      return { AND: [{ deliveries: { some: pending } }, { deliveries: { some: missed } }, { deliveries: { none: succeeded } }] };
    case "pending":
      return { AND: [{ deliveries: { some: pending } }, { OR: [{ deliveries: { none: missed } }, { deliveries: { some: succeeded } }] }] };
  }
}

interface EventDelivery {
  endpointId: string;
  event: Prisma.WebhookEventGetPayload<object>;
  attempts: Attempt[];
}

const EventDeliveryRef = builder.objectRef<EventDelivery>("WebhookEventDelivery").implement({
  description: "One event sent to one endpoint: its attempts, oldest first, and where it stands.",
  fields: (t) => ({
    endpointId: t.exposeID("endpointId", { description: "The endpoint" }),
    event: t.field({ type: EventObject, description: "The event", resolve: (d) => d.event }),
    state: t.string({
      description: "pending (an attempt waits: the first, or a redelivery), retrying (an attempt failed; the next waits until nextAttemptAt), delivered (an attempt succeeded) or failed (no attempt succeeded and none is left)",
      resolve: (d) => stateOf(d.attempts),
    }),
    nextAttemptAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the waiting attempt is due (pending or retrying)",
      resolve: (d) => d.attempts.find((a) => a.status === "pending")?.nextAttemptAt ?? null,
    }),
    // The first, one per retry of WEBHOOK_RETRY_SCHEDULE, and a few redeliveries: priced as such, not as a page of 100
    // (the bounds on the answer while it is built hold whatever the count).
    attempts: t.field({
      type: [DeliveryObject],
      description: "Every attempt, oldest first",
      complexity: { field: 1, multiplier: config.WEBHOOK_RETRY_SCHEDULE.length + 3 },
      resolve: (d) => d.attempts,
    }),
  }),
});

/** Events with their attempts to `endpointId` (or to every endpoint), newest first. */
async function eventDeliveries(where: Prisma.WebhookEventWhereInput, endpointId: string, page: { limit: number; offset: number }): Promise<EventDelivery[]> {
  const events = await prisma.webhookEvent.findMany({
    where,
    orderBy: [...newestFirst],
    take: page.limit,
    skip: page.offset,
    include: { deliveries: { where: { endpointId }, orderBy: [{ attempt: "asc" }, { createdAt: "asc" }] } },
  });
  return events.map(({ deliveries, ...event }) => ({ endpointId, event, attempts: deliveries }));
}

builder.objectField(EventObject, "deliveries", (t) =>
  t.field({
    type: [EventDeliveryRef],
    description: "Its delivery to each endpoint it was sent to (oldest endpoint first), with the attempts",
    // One per endpoint of the team at most (webhooks and CRM destinations), not a page of 100.
    complexity: { field: 1, multiplier: config.MAX_WEBHOOKS_PER_TEAM + MAX_CRM_DESTINATIONS },
    resolve: async (event) => {
      const attempts = await prisma.webhookDelivery.findMany({ where: { eventId: event.id, teamId: event.teamId }, orderBy: [{ attempt: "asc" }, { createdAt: "asc" }] });
      const byEndpoint = new Map<string, Attempt[]>();
      for (const a of attempts) byEndpoint.set(a.endpointId, [...(byEndpoint.get(a.endpointId) ?? []), a]);
      return [...byEndpoint].map(([endpointId, list]) => ({ endpointId, event, attempts: list }));
    },
  }),
);

const EventDeliveryPage = builder.objectRef<{ where: Prisma.WebhookEventWhereInput; endpointId: string; limit: number; offset: number }>("WebhookEventDeliveryPage").implement({
  description: "One page of the events sent to an endpoint, newest first, each with its attempts.",
  fields: (t) => ({
    items: t.field({ type: [EventDeliveryRef], description: "The items of this page", complexity: { field: 0, multiplier: 1 }, resolve: (p) => eventDeliveries(p.where, p.endpointId, p) }),
    total: t.int({ description: "Items in the whole list", resolve: (p) => prisma.webhookEvent.count({ where: p.where }) }),
    limit: t.exposeInt("limit", { description: "Page size" }),
    offset: t.exposeInt("offset", { description: "Items skipped" }),
  }),
});

const EventTypeRef = builder.objectRef<{ type: string; description: string }>("WebhookEventType").implement({
  description: "An event type endpoints can subscribe to.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "Its name, e.g. report.published" }),
    description: t.exposeString("description", { description: "When it is sent and what its data holds" }),
  }),
});

const CreatedEndpoint = builder.objectRef<{ endpoint: { id: string }; secret: string }>("WebhookEndpointWithSecret").implement({
  description: "An endpoint with its signing secret: shown only now.",
  fields: (t) => ({
    endpoint: t.prismaField({ type: "WebhookEndpoint", description: "The endpoint", resolve: (query, parent) => prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.endpoint.id } }) }),
    secret: t.exposeString("secret", { description: "whsec_… : verify signatures with it (e.g. the standardwebhooks package)" }),
  }),
});

const newestFirst = [{ createdAt: "desc" }, { id: "desc" }] as const;

const EndpointPage = pageType<"WebhookEndpoint", Prisma.WebhookEndpointWhereInput>("WebhookEndpoint", "One page of the team's webhook endpoints, oldest first.", {
  items: (query, page) => prisma.webhookEndpoint.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookEndpoint.count({ where }),
});
const EventPage = pageType<"WebhookEvent", Prisma.WebhookEventWhereInput>("WebhookEvent", "One page of the team's events, newest first.", {
  items: (query, page) => prisma.webhookEvent.findMany({ ...query, where: page.where, orderBy: [...newestFirst], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookEvent.count({ where }),
});
export const DeliveryPage = pageType<"WebhookDelivery", Prisma.WebhookDeliveryWhereInput>("WebhookDelivery", "One page of an endpoint's delivery attempts, newest first.", {
  items: (query, page) => prisma.webhookDelivery.findMany({ ...query, where: page.where, orderBy: [...newestFirst], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookDelivery.count({ where }),
});

/** Only webhooks: CRM destinations (../crm) are rows of the same table with another kind. */
const WEBHOOK_KIND = { kind: "webhook" } as const;

/** The team's webhook `id`, or a 404 (CRM destinations, rows of the same table, are not webhooks: ../crm). */
export async function endpointOfTeam(teamId: string, id: string) {
  const endpoint = isUuid(id) ? await prisma.webhookEndpoint.findFirst({ where: { id, teamId, ...WEBHOOK_KIND }, select: { id: true, enabled: true } }) : null;
  if (!endpoint) throw notFound(WEBHOOK_NOT_FOUND);
  return endpoint;
}

const CreateInput = builder.inputType("CreateWebhookEndpointInput", {
  description: "A new endpoint.",
  fields: (t) => ({
    url: t.string({ required: true, description: "http(s) URL, at most 2,000 characters, on a public address" }),
    events: t.stringList({ required: true, description: 'Event types (GET /v1/webhooks/event-types), or ["*"] for all' }),
    description: t.string({ description: "What it is for (at most 1,000 characters)" }),
    enabled: t.boolean({ description: "Whether events are sent to it (default true)" }),
  }),
});
const UpdateInput = builder.inputType("UpdateWebhookEndpointInput", {
  description: "Only the fields given are changed.",
  fields: (t) => ({
    url: t.string({ description: "http(s) URL, at most 2,000 characters, on a public address" }),
    events: t.stringList({ description: 'Event types, or ["*"] for all' }),
    description: t.string({ description: "What it is for (null clears it)" }),
    enabled: t.boolean({ description: "Whether events are sent to it; enabling clears disabledReason" }),
  }),
});

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
async function checkedFields(input: { url?: string | null; events?: string[] | null; description?: string | null; enabled?: boolean | null }) {
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
async function withinEndpointCap<T>(teamId: string, create: (tx: Tx) => Promise<T>): Promise<T> {
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

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: EndpointPage,
    ...needs("webhooks:read", "The team's webhook endpoints."),
    args: pageArgs(t),
    resolve: (_root, { limit, offset }, ctx) => ({ where: { teamId: teamIdOf(ctx), ...WEBHOOK_KIND }, limit, offset }),
  }),
  webhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    ...needs("webhooks:read", "One endpoint of the team."),
    args: { id: t.arg.id({ required: true, description: "The endpoint's id" }) },
    resolve: async (query, _root, { id }, ctx) => {
      const found = isUuid(String(id)) ? await prisma.webhookEndpoint.findFirst({ ...query, where: { id: String(id), teamId: teamIdOf(ctx), ...WEBHOOK_KIND } }) : null;
      if (!found) throw notFound(WEBHOOK_NOT_FOUND);
      return found;
    },
  }),
  webhookDeliveries: t.field({
    type: DeliveryPage,
    ...needs("webhooks:read", "An endpoint's delivery attempts, newest first, optionally only those of a status and an event type."),
    args: {
      endpointId: t.arg.id({ required: true, description: "The endpoint's id" }),
      ...deliveryFilterArgs(t),
      ...pageArgs(t),
    },
    resolve: async (_root, { endpointId, status, eventType, limit, offset }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(endpointId));
      return deliveryPage(teamId, endpoint.id, { status, eventType, limit, offset });
    },
  }),
  webhookEventDeliveries: t.field({
    type: EventDeliveryPage,
    ...needs("webhooks:read", "The events sent to an endpoint, newest first, each with its attempts and where it stands (pending, retrying, delivered, failed); optionally only those in a state and of an event type."),
    args: {
      endpointId: t.arg.id({ required: true, description: "The endpoint's id" }),
      state: t.arg.string({ description: `Only events in this state: ${EVENT_DELIVERY_STATES.join(", ")}`, validate: checked(z.enum(EVENT_DELIVERY_STATES).nullish()) }),
      eventType: t.arg.string({ description: "Only events of this type", validate: checked(text(100).nullish()) }),
      ...pageArgs(t),
    },
    resolve: async (_root, { endpointId, state, eventType, limit, offset }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(endpointId));
      const where: Prisma.WebhookEventWhereInput = {
        teamId,
        deliveries: { some: { endpointId: endpoint.id } },
        ...(eventType ? { type: eventType } : {}),
        ...(state ? stateWhere(endpoint.id, state as EventDeliveryState) : {}),
      };
      return { where, endpointId: endpoint.id, limit, offset };
    },
  }),
  webhookEvents: t.field({
    type: EventPage,
    ...needs("webhooks:read", "The team's events of the last 30 days, newest first."),
    args: { type: t.arg.string({ description: "Only events of this type", validate: checked(text(100).nullish()) }), ...pageArgs(t) },
    resolve: (_root, { type, limit, offset }, ctx) => ({ where: { teamId: teamIdOf(ctx), ...(type ? { type } : {}) }, limit, offset }),
  }),
  webhookEvent: t.prismaField({
    type: "WebhookEvent",
    ...needs("webhooks:read", "One event of the team."),
    args: { id: t.arg.id({ required: true, description: "The event's id (evt_…)" }) },
    resolve: async (query, _root, { id }, ctx) => {
      const key = String(id);
      if (key.length > 100 || hasInvalidCharacters(key)) throw notFound(EVENT_NOT_FOUND);
      const found = await prisma.webhookEvent.findFirst({ ...query, where: { id: key, teamId: teamIdOf(ctx) } });
      if (!found) throw notFound(EVENT_NOT_FOUND);
      return found;
    },
  }),
  webhookEventTypes: t.field({
    type: [EventTypeRef],
    ...needs("webhooks:read", "The event types endpoints can subscribe to."),
    resolve: () => Object.entries(EVENT_TYPES).map(([type, description]) => ({ type, description })),
  }),
}));

/** An endpoint row's fields the audit log may show (never its secrets or key). */
export const AUDITED = { kind: true, url: true, events: true, description: true, enabled: true, disabledReason: true } as const;
export type AuditedRow = Prisma.WebhookEndpointGetPayload<{ select: typeof AUDITED }>;
/** A webhook's recorded fields under their REST names. */
const auditFields = (e: AuditedRow) => ({
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

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: CreatedEndpoint,
    ...needs("webhooks:create", "Adds an endpoint; its secret is in the answer and never shown again. A team holds at most 20 endpoints (MAX_WEBHOOKS_PER_TEAM)."),
    args: { input: t.arg({ type: CreateInput, required: true, description: "The new endpoint" }) },
    resolve: async (_root, { input }, ctx) => {
      const data = await checkedFields(input);
      const secret = newSecret();
      const teamId = teamIdOf(ctx);
      const endpoint = await withinEndpointCap(teamId, async (tx) => {
        const created = await tx.webhookEndpoint.create({
          data: { url: data.url as string, events: data.events as string[], description: input.description ?? null, enabled: input.enabled ?? true, secret, teamId },
          select: { id: true, ...AUDITED },
        });
        await recordAudit(tx, ctx, { teamId, action: "webhook.created", target: { type: "webhook", id: created.id }, after: auditFields(created) });
        return { id: created.id };
      });
      return { endpoint, secret };
    },
  }),
  updateWebhookEndpoint: t.prismaField({
    type: "WebhookEndpoint",
    ...needs("webhooks:update", "Changes the given fields of an endpoint."),
    args: { id: t.arg.id({ required: true, description: "The endpoint's id" }), input: t.arg({ type: UpdateInput, required: true, description: "The fields to change" }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(id));
      const data = await checkedFields(input);
      if (!(await updateAudited(ctx, teamId, endpoint.id, data as Prisma.WebhookEndpointUpdateManyMutationInput, WEBHOOK_AUDIT))) throw notFound(WEBHOOK_NOT_FOUND);
      return prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: endpoint.id } });
    },
  }),
  deleteWebhookEndpoint: t.id({
    ...needs("webhooks:delete", "Deletes an endpoint and its delivery log. Returns its id."),
    args: { id: t.arg.id({ required: true, description: "The endpoint's id" }) },
    resolve: async (_root, { id }, ctx) => {
      if (!(await deleteAudited(ctx, teamIdOf(ctx), String(id), WEBHOOK_AUDIT))) throw notFound(WEBHOOK_NOT_FOUND);
      return id;
    },
  }),
  rotateWebhookSecret: t.field({
    type: CreatedEndpoint,
    ...needs("webhooks:update", "Gives the endpoint a new secret (in the answer, shown only now); the old one keeps signing too for 24 hours."),
    args: { id: t.arg.id({ required: true, description: "The endpoint's id" }) },
    resolve: async (_root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(id));
      const secret = newSecret();
      // One statement: the current secret becomes the previous one as the new one replaces it. Audited without
      // either secret (src/audit/log.ts keeps no secret).
      await prisma.$transaction(async (tx) => {
        await tx.$executeRaw`
          UPDATE webhook_endpoints SET previous_secret = secret, secret = ${secret},
            previous_secret_expires_at = ${new Date(Date.now() + ROTATION_OVERLAP_MS)}, updated_at = now()
          WHERE id = ${endpoint.id}::uuid AND team_id = ${teamId}::uuid`;
        await recordAudit(tx, ctx, { teamId, action: "webhook.secret_rotated", target: { type: "webhook", id: endpoint.id } });
      });
      return { endpoint, secret };
    },
  }),
  sendTestWebhook: t.prismaField({
    type: "WebhookDelivery",
    ...needs("webhooks:update", "Sends a webhook.test event to this endpoint (whatever it subscribes to); answers the pending delivery."),
    args: { id: t.arg.id({ required: true, description: "The endpoint's id" }) },
    resolve: async (query, _root, { id }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(id));
      if (!endpoint.enabled) throw conflict("Webhook is disabled; enable it first");
      const eventId = await withEvents((tx) => recordEvent(tx, teamId, "webhook.test", { webhook_id: endpoint.id, message: "A test event from the Property Report Service" }, endpoint.id));
      return prisma.webhookDelivery.findFirstOrThrow({ ...query, where: { eventId, endpointId: endpoint.id } });
    },
  }),
  redeliverWebhook: t.prismaField({
    type: "WebhookDelivery",
    ...needs("webhooks:update", "Sends the event of a delivery to its endpoint again now: the retry already waiting, if any, else a new attempt (none follows once the event reached the endpoint)."),
    args: {
      endpointId: t.arg.id({ required: true, description: "The endpoint's id" }),
      deliveryId: t.arg.id({ required: true, description: "The delivery to send again" }),
    },
    resolve: async (query, _root, { endpointId, deliveryId }, ctx) => {
      const teamId = teamIdOf(ctx);
      const endpoint = await endpointOfTeam(teamId, String(endpointId));
      const due = await redeliver(teamId, endpoint, String(deliveryId));
      return prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: due.id } });
    },
  }),
}));
