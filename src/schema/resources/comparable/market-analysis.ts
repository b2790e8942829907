// The comparative market analysis of a report (docs/api.md "Comparables"): pure arithmetic on the report and its
// comparables, deterministic for a given `now`. The GraphQL fields (and through them REST) compute every figure
// here; README "Valuation" walks through an example.
import { column, constant, floor, over, plus, sumOfNumbers, times } from "../../computed";

/** What the analysis reads of a comparable. */
export interface ComparableFigures {
  price: number | null;
  /** name → signed whole dollars */
  adjustments: unknown;
  sqft: number | null;
  included: boolean;
  status: string;
  saleDate: Date | null;
  distanceMiles: number | null;
}

/** What it reads of the report (the subject property). */
export interface SubjectFigures {
  sqft: number | null;
  price: number | null;
}

export const VALUATION_WARNINGS = [
  "too_few_comparables",
  "subject_sqft_missing",
  "stale_comparables",
  "distant_comparables",
  "list_price_differs",
] as const;
export type ValuationWarning = (typeof VALUATION_WARNINGS)[number];

/** Fewer used comparables than this: too_few_comparables. */
export const MIN_COMPARABLES = 3;
/** A used sold comparable whose sale is older than this many days: stale_comparables. */
export const STALE_AFTER_DAYS = 365;
/** A used comparable farther than this many miles: distant_comparables. */
export const DISTANT_AFTER_MILES = 5;

const DAY_MS = 86_400_000;

/**
 * Whole UTC calendar days from one instant to a later one (0 when `to` is earlier): a figure that counts days
 * changes at midnight UTC, the moment its cached answers' validators change too (src/http/http-cache.ts).
 */
export const utcDaysBetween = (from: Date, to: Date): number => Math.max(0, Math.floor(to.getTime() / DAY_MS) - Math.floor(from.getTime() / DAY_MS));

export interface Valuation {
  subject: SubjectFigures;
  comparablesTotal: number;
  comparablesUsed: number;
  /** Of the used comparables' price per square foot; null when no comparable is used. */
  pricePerSqft: { min: number; median: number; max: number } | null;
  /** median × subject sqft, whole dollars; null without a subject sqft or a used comparable. */
  estimatedValue: number | null;
  /** min and max × subject sqft, whole dollars; null like estimatedValue. */
  valueRange: { low: number; high: number } | null;
  warnings: ValuationWarning[];
}

const toCents = (value: number) => Math.round(value * 100) / 100;

// The two figures of a comparable, each one formula (../../computed.ts): the resolvers, webhook payloads, the
// valuation and the one-statement read path (from the columns the formula reads) all compute it with the same code.
/** price + the sum of its adjustments (an object of name → dollars; anything else counts as none); null without a price. */
export const ADJUSTED_PRICE = plus(column("price"), sumOfNumbers("adjustments"));
/** adjusted price / sqft, rounded to cents (halves up: floor(x + 0.5)); null without either (0 square feet is none). */
export const PRICE_PER_SQFT = over(floor(plus(over(times(ADJUSTED_PRICE, constant(100)), column("sqft")), constant(0.5))), constant(100));

export const adjustedPrice = (comp: Pick<ComparableFigures, "price" | "adjustments">): number | null => ADJUSTED_PRICE.js(comp);
export const pricePerSqft = (comp: Pick<ComparableFigures, "price" | "adjustments" | "sqft">): number | null => PRICE_PER_SQFT.js(comp);

/** The middle value of a sorted list; of an even count, the mean of the two middle values (rounded to cents). */
function median(sorted: number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : toCents((sorted[mid - 1] + sorted[mid]) / 2);
}

/** The analysis of a report from all of its comparables. */
export function valuate(subject: SubjectFigures, comparables: readonly ComparableFigures[], now: Date): Valuation {
  const used = comparables.filter((c) => c.included && pricePerSqft(c) !== null);
  const rates = used.map((c) => pricePerSqft(c)!).sort((a, b) => a - b);
  const pricePerSqftStats = rates.length ? { min: rates[0], median: median(rates), max: rates[rates.length - 1] } : null;
  const sqft = subject.sqft || null; // 0 square feet is no size
  const times = (rate: number) => Math.round(rate * sqft!);
  const estimatedValue = pricePerSqftStats && sqft ? times(pricePerSqftStats.median) : null;
  const valueRange = pricePerSqftStats && sqft ? { low: times(pricePerSqftStats.min), high: times(pricePerSqftStats.max) } : null;

  const holds: Record<ValuationWarning, boolean> = {
    too_few_comparables: used.length < MIN_COMPARABLES,
    subject_sqft_missing: sqft === null,
    stale_comparables: used.some((c) => c.status === "sold" && c.saleDate !== null && utcDaysBetween(c.saleDate, now) > STALE_AFTER_DAYS),
    distant_comparables: used.some((c) => c.distanceMiles !== null && c.distanceMiles > DISTANT_AFTER_MILES),
    list_price_differs: valueRange !== null && subject.price !== null && (subject.price < valueRange.low || subject.price > valueRange.high),
  };
  return {
    subject: { sqft: subject.sqft, price: subject.price },
    comparablesTotal: comparables.length,
    comparablesUsed: used.length,
    pricePerSqft: pricePerSqftStats,
    estimatedValue,
    valueRange,
    warnings: VALUATION_WARNINGS.filter((code) => holds[code]),
  };
}
