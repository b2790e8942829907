// Showing queries: one by id or unique_showing_key, and the team's list.
import { prisma } from "../../../db";
import { builder } from "../../builder";
import { notFound } from "../../errors";
import { listComplexity, pageArgs } from "../../page";
import { checked, uuid } from "../../rules";
import { teamIdOf } from "../../scope";
import { findShowing, SHOWING_NOT_FOUND, ShowingPage } from "./object";
import { needs } from "../../needs";

builder.queryFields((t) => ({
  showing: t.prismaField({
    type: "Showing",
    nullable: true,
    ...needs("showings:read", "One showing of the team by id or unique_showing_key."),
    args: { id: t.arg.string({ required: true, description: "The showing's id or unique_showing_key" }) },
    resolve: async (query, _root, { id }, ctx) => {
      const showing = await findShowing(teamIdOf(ctx), id, (where) => prisma.showing.findFirst({ ...query, where }));
      if (!showing) throw notFound(SHOWING_NOT_FOUND);
      return showing;
    },
  }),
  showings: t.field({
    type: ShowingPage,
    ...needs("showings:read", "The team's showings, newest first, optionally of one report."),
    complexity: listComplexity,
    args: { reportId: t.arg.id({ description: "Only the showings of this report", validate: checked(uuid().nullish()) }), ...pageArgs(t) },
    resolve: (_root, { reportId, limit, offset }, ctx) => ({
      where: { teamId: teamIdOf(ctx), ...(reportId ? { reportId: String(reportId) } : {}) },
      limit,
      offset,
    }),
  }),
}));
