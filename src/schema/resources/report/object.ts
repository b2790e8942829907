// The Report object type (its fields come from the field table) and the page of reports.
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { pageType } from "../../page";
import { collection } from "../collections";
import { appraise } from "../comparable/confidence";
import { APPRAISAL_SELECT, ValuationType } from "../comparable/valuation";
import { engagementOf, EngagementType } from "../social-post/engagement";
import { summaryStateOf } from "../summary/facts";
import { reportFields } from "./fields";
import { needs } from "../../needs";

builder.prismaObject("Report", {
  description: "A property report: facts, narrative, display switches and its collections.",
  fields: (t) => ({
    ...objectFields(reportFields, t),
    comparables: collection(t, "comparables", "comparables:read", "Comparable properties"),
    showings: collection(t, "showings", "showings:read", "Showings and open houses"),
    socialMediaPosts: collection(t, "socialMediaPosts", "social_media:read", "Social media posts"),
    agentInsights: collection(t, "agentInsights", "ai_insights:read", "Agent insights"),
    valuation: t.field({
      type: ValuationType,
      nullable: true,
      ...needs("comparables:read", "A comparative market analysis from all of the report's comparables."),
      select: APPRAISAL_SELECT,
      resolve: (report) => appraise(report, report.comparables, new Date()),
    }),
    engagement: t.field({
      type: EngagementType,
      nullable: true,
      ...needs("social_media:read", "The report's social engagement (one statement per report)."),
      select: { id: true, teamId: true },
      resolve: (report) => engagementOf(report.id, report.teamId),
    }),
    summaryStale: t.boolean({
      nullable: true,
      description:
        "True when a fact the saved executive summary was written from has changed since (summaryStaleFields names them); null when there is no summary, or it was saved before its facts were recorded.",
      select: { id: true, teamId: true },
      resolve: async (report, _args, ctx) => (await summaryStateOf(ctx, report.teamId, report.id)).stale,
    }),
    summaryStaleFields: t.stringList({
      nullable: true,
      description: "The facts (REST names: price, valuation, showings, social, insights…) that changed since the saved executive summary was written; null as summaryStale.",
      select: { id: true, teamId: true },
      resolve: async (report, _args, ctx) => (await summaryStateOf(ctx, report.teamId, report.id)).staleFields,
    }),
    clientSummary: t.string({
      nullable: true,
      description:
        "The executive summary as the report's client reads it (the share page and PDF): the saved one while every fact it was written from holds and no section it drew on is hidden, else one written now from the facts the client is shown; null without a saved summary.",
      select: { id: true, teamId: true },
      resolve: async (report, _args, ctx) => (await summaryStateOf(ctx, report.teamId, report.id)).forClient,
    }),
    team: t.relation("team", { nullable: true, ...needs("team:read", "The team owning the report.") }),
  }),
});

/** Newest first (also the one-statement read path's order, ./queries.ts). */
export const REPORT_ORDER = [{ createdAt: "desc" }, { id: "desc" }] as const satisfies Prisma.ReportOrderByWithRelationInput[];

export const ReportPage = pageType<"Report", Prisma.ReportWhereInput>("Report", "One page of the team's reports, newest first.", {
  items: (query, page) => prisma.report.findMany({ ...query, where: page.where, orderBy: [...REPORT_ORDER], take: page.limit, skip: page.offset }),
  count: (where) => prisma.report.count({ where }),
});
