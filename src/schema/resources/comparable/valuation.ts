// The valuation of a report (a comparative market analysis) as GraphQL: Report.valuation and Query.valuation, both
// computed by market-analysis.ts from the report and all of its comparables.
import { prisma } from "../../../db";
import { builder } from "../../builder";
import { notFound } from "../../errors";
import { isUuid, teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND } from "../report/lookup";
import { DISTANT_AFTER_MILES, MIN_COMPARABLES, STALE_AFTER_DAYS, valuate, VALUATION_WARNINGS, type Valuation } from "./market-analysis";

const ValuationWarning = builder.enumType("ValuationWarning", {
  description: "A condition that weakens a valuation",
  values: {
    too_few_comparables: { description: `Fewer than ${MIN_COMPARABLES} comparables are used` },
    subject_sqft_missing: { description: "The report has no sqft, so there is no estimate" },
    stale_comparables: { description: `A used sold comparable's sale_date is older than ${STALE_AFTER_DAYS} days` },
    distant_comparables: { description: `A used comparable is farther than ${DISTANT_AFTER_MILES} miles` },
    list_price_differs: { description: "The report's price is outside value_range" },
  } satisfies Record<(typeof VALUATION_WARNINGS)[number], { description: string }>,
});

const Subject = builder.objectRef<Valuation["subject"]>("ValuationSubject").implement({
  description: "The report's own figures the valuation starts from",
  fields: (t) => ({
    sqft: t.exposeInt("sqft", { nullable: true, description: "The report's living area in square feet" }),
    price: t.exposeFloat("price", { nullable: true, description: "The report's list price" }),
  }),
});

const PricePerSqft = builder.objectRef<NonNullable<Valuation["pricePerSqft"]>>("PricePerSqftStats").implement({
  description: "Price per square foot of the used comparables, in dollars",
  fields: (t) => ({
    min: t.exposeFloat("min", { description: "Lowest" }),
    median: t.exposeFloat("median", { description: "Median (of an even count, the mean of the two middle values, to the cent)" }),
    max: t.exposeFloat("max", { description: "Highest" }),
  }),
});

const ValueRange = builder.objectRef<NonNullable<Valuation["valueRange"]>>("ValueRange").implement({
  description: "The range of values the comparables support, in whole dollars",
  fields: (t) => ({
    low: t.exposeFloat("low", { description: "Lowest price per square foot × the report's sqft" }),
    high: t.exposeFloat("high", { description: "Highest price per square foot × the report's sqft" }),
  }),
});

export const ValuationType = builder.objectRef<Valuation>("Valuation").implement({
  description:
    "A comparative market analysis of a report, computed on read: the median adjusted price per square foot of the included comparables × the report's sqft.",
  fields: (t) => ({
    subject: t.field({ type: Subject, description: "The report's sqft and price", resolve: (v) => v.subject }),
    comparablesTotal: t.exposeInt("comparablesTotal", { description: "Comparables of the report" }),
    comparablesUsed: t.exposeInt("comparablesUsed", { description: "Comparables used: included, with an adjusted price and sqft" }),
    pricePerSqft: t.field({ type: PricePerSqft, nullable: true, description: "Of the used comparables; null when none is used", resolve: (v) => v.pricePerSqft }),
    estimatedValue: t.exposeFloat("estimatedValue", { nullable: true, description: "Median price per square foot × the report's sqft, whole dollars; null without sqft or a used comparable" }),
    valueRange: t.field({ type: ValueRange, nullable: true, description: "Null like estimatedValue", resolve: (v) => v.valueRange }),
    warnings: t.field({ type: [ValuationWarning], description: "Each condition that holds, in a fixed order", resolve: (v) => v.warnings }),
  }),
});

/** What the valuation reads of a report (a Prisma select, also used as the Report.valuation field's selection). */
export const VALUATION_SELECT = {
  sqft: true,
  price: true,
  comparables: { select: { price: true, adjustments: true, sqft: true, included: true, status: true, saleDate: true, distanceMiles: true } },
} as const;

builder.queryFields((t) => ({
  valuation: t.field({
    type: ValuationType,
    description: "The valuation of one report of the team. Needs comparables:read.",
    authScopes: { permission: "comparables:read" },
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }) },
    resolve: async (_root, { reportId }, ctx) => {
      const id = String(reportId);
      const report = isUuid(id) ? await prisma.report.findFirst({ where: { id, teamId: teamIdOf(ctx) }, select: VALUATION_SELECT }) : null;
      if (!report) throw notFound(REPORT_NOT_FOUND);
      return valuate(report, report.comparables, new Date());
    },
  }),
}));
