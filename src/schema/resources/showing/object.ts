// The Showing object type (fields from the field table), the page of showings, and the lookup by reference.
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { objectFields } from "../../fields";
import { pageType } from "../../page";
import { hasInvalidCharacters } from "../../rules";
import { isUuid } from "../../scope";
import { showingFields } from "./fields";
import { needs } from "../../needs";

builder.prismaObject("Showing", {
  description: "A private showing or an open house of a report.",
  fields: (t) => ({
    ...objectFields(showingFields, t),
    report: t.relation("report", { nullable: true, ...needs("reports:read", "The report shown.") }),
  }),
});

const byRecency = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.ShowingOrderByWithRelationInput[];

export const ShowingPage = pageType<"Showing", Prisma.ShowingWhereInput>("Showing", "One page of the team's showings, newest first.", {
  items: (query, page) => prisma.showing.findMany({ ...query, where: page.where, orderBy: byRecency, take: page.limit, skip: page.offset }),
  count: (where) => prisma.showing.count({ where }),
});

export const SHOWING_NOT_FOUND = "Showing not found";

/**
 * The team's showing named by `ref`: the showing with that id first, else the one with that unique_showing_key (a
 * key may itself look like a UUID). `find` runs the lookup with the caller's selection.
 */
export async function findShowing<T>(teamId: string, ref: string, find: (where: Prisma.ShowingWhereInput) => Promise<T | null>): Promise<T | null> {
  if (hasInvalidCharacters(ref)) return null; // no stored key holds them
  const byId = isUuid(ref) ? await find({ teamId, id: ref }) : null;
  return byId ?? find({ teamId, uniqueShowingKey: ref });
}
