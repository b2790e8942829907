// Webhooks' mutations (docs/api.md "Webhooks"): endpoints created, changed, rotated, tested and deleted, deliveries
// sent again. Each change is recorded in the audit log; events are recorded by the mutations that make changes.
import { recordAudit } from "../../../audit/log";
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { builder } from "../../builder";
import { needs } from "../../needs";
import { conflict, notFound } from "../../errors";
import { teamIdOf } from "../../scope";
import { CreatedEndpoint, ROTATION_OVERLAP_MS, WEBHOOK_NOT_FOUND, newSecret } from "./object";
import { AUDITED, WEBHOOK_AUDIT, auditFields, checkedFields, deleteAudited, endpointOfTeam, redeliver, updateAudited, withinEndpointCap } from "./endpoints";

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
