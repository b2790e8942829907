// Report queries: one by id, the best match for an address, and the team's list.
import { prisma } from "../../../db";
import { builder } from "../../builder";
import { notFound } from "../../errors";
import { listComplexity, pageArgs } from "../../page";
import { checked } from "../../rules";
import { isUuid, teamIdOf } from "../../scope";
import { addressRule } from "./fields";
import type { SqlJsonRoot } from "../../sql-json/plan";
import { REPORT_ORDER, ReportPage } from "./object";
import { REPORT_NOT_FOUND } from "./lookup";
import { findReportIdByAddress } from "./search";

const ReportStatusFilter = builder.enumType("ReportStatusFilter", {
  description: "Which reports a list holds",
  values: ["draft", "published", "all"] as const,
});

builder.queryFields((t) => ({
  report: t.prismaField({
    type: "Report",
    nullable: true,
    description: "One report of the team by id. Unknown ids (and other teams' reports) give a NOT_FOUND error. Needs reports:read.",
    authScopes: { permission: "reports:read" },
    args: { id: t.arg.id({ required: true, description: "The report's id" }) },
    // The one-statement read path (../../sql-json) reads the same row: this id, this team; other ids are the resolver's.
    extensions: { sqlJson: { kind: "one", where: (r, p) => `${r}.id = ${p.arg("id", "uuid")} AND ${r}.team_id = ${p.team}`, accepts: ({ id }) => isUuid(String(id)) } satisfies SqlJsonRoot },
    resolve: async (query, _root, { id }, ctx) => {
      const report = isUuid(String(id)) ? await prisma.report.findFirst({ ...query, where: { id: String(id), teamId: teamIdOf(ctx) } }) : null;
      if (!report) throw notFound(REPORT_NOT_FOUND);
      return report;
    },
  }),
  reportByAddress: t.prismaField({
    type: "Report",
    nullable: true,
    description:
      "The team's report that best matches an address: case, punctuation, street-suffix, unit and directional abbreviations are ignored. Needs reports:read.",
    authScopes: { permission: "reports:read" },
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
    description: "The team's reports, newest first. Needs reports:read.",
    authScopes: { permission: "reports:read" },
    complexity: listComplexity,
    args: {
      status: t.arg({ type: ReportStatusFilter, defaultValue: "all", required: true, description: "draft, published or all" }),
      ...pageArgs(t),
    },
    extensions: {
      sqlJson: {
        kind: "page",
        // status = the filter, or any when it is "all" (null): the (team, status, created_at) index serves both.
        where: (r, p) => {
          const status = p.arg("status", '"ReportStatus"', ({ status }) => (status === "all" ? null : status));
          return `${r}.team_id = ${p.team} AND (${status} IS NULL OR ${r}.status = ${status})`;
        },
        orderBy: REPORT_ORDER,
      } satisfies SqlJsonRoot,
    },
    resolve: (_root, { status, limit, offset }, ctx) => ({
      where: { teamId: teamIdOf(ctx), ...(status === "all" ? {} : { status }) },
      limit,
      offset,
    }),
  }),
}));
