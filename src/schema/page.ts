// Pages of a team's list (reports, showings, …): one generic page type and the limit/offset arguments every list
// takes (docs/api.md "Validation (400 unless stated)": limit 1..100, default 50; offset ≥ 0; no silent clamping).
import type { PrismaObjectRef } from "@pothos/plugin-prisma";
import type { ArgBuilder, Types } from "./builder";
import { builder } from "./builder";
import { pageArgRules } from "./rules";

export const pageArgs = (t: { arg: ArgBuilder }, defaultLimit = 50) => ({
  limit: t.arg.int({ defaultValue: defaultLimit, required: true, description: "Page size, 1 to 100", validate: pageArgRules.limit }),
  offset: t.arg.int({ defaultValue: 0, required: true, description: "Items to skip, at least 0", validate: pageArgRules.offset }),
});

/** The estimated objects of a list field: its page (1) and up to `limit` items, each with what is below it (docs/api.md "GraphQL limits"). */
export const listComplexity = (args: { limit?: number | null }) => ({ field: 1 + (args.limit ?? 100), multiplier: args.limit ?? 100 });

export interface PageOf<Where> {
  where: Where;
  limit: number;
  offset: number;
}

/** Each list's items as one page; the items field runs the model's findMany with the selection's query. */
export function pageType<
  Name extends "Report" | "Showing" | "Comparable" | "AgentInsight" | "SocialMediaPost" | "WebhookEndpoint" | "WebhookEvent" | "WebhookDelivery" | "ShareLink" | "SignInLink" | "ConsentReceipt",
  Where,
>(
  name: Name,
  description: string,
  load: {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Pothos's prisma query (select/include) of the item type, typed by its model only where the page is declared
    items: (query: any, page: PageOf<Where>) => Promise<any[]>;
    count: (where: Where) => Promise<number>;
  },
  /** A variant of the model's type (another GraphQL type over the same table): the page holds it and is named after it. */
  variant?: { name: string; ref: PrismaObjectRef<Types, Types["PrismaTypes"][Name]> },
) {
  return builder.objectRef<PageOf<Where>>(`${variant?.name ?? name}Page`).implement({
    description,
    fields: (t) => ({
      items: t.prismaField({
        type: [variant?.ref ?? name],
        description: "The items of this page",
        // The list field that made the page counts its items (listComplexity); the page itself is not multiplied again.
        complexity: { field: 0, multiplier: 1 },
        resolve: (query, page) => load.items(query, page),
      }),
      total: t.int({ description: "Items in the whole list", resolve: (page) => load.count(page.where) }),
      limit: t.exposeInt("limit", { description: "Page size" }),
      offset: t.exposeInt("offset", { description: "Items skipped" }),
    }),
  });
}
