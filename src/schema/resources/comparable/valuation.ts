// The valuation of a report (a comparative market analysis) as GraphQL: Report.valuation and Query.valuation, both
// computed by market-analysis.ts from the report and all of its comparables, with the confidence and the
// comparables' similarity of confidence.ts.
import { prisma } from "../../../db";
import type { Prisma } from "../../../generated/prisma/client";
import { builder } from "../../builder";
import { notFound } from "../../errors";
import { isUuid, teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND } from "../report/lookup";
import { oldestFirst } from "../report-items";
import { appraise, CONFIDENCE_LEVELS, CONFIDENCE_RULE, type AppraisedValuation, type Confidence, type WeighedComparable } from "./confidence";
import { DISTANT_AFTER_MILES, MIN_COMPARABLES, STALE_AFTER_DAYS, VALUATION_WARNINGS, type Valuation } from "./market-analysis";
import { needs } from "../../needs";
import { valueObject } from "../../value-object";

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

const Subject = valueObject<Valuation["subject"]>("ValuationSubject", "The report's own figures the valuation starts from", {
  sqft: ["Int", "The report's living area in square feet", "nullable"],
  price: ["Float", "The report's list price", "nullable"],
});

const PricePerSqft = valueObject<NonNullable<Valuation["pricePerSqft"]>>("PricePerSqftStats", "Price per square foot of the used comparables, in dollars", {
  min: ["Float", "Lowest"],
  median: ["Float", "Median (of an even count, the mean of the two middle values, to the cent)"],
  max: ["Float", "Highest"],
});

const ValueRange = valueObject<NonNullable<Valuation["valueRange"]>>("ValueRange", "The range of values the comparables support, in whole dollars", {
  low: ["Float", "Lowest price per square foot × the report's sqft"],
  high: ["Float", "Highest price per square foot × the report's sqft"],
});

const ConfidenceLevel = builder.enumType("ConfidenceLevel", {
  description: "How far a valuation can be trusted, from its confidence score",
  values: {
    high: { description: `score ≥ ${CONFIDENCE_RULE.high}` },
    medium: { description: `score ≥ ${CONFIDENCE_RULE.medium}` },
    low: { description: `score < ${CONFIDENCE_RULE.medium}` },
  } satisfies Record<(typeof CONFIDENCE_LEVELS)[number], { description: string }>,
});

const ConfidenceType = valueObject<Confidence>(
  "ValuationConfidence",
  "How far the valuation can be trusted, from the number of comparables used and how far their prices per square foot spread (README: Confidence and similarity)",
  {
    level: (t) => t.field({ type: ConfidenceLevel, description: "high, medium or low, from score", resolve: (c) => c.level }),
    score: [
      "Float",
      `0 to 1, two decimals: ${CONFIDENCE_RULE.countWeight} × min(used, ${CONFIDENCE_RULE.fullCount}) / ${CONFIDENCE_RULE.fullCount} + ${CONFIDENCE_RULE.spreadWeight} × max(0, 1 − spread / ${CONFIDENCE_RULE.spreadZeroAt}) (no spread: 0)`,
    ],
    spread: [
      "Float",
      "Coefficient of variation of the used comparables' price per square foot (population standard deviation / mean), four decimals; null with fewer than 2 used",
      "nullable",
    ],
  },
);

const WeighedComparableType = valueObject<WeighedComparable>("ValuationComparable", "A comparable of the report as the valuation weighs it", {
  id: ["ID", "The comparable's id"],
  similarity: ["Float", "Similarity to the report, 0 to 1 (README: Confidence and similarity)"],
  used: ["Boolean", "Whether the valuation uses it: included, with an adjusted price and sqft"],
});

export const ValuationType = valueObject<AppraisedValuation>(
  "Valuation",
  "A comparative market analysis of a report, computed on read: the median adjusted price per square foot of the included comparables × the report's sqft.",
  {
    subject: (t) => t.field({ type: Subject, description: "The report's sqft and price", resolve: (v) => v.subject }),
    comparablesTotal: ["Int", "Comparables of the report"],
    comparablesUsed: ["Int", "Comparables used: included, with an adjusted price and sqft"],
    pricePerSqft: (t) => t.field({ type: PricePerSqft, nullable: true, description: "Of the used comparables; null when none is used", resolve: (v) => v.pricePerSqft }),
    estimatedValue: ["Float", "Median price per square foot × the report's sqft, whole dollars; null without sqft or a used comparable", "nullable"],
    valueRange: (t) => t.field({ type: ValueRange, nullable: true, description: "Null like estimatedValue", resolve: (v) => v.valueRange }),
    warnings: (t) => t.field({ type: [ValuationWarning], description: "Each condition that holds, in a fixed order", resolve: (v) => v.warnings }),
    confidence: (t) => t.field({ type: ConfidenceType, description: "How far the valuation can be trusted", resolve: (v) => v.confidence }),
    comparables: (t) =>
      t.field({
        type: [WeighedComparableType],
        description: "Every comparable of the report, oldest first, with its similarity and whether it is used",
        resolve: (v) => v.comparables,
      }),
  },
);

/** The order of the valuation's comparables: oldest first, as the report's list. */
const COMPARABLE_ORDER: Prisma.ComparableOrderByWithRelationInput[] = [...oldestFirst];

/** What the valuation reads of a report (a Prisma select), without the subject's traits a similarity compares. */
export const VALUATION_SELECT = {
  sqft: true,
  price: true,
  comparables: {
    select: {
      id: true,
      price: true,
      adjustments: true,
      sqft: true,
      included: true,
      status: true,
      saleDate: true,
      distanceMiles: true,
      yearBuilt: true,
      beds: true,
      baths: true,
    },
    orderBy: COMPARABLE_ORDER,
  },
} as const;

/** What a similarity reads of the report (the subject). */
export const SUBJECT_SELECT = { sqft: true, yearBuilt: true, beds: true, baths: true } as const;

/**
 * Everything the valuation with its confidence and similarities reads of a report (also the Report.valuation field's
 * selection): `appraise(report, report.comparables, now)` of such a row is the valuation.
 */
export const APPRAISAL_SELECT = { ...VALUATION_SELECT, ...SUBJECT_SELECT } as const;

builder.queryFields((t) => ({
  valuation: t.field({
    type: ValuationType,
    ...needs("comparables:read", "The valuation of one report of the team."),
    args: { reportId: t.arg.id({ required: true, description: "The report's id" }) },
    resolve: async (_root, { reportId }, ctx) => {
      const id = String(reportId);
      const report = isUuid(id) ? await prisma.report.findFirst({ where: { id, teamId: teamIdOf(ctx) }, select: APPRAISAL_SELECT }) : null;
      if (!report) throw notFound(REPORT_NOT_FOUND);
      return appraise(report, report.comparables, new Date());
    },
  }),
}));
