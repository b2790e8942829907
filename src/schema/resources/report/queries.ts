// Report queries: one by id, the best match for an address, and the team's list.
import { prisma } from "../../../db";
import { builder } from "../../builder";
import { notFound } from "../../errors";
import { listComplexity, pageArgs } from "../../page";
import { checked } from "../../rules";
import { teamIdOf } from "../../scope";
import { addressRule } from "./fields";
import type { Prisma } from "../../../generated/prisma/client";
import type { SqlJsonRoot } from "../../sql-json/plan";
import { arg, team, where } from "../../where";
import { REPORT_ORDER, ReportPage } from "./object";
import { REPORT_NOT_FOUND } from "./lookup";
import { findReportIdByAddress } from "./search";
import { normalizeAddress } from "../../address";
import { needs } from "../../needs";

export const ReportStatusFilter = builder.enumType("ReportStatusFilter", {
  description: "Which reports a list holds",
  values: ["draft", "published", "all"] as const,
});

// The rows each query reads, declared once: its resolver's Prisma `where` and the one-statement read path's SQL
// (../../sql-json) both come from these.
const reportById = where<Prisma.ReportWhereInput>("Report", { id: arg("id"), teamId: team });
export const reportsOfTeam = where<Prisma.ReportWhereInput>("Report", { teamId: team, status: arg("status", { any: "all" }) });

builder.queryFields((t) => ({
  report: t.prismaField({
    type: "Report",
    nullable: true,
    ...needs("reports:read", "One report of the team by id. Unknown ids (and other teams' reports) give a NOT_FOUND error."),
    args: { id: t.arg.id({ required: true, description: "The report's id" }) },
    extensions: { sqlJson: { kind: "one", where: reportById } satisfies SqlJsonRoot },
    resolve: async (query, _root, args, ctx) => {
      // An id that is no UUID matches no row (the column holds UUIDs): not found without a statement.
      const where = reportById.prisma(args, teamIdOf(ctx));
      const report = where ? await prisma.report.findFirst({ ...query, where }) : null;
      if (!report) throw notFound(REPORT_NOT_FOUND);
      return report;
    },
  }),
  reportByAddress: t.prismaField({
    type: "Report",
    nullable: true,
    ...needs("reports:read", "The team's report that best matches an address: case, punctuation, street-suffix, unit and directional abbreviations are ignored."),
    args: { address: t.arg.string({ required: true, description: "A partial address, e.g. 123 n main st", validate: checked(addressRule) }) },
    resolve: async (query, _root, { address }, ctx) => {
      const teamId = teamIdOf(ctx);
      const id = await findReportIdByAddress(teamId, address);
      const report = id ? await prisma.report.findFirst({ ...query, where: { id, teamId } }) : null;
      if (!report) throw notFound(`No report found matching address '${address}'`);
      return report;
    },
  }),
  reports: t.field({
    type: ReportPage,
    ...needs("reports:read", "The team's reports, newest first."),
    complexity: listComplexity,
    args: {
      status: t.arg({ type: ReportStatusFilter, defaultValue: "all", required: true, description: "draft, published or all" }),
      ...pageArgs(t),
    },
    // The (team, status, created_at) index serves both a status and "all".
    extensions: { sqlJson: { kind: "page", where: reportsOfTeam, orderBy: REPORT_ORDER } satisfies SqlJsonRoot },
    resolve: (_root, args, ctx) => ({ where: reportsOfTeam.prisma(args, teamIdOf(ctx)) ?? { id: { in: [] } }, limit: args.limit, offset: args.offset }),
  }),
  // Every match of the address search's matching (docs/api.md "Address search"), where reportByAddress answers the
  // best one only: a list to page through. Read by the resolvers (the one-statement path does not serve it).
  reportsMatching: t.field({
    type: ReportPage,
    ...needs("reports:read", "The team's reports whose address (or one-line address with city, state and zip) contains the given one, matched as reportByAddress matches (case, punctuation, street-suffix, unit and directional abbreviations ignored), newest first: every match, where reportByAddress answers the best only."),
    complexity: listComplexity,
    args: {
      address: t.arg.string({ required: true, description: "A partial address, e.g. maple st", validate: checked(addressRule) }),
      status: t.arg({ type: ReportStatusFilter, defaultValue: "all", required: true, description: "draft, published or all" }),
      ...pageArgs(t),
    },
    resolve: (_root, args, ctx) => {
      const key = normalizeAddress(args.address);
      const team = reportsOfTeam.prisma(args, teamIdOf(ctx));
      const where: Prisma.ReportWhereInput = team && key ? { AND: [team, { searchKey: { contains: key } }] } : { id: { in: [] } };
      return { where, limit: args.limit, offset: args.offset };
    },
  }),
}));
