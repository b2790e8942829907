// Showing (a private showing or an open house of a report): object type, queries and mutations.
// A showing is addressed by its id or by the team's unique_showing_key.
import { z } from "zod";
import { prisma } from "../../db";
import type { Prisma } from "../../generated/prisma/client";
import { builder, type InputFields } from "../builder";
import { badInput, conflict, isUniqueViolation, notFound } from "../errors";
import { isUuid, teamIdOf } from "../scope";
import { checkShowingWindow, showingFieldRules as rules } from "../validation";
import { pageArgs, pageRule } from "./page";

const ShowingEventType = builder.enumType("ShowingEventType", { values: ["showing", "open_house"] as const });

builder.prismaObject("Showing", {
  fields: (t) => ({
    id: t.exposeID("id"),
    serviceId: t.exposeID("serviceId"),
    reportId: t.exposeID("reportId"),
    showingDate: t.expose("showingDate", { type: "DateTime", nullable: true }),
    scheduledDate: t.expose("scheduledDate", { type: "DateTime", nullable: true }),
    attendeeName: t.exposeString("attendeeName", { nullable: true }),
    attendeeEmail: t.exposeString("attendeeEmail", { nullable: true }),
    attendeePhone: t.exposeString("attendeePhone", { nullable: true }),
    agentName: t.exposeString("agentName", { nullable: true }),
    feedback: t.exposeString("feedback", { nullable: true }),
    rating: t.exposeInt("rating", { nullable: true }),
    interested: t.exposeBoolean("interested", { nullable: true }),
    eventType: t.expose("eventType", { type: ShowingEventType }),
    title: t.exposeString("title", { nullable: true }),
    attendeesCount: t.exposeInt("attendeesCount", { nullable: true }),
    uniqueShowingKey: t.exposeString("uniqueShowingKey", { nullable: true }),
    showingTimeStart: t.expose("showingTimeStart", { type: "DateTime", nullable: true }),
    showingTimeEnd: t.expose("showingTimeEnd", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    report: t.relation("report", { nullable: true, authScopes: { permission: "reports:read" } }),
  }),
});

/**
 * The team's showing named by `ref`: the showing with that id first, else the one with that unique_showing_key (a
 * key may itself look like a UUID). `find` runs the lookup with the caller's selection.
 */
async function findShowing<T>(teamId: string, ref: string, find: (where: Prisma.ShowingWhereInput) => Promise<T | null>): Promise<T | null> {
  const byId = isUuid(ref) ? await find({ teamId, id: ref }) : null;
  return byId ?? find({ teamId, uniqueShowingKey: ref });
}

const SHOWING_NOT_FOUND = "Showing not found";

interface ShowingPageShape {
  where: Prisma.ShowingWhereInput;
  limit: number;
  offset: number;
}

const byRecency = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.ShowingOrderByWithRelationInput[];

const ShowingPage = builder.objectRef<ShowingPageShape>("ShowingPage").implement({
  description: "One page of the team's showings, newest first.",
  fields: (t) => ({
    items: t.prismaField({
      type: ["Showing"],
      resolve: (query, page) => prisma.showing.findMany({ ...query, where: page.where, orderBy: byRecency, take: page.limit, skip: page.offset }),
    }),
    total: t.int({ resolve: (page) => prisma.showing.count({ where: page.where }) }),
    limit: t.exposeInt("limit"),
    offset: t.exposeInt("offset"),
  }),
});

builder.queryFields((t) => ({
  showing: t.prismaField({
    type: "Showing",
    nullable: true,
    description: "One showing of the team by id or unique_showing_key.",
    authScopes: { permission: "showings:read" },
    args: { id: t.arg.string({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const showing = await findShowing(teamIdOf(ctx), id, (where) => prisma.showing.findFirst({ ...query, where }));
      if (!showing) throw notFound(SHOWING_NOT_FOUND);
      return showing;
    },
  }),
  showings: t.field({
    type: ShowingPage,
    description: "The team's showings, newest first, optionally of one report.",
    authScopes: { permission: "showings:read" },
    args: { reportId: t.arg.id(), ...pageArgs(t) },
    validate: pageRule.extend({ reportId: z.uuid().nullish() }),
    resolve: (_root, { reportId, limit, offset }, ctx) => ({
      where: { teamId: teamIdOf(ctx), ...(reportId ? { reportId: String(reportId) } : {}) },
      limit,
      offset,
    }),
  }),
}));

// ---- mutations ----

const showingFields = (t: InputFields) => ({
  showingDate: t.field({ type: "DateTime" }),
  scheduledDate: t.field({ type: "DateTime" }),
  attendeeName: t.string(),
  attendeeEmail: t.string(),
  attendeePhone: t.string(),
  agentName: t.string(),
  feedback: t.string(),
  rating: t.int(),
  interested: t.boolean(),
  title: t.string(),
  attendeesCount: t.int(),
  uniqueShowingKey: t.string(),
  showingTimeStart: t.field({ type: "DateTime" }),
  showingTimeEnd: t.field({ type: "DateTime" }),
});

// Date-times arrive as Date (the scalar parsed them), so their rules here are only "present or null".
const { reportId, eventType, showingDate, scheduledDate, showingTimeStart, showingTimeEnd, ...valueRules } = rules;
const dateRules = { showingDate: z.date().nullish(), scheduledDate: z.date().nullish(), showingTimeStart: z.date().nullish(), showingTimeEnd: z.date().nullish() };

const CreateShowingInput = builder.inputType("CreateShowingInput", {
  fields: (t) => ({ reportId: t.id({ required: true }), eventType: t.field({ type: ShowingEventType }), ...showingFields(t) }),
  validate: z.object({ reportId, eventType: eventType.nullish(), ...valueRules, ...dateRules }),
});

const UpdateShowingInput = builder.inputType("UpdateShowingInput", {
  description: "Only the fields given are changed.",
  fields: (t) => ({ eventType: t.field({ type: ShowingEventType }), ...showingFields(t) }),
  validate: z.object({ eventType: eventType.optional(), ...valueRules, ...dateRules }),
});

function duplicateKey(key: string | null | undefined) {
  return conflict(`Showing with unique_showing_key '${key}' already exists`);
}

builder.mutationFields((t) => ({
  createShowing: t.prismaField({
    type: "Showing",
    description: "Adds a showing or open house to a report of the team. unique_showing_key must be new to the team.",
    authScopes: { permission: "showings:create" },
    args: { input: t.arg({ type: CreateShowingInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const teamId = teamIdOf(ctx);
      const windowProblem = checkShowingWindow(input.showingTimeStart, input.showingTimeEnd);
      if (windowProblem) throw badInput(windowProblem);
      const report = await prisma.report.findFirst({ where: { id: String(input.reportId), teamId }, select: { id: true } });
      if (!report) throw notFound("Report not found");
      try {
        return await prisma.showing.create({
          ...query,
          data: { ...input, reportId: report.id, eventType: input.eventType ?? "showing", teamId },
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateKey(input.uniqueShowingKey);
        throw err;
      }
    },
  }),
  updateShowing: t.prismaField({
    type: "Showing",
    description: "Changes the given fields of a showing named by id or unique_showing_key.",
    authScopes: { permission: "showings:update" },
    args: { id: t.arg.string({ required: true }), input: t.arg({ type: UpdateShowingInput, required: true }) },
    resolve: async (query, _root, { id, input }, ctx) => {
      const current = await findShowing(teamIdOf(ctx), id, (where) =>
        prisma.showing.findFirst({ where, select: { id: true, showingTimeStart: true, showingTimeEnd: true } }),
      );
      if (!current) throw notFound(SHOWING_NOT_FOUND);
      const start = input.showingTimeStart === undefined ? current.showingTimeStart : input.showingTimeStart;
      const end = input.showingTimeEnd === undefined ? current.showingTimeEnd : input.showingTimeEnd;
      const windowProblem = checkShowingWindow(start, end);
      if (windowProblem) throw badInput(windowProblem);
      const { eventType: newType, ...fields } = input;
      try {
        return await prisma.showing.update({
          ...query,
          where: { id: current.id },
          data: { ...fields, ...(newType ? { eventType: newType } : {}) },
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateKey(input.uniqueShowingKey);
        throw err;
      }
    },
  }),
  deleteShowing: t.id({
    description: "Deletes a showing named by id or unique_showing_key. Returns its id.",
    authScopes: { permission: "showings:delete" },
    args: { id: t.arg.string({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      const current = await findShowing(teamIdOf(ctx), id, (where) => prisma.showing.findFirst({ where, select: { id: true } }));
      if (!current) throw notFound(SHOWING_NOT_FOUND);
      await prisma.showing.delete({ where: { id: current.id } });
      return current.id;
    },
  }),
}));
