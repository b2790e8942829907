// Webhooks (docs/api.md "Webhooks"): the object types of a team's endpoints, the events its changes recorded and the
// delivery attempts, and their pages; the queries and mutations are in ./queries.ts and ./mutations.ts, the rules
// webhooks share with CRM destinations in ./endpoints.ts. Events are recorded by the mutations that make changes
// (src/webhooks/outbox.ts); the worker (src/webhooks/worker.ts) sends them.
import { openSealedFields } from "../../../attendees/crypto";
import { randomBytes } from "node:crypto";
import { config } from "../../../config";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { MAX_CRM_DESTINATIONS } from "../../../webhooks/crm";
import { builder } from "../../builder";
import { pageType } from "../../page";

export const WEBHOOK_NOT_FOUND = "Webhook not found";
export const EVENT_NOT_FOUND = "Event not found";
export const DELIVERY_NOT_FOUND = "Delivery not found";
/** A delivery attempt's statuses (docs/api.md "Webhooks", the delivery record). */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "retrying"] as const;
/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

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
export type EventDeliveryState = (typeof EVENT_DELIVERY_STATES)[number];
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
export function stateWhere(endpointId: string, state: EventDeliveryState): Prisma.WebhookEventWhereInput {
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

export const EventDeliveryPage = builder.objectRef<{ where: Prisma.WebhookEventWhereInput; endpointId: string; limit: number; offset: number }>("WebhookEventDeliveryPage").implement({
  description: "One page of the events sent to an endpoint, newest first, each with its attempts.",
  fields: (t) => ({
    items: t.field({ type: [EventDeliveryRef], description: "The items of this page", complexity: { field: 0, multiplier: 1 }, resolve: (p) => eventDeliveries(p.where, p.endpointId, p) }),
    total: t.int({ description: "Items in the whole list", resolve: (p) => prisma.webhookEvent.count({ where: p.where }) }),
    limit: t.exposeInt("limit", { description: "Page size" }),
    offset: t.exposeInt("offset", { description: "Items skipped" }),
  }),
});

export const EventTypeRef = builder.objectRef<{ type: string; description: string }>("WebhookEventType").implement({
  description: "An event type endpoints can subscribe to.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "Its name, e.g. report.published" }),
    description: t.exposeString("description", { description: "When it is sent and what its data holds" }),
  }),
});

export const CreatedEndpoint = builder.objectRef<{ endpoint: { id: string }; secret: string }>("WebhookEndpointWithSecret").implement({
  description: "An endpoint with its signing secret: shown only now.",
  fields: (t) => ({
    endpoint: t.prismaField({ type: "WebhookEndpoint", description: "The endpoint", resolve: (query, parent) => prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.endpoint.id } }) }),
    secret: t.exposeString("secret", { description: "whsec_… : verify signatures with it (e.g. the standardwebhooks package)" }),
  }),
});

const newestFirst = [{ createdAt: "desc" }, { id: "desc" }] as const;

export const EndpointPage = pageType<"WebhookEndpoint", Prisma.WebhookEndpointWhereInput>("WebhookEndpoint", "One page of the team's webhook endpoints, oldest first.", {
  items: (query, page) => prisma.webhookEndpoint.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookEndpoint.count({ where }),
});
export const EventPage = pageType<"WebhookEvent", Prisma.WebhookEventWhereInput>("WebhookEvent", "One page of the team's events, newest first.", {
  items: (query, page) => prisma.webhookEvent.findMany({ ...query, where: page.where, orderBy: [...newestFirst], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookEvent.count({ where }),
});
export const DeliveryPage = pageType<"WebhookDelivery", Prisma.WebhookDeliveryWhereInput>("WebhookDelivery", "One page of an endpoint's delivery attempts, newest first.", {
  items: (query, page) => prisma.webhookDelivery.findMany({ ...query, where: page.where, orderBy: [...newestFirst], take: page.limit, skip: page.offset }),
  count: (where) => prisma.webhookDelivery.count({ where }),
});
