// The team's top-level lists as Relay connections (docs/api.md "Connections"): reports, showings, events and an
// endpoint's delivery attempts, newest first, keyset-paged on (created_at, id) so that rows added between two page
// reads neither repeat nor shift a page. Each takes the filters and needs the permission of its list field
// (reports, showings, webhookEvents, webhookDeliveries); the one-statement read path answers reportsConnection.
import { z } from "zod";
import { prisma } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { builder } from "../builder";
import { connectionArgs, connectionComplexity, connectionType, teamSlice } from "../connection";
import { checked, text, uuid } from "../rules";
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
    resolve: (_root, args, context, info) =>
      teamSlice(prisma.report, CONNECTION_LISTS.reports, "uuid", { args, context, info }, (teamId) => reportsOfTeam.prisma(args, teamId) ?? { id: { in: [] } }),
  }),
  showingsConnection: t.field({
    type: ShowingConnection,
    ...needs("showings:read", "The team's showings as a Relay connection, newest first, optionally of one report: first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      reportId: t.arg.id({ description: "Only the showings of this report", validate: checked(uuid().nullish()) }),
      ...connectionArgs(t, "showings"),
    },
    resolve: (_root, args, context, info) =>
      teamSlice(prisma.showing, CONNECTION_LISTS.showings, "uuid", { args, context, info }, (teamId): Prisma.ShowingWhereInput => ({
        teamId,
        ...(args.reportId ? { reportId: String(args.reportId) } : {}),
      })),
  }),
  eventsConnection: t.field({
    type: EventConnection,
    ...needs("webhooks:read", "The team's events of the last 30 days as a Relay connection, newest first: first/after or last/before (1 to 100; default first 50)."),
    complexity: connectionComplexity,
    args: {
      type: t.arg.string({ description: "Only events of this type", validate: checked(text(100).nullish()) }),
      ...connectionArgs(t, "events"),
    },
    resolve: (_root, args, context, info) =>
      teamSlice(prisma.webhookEvent, CONNECTION_LISTS.events, "text", { args, context, info }, (teamId): Prisma.WebhookEventWhereInput => ({
        teamId,
        ...(args.type ? { type: args.type } : {}),
      })),
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
    // The cursors are the endpoint's: one endpoint's cursor positions nothing in another's log.
    resolve: (_root, args, context, info) =>
      teamSlice(
        prisma.webhookDelivery,
        CONNECTION_LISTS.deliveries,
        "uuid",
        { args, context, info },
        async (teamId): Promise<Prisma.WebhookDeliveryWhereInput> => ({
          endpointId: (await endpointOfTeam(teamId, String(args.endpointId))).id,
          teamId,
          ...(args.status ? { status: args.status } : {}),
          ...(args.eventType ? { event: { type: args.eventType } } : {}),
        }),
        String(args.endpointId),
      ),
  }),
}));
