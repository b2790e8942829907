// The team's top-level lists as Relay connections (docs/api.md "Connections"): reports, showings, events and an
// endpoint's delivery attempts, newest first, keyset-paged on (created_at, id) so that rows added between two page
// reads neither repeat nor shift a page. Each takes the filters and needs the permission of its list field
// (reports, showings, webhookEvents, webhookDeliveries); the one-statement read path answers reportsConnection.
import { z } from "zod";
import { prisma } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { builder } from "../builder";
import { connectionArgs, connectionComplexity, connectionType, cursorPrefix, nodeQuery, readSlice, windowOf } from "../connection";
import { checked, text, uuid } from "../rules";
import { teamIdOf } from "../scope";
import type { SqlJsonRoot } from "../sql-json/plan";
import { reportsOfTeam, ReportStatusFilter } from "./report/queries";
import { endpointOfTeam } from "./webhook/endpoints";
import { DELIVERY_STATUSES } from "./webhook/object";
import { needs } from "../needs";

const ReportConnection = connectionType<Prisma.ReportWhereInput>("Report", "A page of the team's reports, newest first (Relay).");
const ShowingConnection = connectionType<Prisma.ShowingWhereInput>("Showing", "A page of the team's showings, newest first (Relay).");
const EventConnection = connectionType<Prisma.WebhookEventWhereInput>("WebhookEvent", "A page of the team's events, newest first (Relay).");
const DeliveryConnection = connectionType<Prisma.WebhookDeliveryWhereInput>("WebhookDelivery", "A page of an endpoint's delivery attempts, newest first (Relay).");

/** The cursor lists' names (part of each cursor: a cursor of one is refused by the others). */
export const CONNECTION_LISTS = { reports: "reports", showings: "showings", events: "events", deliveries: "deliveries" } as const;

builder.queryFields((t) => ({
  reportsConnection: t.field({
    type: ReportConnection,
    ...needs("reports:read", "The team's reports as a Relay connection, newest first, keyset-paged on (createdAt, id): first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      status: t.arg({ type: ReportStatusFilter, defaultValue: "all", required: true, description: "draft, published or all" }),
      ...connectionArgs(t, "reports"),
    },
    extensions: { sqlJson: { kind: "connection", where: reportsOfTeam, list: CONNECTION_LISTS.reports } satisfies SqlJsonRoot },
    resolve: (_root, args, ctx, info) => {
      const teamId = teamIdOf(ctx);
      const prefix = cursorPrefix(CONNECTION_LISTS.reports, teamId);
      const window = windowOf(args, prefix, "uuid");
      const where = reportsOfTeam.prisma(args, teamId) ?? { id: { in: [] } };
      return readSlice(prisma.report, where, prefix, window, nodeQuery(ctx, info));
    },
  }),
  showingsConnection: t.field({
    type: ShowingConnection,
    ...needs("showings:read", "The team's showings as a Relay connection, newest first, optionally of one report: first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      reportId: t.arg.id({ description: "Only the showings of this report", validate: checked(uuid().nullish()) }),
      ...connectionArgs(t, "showings"),
    },
    resolve: (_root, args, ctx, info) => {
      const teamId = teamIdOf(ctx);
      const prefix = cursorPrefix(CONNECTION_LISTS.showings, teamId);
      const window = windowOf(args, prefix, "uuid");
      const where: Prisma.ShowingWhereInput = { teamId, ...(args.reportId ? { reportId: String(args.reportId) } : {}) };
      return readSlice(prisma.showing, where, prefix, window, nodeQuery(ctx, info));
    },
  }),
  eventsConnection: t.field({
    type: EventConnection,
    ...needs("webhooks:read", "The team's events of the last 30 days as a Relay connection, newest first: first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      type: t.arg.string({ description: "Only events of this type", validate: checked(text(100).nullish()) }),
      ...connectionArgs(t, "events"),
    },
    resolve: (_root, args, ctx, info) => {
      const teamId = teamIdOf(ctx);
      const prefix = cursorPrefix(CONNECTION_LISTS.events, teamId);
      const window = windowOf(args, prefix, "text");
      const where: Prisma.WebhookEventWhereInput = { teamId, ...(args.type ? { type: args.type } : {}) };
      return readSlice(prisma.webhookEvent, where, prefix, window, nodeQuery(ctx, info));
    },
  }),
  webhookDeliveriesConnection: t.field({
    type: DeliveryConnection,
    ...needs("webhooks:read", "An endpoint's delivery attempts as a Relay connection, newest first, optionally only those of a status and an event type: first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      endpointId: t.arg.id({ required: true, description: "The endpoint's id" }),
      status: t.arg.string({ description: `Only attempts in this status: ${DELIVERY_STATUSES.join(", ")}`, validate: checked(z.enum(DELIVERY_STATUSES).nullish()) }),
      eventType: t.arg.string({ description: "Only attempts sending events of this type", validate: checked(text(100).nullish()) }),
      ...connectionArgs(t, "attempts"),
    },
    resolve: async (_root, args, ctx, info) => {
      const teamId = teamIdOf(ctx);
      // The cursors are the endpoint's: one endpoint's cursor positions nothing in another's log.
      const prefix = cursorPrefix(CONNECTION_LISTS.deliveries, teamId, String(args.endpointId));
      const window = windowOf(args, prefix, "uuid");
      const endpoint = await endpointOfTeam(teamId, String(args.endpointId));
      const where: Prisma.WebhookDeliveryWhereInput = {
        endpointId: endpoint.id,
        teamId,
        ...(args.status ? { status: args.status } : {}),
        ...(args.eventType ? { event: { type: args.eventType } } : {}),
      };
      return readSlice(prisma.webhookDelivery, where, prefix, window, nodeQuery(ctx, info));
    },
  }),
}));
