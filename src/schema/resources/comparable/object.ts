// The Comparable object type (fields from the field table), its queries and mutations, and the atomic replace of a
// report's whole set.
import { z } from "zod";
import { prisma } from "../../../db";
import type { Tx } from "../../../webhooks/outbox";
import { builder } from "../../builder";
import { objectFields, restRecord, withoutNulls } from "../../fields";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { notFound } from "../../errors";
import { checked } from "../../rules";
import { teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND, reportIdOfTeam } from "../report/lookup";
import { oldestFirst, orNotFound, reportItems } from "../report-items";
import { similarity } from "./confidence";
import { comparableFields, MAX_REPLACED } from "./fields";
import { SUBJECT_SELECT } from "./valuation";
import { needs } from "../../needs";

builder.prismaObject("Comparable", {
  description: "A comparable property of a report: a recent sale or listing nearby that the valuation weighs.",
  fields: (t) => ({
    ...objectFields(comparableFields, t),
    // Not in the field table: it depends on the report, so REST bodies, webhook payloads and the one-statement
    // read path (which leaves a query selecting it to the resolvers) keep the comparable's own fields.
    similarity: t.float({
      description: "Similarity to its report, 0 to 1, as the valuation computes it (README: Confidence and similarity)",
      select: { report: { select: SUBJECT_SELECT } },
      resolve: (comparable) => similarity(comparable.report, comparable, new Date()),
    }),
  }),
});

export const COMPARABLE_NOT_FOUND = "Comparable not found";

const comparables = {
  type: "Comparable",
  noun: "comparable",
  one: "comparable",
  many: "comparables",
  resource: "comparables",
  table: comparableFields,
  items: (tx: Tx = prisma) => tx.comparable,
  notFound: COMPARABLE_NOT_FOUND,
  events: "comparable",
} as const;
const { CreateInput } = reportItems(comparables);

builder.mutationFields((t) => ({
  replaceComparables: t.prismaField({
    type: ["Comparable"],
    ...needs(["comparables:create", "comparables:update", "comparables:delete"], `Replaces a report's whole set of comparables (0 to ${MAX_REPLACED}) in one transaction: every item is valid and saved, or nothing changes. Returns the new set in the order sent.`),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      comparables: t.arg({
        type: [CreateInput!],
        required: true,
        description: `The new set, 0 to ${MAX_REPLACED} comparables`,
        validate: checked(z.array(z.unknown()).max(MAX_REPLACED)),
      }),
    },
    resolve: async (query, _root, { reportId, comparables }, ctx) => {
      const teamId = teamIdOf(ctx);
      const report = await reportIdOfTeam(teamId, String(reportId));
      // One created_at per item, a millisecond apart, so "oldest first" keeps the order sent.
      const start = Date.now();
      const rows = comparables.map((input, i) => ({ ...withoutNulls(input), address: input.address, reportId: report, teamId, createdAt: new Date(start + i) }));
      return orNotFound(
        withEvents(async (tx) => {
          // The report's row lock makes concurrent replaces (and adds) of one report wait for each other: without it,
          // two replaces could each delete only the rows they saw and leave both new sets.
          const locked = await tx.$queryRaw<unknown[]>`SELECT 1 FROM reports WHERE id = ${report}::uuid AND team_id = ${teamId}::uuid FOR UPDATE`;
          if (locked.length === 0) throw notFound(REPORT_NOT_FOUND);
          await tx.comparable.deleteMany({ where: { reportId: report, teamId } });
          await tx.comparable.createMany({ data: rows });
          const stored = await tx.comparable.findMany({ where: { reportId: report, teamId }, orderBy: [...oldestFirst] });
          await recordEvent(tx, teamId, "comparables.replaced", { report_id: report, comparables: stored.map((row) => restRecord(comparableFields, row)) });
          return tx.comparable.findMany({ ...query, where: { reportId: report, teamId }, orderBy: [...oldestFirst] });
        }),
        REPORT_NOT_FOUND,
      );
    },
  }),
}));
