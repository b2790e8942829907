// Webhooks' queries (docs/api.md "Webhooks"): the team's endpoints, its events and their deliveries, the event types.
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { EVENT_TYPES } from "../../../webhooks/catalog";
import { z } from "zod";
import { builder } from "../../builder";
import { needs } from "../../needs";
import { notFound } from "../../errors";
import { pageArgs } from "../../page";
import { checked, hasInvalidCharacters, text } from "../../rules";
import { teamIdOf } from "../../scope";
import { DeliveryPage, EVENT_DELIVERY_STATES, EVENT_NOT_FOUND, EndpointPage, EventDeliveryPage, EventDeliveryState, EventPage, EventTypeRef, stateWhere } from "./object";
import { deliveryFilterArgs, deliveryPage, endpointOfTeam, ofTeam, WEBHOOK_KIND, WEBHOOKS } from "./endpoints";

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
    resolve: (query, _root, { id }, ctx) => ofTeam(WEBHOOKS, teamIdOf(ctx), String(id), (where) => prisma.webhookEndpoint.findFirst({ ...query, where })),
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
