// CRM destinations (docs/api.md "CRM destinations"): where a team's open-house leads go — its Follow Up Boss account
// (the events API, HTTP Basic with the team's Follow Up Boss API key) or a JSON receiver of its own (signed as webhooks
// are). A destination is a webhook_endpoints row of another kind: deliveries share the webhook outbox, retries, log and
// redeliver (webhookDeliveries, webhookEventDeliveries and redeliverWebhook take its id). The API key is stored
// encrypted under the data key and never shown again. What is sent, and to whom never: src/webhooks/crm.ts.
import { encryptContact } from "../../../attendees/crypto";
import { recordAudit } from "../../../audit/log";
import { config } from "../../../config";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { CRM_EVENT_TYPES, CRM_KINDS, MAX_CRM_DESTINATIONS, type CrmKind } from "../../../webhooks/crm";
import { z } from "zod";
import { builder } from "../../builder";
import { badField, badInput, notFound } from "../../errors";
import { pageArgs, pageType } from "../../page";
import { checked, hasInvalidCharacters } from "../../rules";
import { teamIdOf } from "../../scope";
import {
  AUDITED,
  checkedEndpointUrl,
  deleteAudited,
  deliveryFilterArgs,
  deliveryPage,
  describedAndEnabled,
  ofTeam,
  redeliver,
  updateAudited,
  type AuditedRow,
  type EndpointAudit,
  type EndpointsOfKind,
} from "../webhook/endpoints";
import { DeliveryPage, newSecret } from "../webhook/object";
import { needs } from "../../needs";

export const CRM_DESTINATION_NOT_FOUND = "CRM destination not found";
/** Follow Up Boss API keys are ~40 characters; anything much longer is not one. */
const MAX_API_KEY = 200;

const NOT_WEBHOOK = { kind: { not: "webhook" } } as const;

const CrmDestination = builder.prismaObject("WebhookEndpoint", {
  variant: "CrmDestination",
  description: "Where the team's open-house leads go: Follow Up Boss, or a JSON receiver (signed as webhooks are). The API key is never shown.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The destination's id (a UUID)" }),
    kind: t.exposeString("kind", { description: `${CRM_KINDS.join(" or ")}` }),
    url: t.exposeString("url", { description: "json: the URL leads are POSTed to; follow_up_boss: the API they are sent to (the service's FOLLOW_UP_BOSS_URL when the destination was created)" }),
    events: t.exposeStringList("events", { description: `The event types sent to it (${CRM_EVENT_TYPES.join(", ")})` }),
    description: t.exposeString("description", { nullable: true, description: "What it is for" }),
    enabled: t.exposeBoolean("enabled", { description: "Whether leads are sent to it" }),
    disabledReason: t.exposeString("disabledReason", { nullable: true, description: "Why the service disabled it (the destination answered 410 Gone)" }),
    hasApiKey: t.boolean({ description: "Whether an API key is stored (it is never shown)", select: { crmApiKey: true }, resolve: (e) => e.crmApiKey !== null }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it last changed" }),
  }),
});

const Created = builder.objectRef<{ destination: { id: string }; secret: string | null }>("CrmDestinationWithSecret").implement({
  description: "A new destination with its signing secret (json destinations: shown only now).",
  fields: (t) => ({
    destination: t.prismaField({
      type: CrmDestination,
      description: "The destination",
      resolve: (query, parent) => prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: parent.destination.id } }),
    }),
    secret: t.exposeString("secret", { nullable: true, description: "whsec_… for a json destination: verify its signatures with it; null for follow_up_boss" }),
  }),
});

const DestinationPage = pageType<"WebhookEndpoint", Prisma.WebhookEndpointWhereInput>(
  "WebhookEndpoint",
  "One page of the team's CRM destinations, oldest first.",
  {
    items: (query, page) => prisma.webhookEndpoint.findMany({ ...query, where: page.where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: page.limit, skip: page.offset }),
    count: (where) => prisma.webhookEndpoint.count({ where }),
  },
  { name: "CrmDestination", ref: CrmDestination },
);

const CreateInput = builder.inputType("CreateCrmDestinationInput", {
  description: "A new CRM destination.",
  fields: (t) => ({
    kind: t.string({ required: true, description: `${CRM_KINDS.join(" or ")}`, validate: checked(z.enum(CRM_KINDS)) }),
    url: t.string({ description: "json: the http(s) URL leads are POSTed to (at most 2,000 characters, on a public address); not taken for follow_up_boss (FOLLOW_UP_BOSS_URL)" }),
    apiKey: t.string({ description: "follow_up_boss: the team's Follow Up Boss API key (stored encrypted, never shown again); not taken for json" }),
    events: t.stringList({ description: `Event types (default and only: ${CRM_EVENT_TYPES.join(", ")})` }),
    description: t.string({ description: "What it is for (at most 1,000 characters)" }),
    enabled: t.boolean({ description: "Whether leads are sent to it (default true)" }),
  }),
});
const UpdateInput = builder.inputType("UpdateCrmDestinationInput", {
  description: "Only the fields given are changed; the kind stays.",
  fields: (t) => ({
    url: t.string({ description: "json: the http(s) URL" }),
    apiKey: t.string({ description: "follow_up_boss: a new API key (replaces the stored one)" }),
    events: t.stringList({ description: `Event types (${CRM_EVENT_TYPES.join(", ")})` }),
    description: t.string({ description: "What it is for (null clears it)" }),
    enabled: t.boolean({ description: "Whether leads are sent to it; enabling clears disabledReason" }),
  }),
});

interface Input {
  url?: string | null;
  apiKey?: string | null;
  events?: string[] | null;
  description?: string | null;
  enabled?: boolean | null;
}

/** Checks a destination's fields for its kind: the columns to write. */
async function checkedFields(kind: CrmKind, input: Input): Promise<Prisma.WebhookEndpointUpdateManyMutationInput> {
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {};
  for (const name of ["url", "apiKey", "description"] as const) {
    const value = input[name];
    if (typeof value === "string" && hasInvalidCharacters(value)) throw badField(["input", name], "contains invalid characters");
  }
  if (kind === "json") {
    if (input.apiKey != null) throw badField(["input", "apiKey"], "is taken by follow_up_boss destinations only (json destinations are signed with their secret)");
    if (input.url != null) data.url = await checkedEndpointUrl(input.url);
    else if (input.url === null) throw badField(["input", "url"], "must not be null");
  } else {
    if (input.url != null) throw badField(["input", "url"], "is taken by json destinations only (follow_up_boss uses Follow Up Boss's API)");
    if (input.apiKey != null) {
      const key = input.apiKey.trim();
      if (!key || key.length > MAX_API_KEY || /\s/.test(key)) throw badField(["input", "apiKey"], `must be a Follow Up Boss API key (1 to ${MAX_API_KEY} characters, no spaces)`);
      data.crmApiKey = encryptContact(key);
    } else if (input.apiKey === null) throw badField(["input", "apiKey"], "must not be null");
  }
  if (input.events != null) {
    const events = [...new Set(input.events)];
    if (events.length === 0) throw badField(["input", "events"], `must list at least one event type (${CRM_EVENT_TYPES.join(", ")})`);
    const other = events.find((type) => !(CRM_EVENT_TYPES as readonly string[]).includes(type));
    if (other !== undefined) throw badField(["input", "events"], `has '${other.slice(0, 100)}': a CRM destination takes ${CRM_EVENT_TYPES.join(", ")} only`);
    data.events = events;
  } else if (input.events === null) throw badField(["input", "events"], "must not be null");
  return describedAndEnabled(input, data);
}

/** The destination's fields the audit log shows (never its key or secret), under their REST names. */
const auditFields = (e: AuditedRow) => ({
  kind: e.kind,
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
});

const CRM_AUDIT: EndpointAudit = { kind: NOT_WEBHOOK, target: "crm_destination", fields: auditFields };

/** The team's destination `id`, or a 404. */
const DESTINATIONS: EndpointsOfKind = { where: NOT_WEBHOOK, notFound: CRM_DESTINATION_NOT_FOUND };

async function destinationOfTeam(teamId: string, id: string): Promise<{ id: string; kind: CrmKind; enabled: boolean }> {
  const found = await ofTeam(DESTINATIONS, teamId, id, (where) => prisma.webhookEndpoint.findFirst({ where, select: { id: true, kind: true, enabled: true } }));
  return found as { id: string; kind: CrmKind; enabled: boolean };
}

builder.queryFields((t) => ({
  crmDestinations: t.field({
    type: DestinationPage,
    ...needs("webhooks:read", "The team's CRM destinations, oldest first."),
    args: pageArgs(t),
    resolve: (_root, { limit, offset }, ctx) => ({ where: { teamId: teamIdOf(ctx), ...NOT_WEBHOOK }, limit, offset }),
  }),
  crmDestination: t.prismaField({
    type: CrmDestination,
    ...needs("webhooks:read", "One CRM destination of the team."),
    args: { id: t.arg.id({ required: true, description: "The destination's id" }) },
    resolve: (query, _root, { id }, ctx) => ofTeam(DESTINATIONS, teamIdOf(ctx), String(id), (where) => prisma.webhookEndpoint.findFirst({ ...query, where })),
  }),
  crmDeliveries: t.field({
    type: DeliveryPage,
    ...needs("webhooks:read", "A CRM destination's delivery attempts, newest first, optionally only those of a status and an event type."),
    args: {
      destinationId: t.arg.id({ required: true, description: "The destination's id" }),
      ...deliveryFilterArgs(t),
      ...pageArgs(t),
    },
    resolve: async (_root, { destinationId, ...filter }, ctx) => {
      const teamId = teamIdOf(ctx);
      return deliveryPage(teamId, (await destinationOfTeam(teamId, String(destinationId))).id, filter);
    },
  }),
}));

builder.mutationFields((t) => ({
  createCrmDestination: t.field({
    type: Created,
    ...needs("webhooks:create", `Connects a CRM: follow_up_boss (apiKey required) or json (url required). A team holds at most ${MAX_CRM_DESTINATIONS}.`),
    args: { input: t.arg({ type: CreateInput, required: true, description: "The new destination" }) },
    resolve: async (_root, { input }, ctx) => {
      const kind = input.kind as CrmKind;
      const data = await checkedFields(kind, input);
      if (kind === "json" && data.url === undefined) throw badField(["input", "url"], "is required for a json destination");
      if (kind === "follow_up_boss" && data.crmApiKey === undefined) throw badField(["input", "apiKey"], "is required for a follow_up_boss destination");
      const teamId = teamIdOf(ctx);
      const secret = newSecret();
      const destination = await prisma.$transaction(async (tx) => {
        // The team's row lock: creates arriving together are counted one after another.
        await tx.$queryRaw`SELECT 1 FROM teams WHERE id = ${teamId}::uuid FOR UPDATE`;
        if ((await tx.webhookEndpoint.count({ where: { teamId, ...NOT_WEBHOOK } })) >= MAX_CRM_DESTINATIONS) {
          throw badInput(`CRM destination limit reached: a team holds at most ${MAX_CRM_DESTINATIONS}`);
        }
        const created = await tx.webhookEndpoint.create({
          data: {
            teamId,
            kind,
            // Follow Up Boss's API as this service is configured now; every process then sends to the same one.
            url: kind === "json" ? (data.url as string) : config.FOLLOW_UP_BOSS_URL,
            crmApiKey: (data.crmApiKey as string | undefined) ?? null,
            events: (data.events as string[] | undefined) ?? [...CRM_EVENT_TYPES],
            description: input.description ?? null,
            enabled: input.enabled ?? true,
            secret,
          },
          select: { id: true, ...AUDITED },
        });
        await recordAudit(tx, ctx, { teamId, action: "crm_destination.created", target: { type: "crm_destination", id: created.id }, after: auditFields(created) });
        return { id: created.id };
      });
      return { destination, secret: kind === "json" ? secret : null };
    },
  }),
  updateCrmDestination: t.prismaField({
    type: CrmDestination,
    ...needs("webhooks:update", "Changes the given fields of a CRM destination (a new apiKey replaces the stored one)."),
    args: { id: t.arg.id({ required: true, description: "The destination's id" }), input: t.arg({ type: UpdateInput, required: true, description: "The fields to change" }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const destination = await destinationOfTeam(teamId, String(id));
      const data = await checkedFields(destination.kind, input);
      // A new key is recorded as replaced, never as itself.
      const changed = data.crmApiKey !== undefined ? { api_key: "replaced" } : undefined;
      if (!(await updateAudited(ctx, teamId, destination.id, data, CRM_AUDIT, changed))) throw notFound(CRM_DESTINATION_NOT_FOUND);
      return prisma.webhookEndpoint.findUniqueOrThrow({ ...query, where: { id: destination.id } });
    },
  }),
  redeliverCrmDelivery: t.prismaField({
    type: "WebhookDelivery",
    ...needs("webhooks:update", "Sends a delivery's lead to its destination again now: the retry already waiting, if any, else a new attempt (none follows once it arrived)."),
    args: {
      destinationId: t.arg.id({ required: true, description: "The destination's id" }),
      deliveryId: t.arg.id({ required: true, description: "The delivery to send again" }),
    },
    resolve: async (query, _root, { destinationId, deliveryId }, ctx) => {
      const teamId = teamIdOf(ctx);
      const due = await redeliver(teamId, await destinationOfTeam(teamId, String(destinationId)), String(deliveryId));
      return prisma.webhookDelivery.findUniqueOrThrow({ ...query, where: { id: due.id } });
    },
  }),
  deleteCrmDestination: t.id({
    ...needs("webhooks:delete", "Deletes a CRM destination and its delivery log; the stored API key goes with it. Returns its id."),
    args: { id: t.arg.id({ required: true, description: "The destination's id" }) },
    resolve: async (_root, { id }, ctx) => {
      if (!(await deleteAudited(ctx, teamIdOf(ctx), String(id), CRM_AUDIT))) throw notFound(CRM_DESTINATION_NOT_FOUND);
      return id;
    },
  }),
}));
