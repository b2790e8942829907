// How far a valuation can be trusted (docs/api.md "Comparables"; docs/features/comparables.md "Confidence and similarity"): a confidence
// from how many comparables the valuation uses and how far their adjusted prices per square foot spread, and each
// comparable's similarity to the subject. Pure arithmetic on the figures and `now`: the same inputs give the same
// answer. The GraphQL valuation (./valuation.ts), and through it REST, the public page and the PDF, read it here.
import { DISTANT_AFTER_MILES, pricePerSqft, STALE_AFTER_DAYS, utcDaysBetween, valuate, type ComparableFigures, type SubjectFigures, type Valuation } from "./market-analysis";

/** The subject's figures a similarity compares (the report's; null when unknown). */
export interface SubjectTraits {
  sqft: number | null;
  yearBuilt?: number | null;
  beds?: number | null;
  baths?: number | null;
}

/** A comparable's figures a similarity compares. */
export interface ComparableTraits {
  sqft: number | null;
  yearBuilt?: number | null;
  beds?: number | null;
  baths?: number | null;
  distanceMiles: number | null;
  saleDate: Date | null;
}


/**
 * Rounded to `decimals` places, halves up. The value is first taken to 9 places, so a sum that should be a half
 * (0.15 + 0.425 = 0.57499999…) rounds as the half it is.
 */
const roundTo = (value: number, decimals: number) => Math.floor(Math.round(value * 1e9) / 10 ** (9 - decimals) + 0.5) / 10 ** decimals;
const round2 = (value: number) => roundTo(value, 2);
/** 1 when the difference is 0, falling in a straight line to 0 at `zeroAt`, and 0 beyond. */
const closeness = (difference: number, zeroAt: number) => Math.max(0, 1 - difference / zeroAt);
const known = (value: number | null | undefined): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * The factors of a similarity: each compares one figure, scores 1 for identical and falls to 0 at `zeroAt`.
 * `score` answers null when a figure it needs is missing on either side; the factor then counts as MISSING_SCORE.
 * The weights sum to 1. The table of docs/features/comparables.md is this list.
 */
export const SIMILARITY_FACTORS = [
  {
    name: "size",
    weight: 0.3,
    zeroAt: 0.5,
    rule: "|sqft − subject sqft| / subject sqft; 0 at a 50 % difference",
    score: (s: SubjectTraits, c: ComparableTraits) => (known(s.sqft) && s.sqft > 0 && known(c.sqft) ? closeness(Math.abs(c.sqft - s.sqft) / s.sqft, 0.5) : null),
  },
  {
    name: "age",
    weight: 0.15,
    zeroAt: 30,
    rule: "|year_built − subject year_built|; 0 at 30 years",
    score: (s: SubjectTraits, c: ComparableTraits) => (known(s.yearBuilt) && known(c.yearBuilt) ? closeness(Math.abs(c.yearBuilt - s.yearBuilt), 30) : null),
  },
  {
    name: "beds",
    weight: 0.1,
    zeroAt: 3,
    rule: "|beds − subject beds|; 0 at 3 bedrooms",
    score: (s: SubjectTraits, c: ComparableTraits) => (known(s.beds) && known(c.beds) ? closeness(Math.abs(c.beds - s.beds), 3) : null),
  },
  {
    name: "baths",
    weight: 0.1,
    zeroAt: 2,
    rule: "|baths − subject baths|; 0 at 2 bathrooms",
    score: (s: SubjectTraits, c: ComparableTraits) => (known(s.baths) && known(c.baths) ? closeness(Math.abs(c.baths - s.baths), 2) : null),
  },
  {
    name: "distance",
    weight: 0.2,
    zeroAt: DISTANT_AFTER_MILES,
    rule: `distance_miles; 0 at ${DISTANT_AFTER_MILES} miles`,
    score: (_s: SubjectTraits, c: ComparableTraits) => (known(c.distanceMiles) ? closeness(c.distanceMiles, DISTANT_AFTER_MILES) : null),
  },
  {
    name: "recency",
    weight: 0.15,
    zeroAt: STALE_AFTER_DAYS,
    rule: `whole UTC calendar days from sale_date to today (a future date counts as 0); 0 at ${STALE_AFTER_DAYS} days`,
    score: (_s: SubjectTraits, c: ComparableTraits, now: Date) =>
      c.saleDate ? closeness(utcDaysBetween(c.saleDate, now), STALE_AFTER_DAYS) : null,
  },
] as const;

/** What a factor whose figure is missing (on either side) scores: neither a match nor a mismatch. */
export const MISSING_SCORE = 0.5;

/** The comparable's similarity to the subject, 0 to 1 (two decimals): the weighted sum of the factors. */
export function similarity(subject: SubjectTraits, comp: ComparableTraits, now: Date): number {
  let total = 0;
  for (const factor of SIMILARITY_FACTORS) total += factor.weight * (factor.score(subject, comp, now) ?? MISSING_SCORE);
  return round2(total);
}

export const CONFIDENCE_LEVELS = ["high", "medium", "low"] as const;
export type ConfidenceLevel = (typeof CONFIDENCE_LEVELS)[number];

/** The rule of a confidence; the table of docs/features/comparables.md is this object. */
export const CONFIDENCE_RULE = {
  /** Used comparables at which the count factor reaches 1 (it is used / this). */
  fullCount: 5,
  /** The coefficient of variation at which the spread factor reaches 0 (it is 1 − spread / this). */
  spreadZeroAt: 0.25,
  countWeight: 0.5,
  spreadWeight: 0.5,
  /** The lowest score of each level (by the score as answered, two decimals). */
  high: 0.75,
  medium: 0.5,
} as const;

export interface Confidence {
  level: ConfidenceLevel;
  /** 0 to 1, two decimals. */
  score: number;
  /**
   * The coefficient of variation (population standard deviation / mean) of the used comparables' price per square
   * foot, four decimals; null with fewer than 2 used or a mean that is not above 0.
   */
  spread: number | null;
}

/** The coefficient of variation of the rates, or null when there is none to measure. */
function coefficientOfVariation(unordered: readonly number[]): number | null {
  if (unordered.length < 2) return null;
  const rates = [...unordered].sort((a, b) => a - b); // one order of summing whatever the comparables' order

  const mean = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
  if (!(mean > 0)) return null;
  const variance = rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0) / rates.length;
  return Math.sqrt(variance) / mean;
}

/** The confidence of a valuation from the used comparables' prices per square foot (in any order). */
export function confidence(rates: readonly number[]): Confidence {
  const rule = CONFIDENCE_RULE;
  const spread = coefficientOfVariation(rates);
  const countFactor = Math.min(rates.length, rule.fullCount) / rule.fullCount;
  const spreadFactor = spread === null ? 0 : closeness(spread, rule.spreadZeroAt);
  const score = round2(rule.countWeight * countFactor + rule.spreadWeight * spreadFactor);
  const level: ConfidenceLevel = score >= rule.high ? "high" : score >= rule.medium ? "medium" : "low";
  return { level, score, spread: spread === null ? null : roundTo(spread, 4) };
}

/** A comparable of the report as the valuation weighed it. */
export interface WeighedComparable {
  id: string;
  /** 0 to 1, see similarity(). */
  similarity: number;
  /** Whether the valuation uses it (included, with an adjusted price and a sqft). */
  used: boolean;
}

/** The valuation with its confidence and each comparable's similarity (in the order given). */
export interface AppraisedValuation extends Valuation {
  confidence: Confidence;
  comparables: WeighedComparable[];
}

/** Whether the valuation uses a comparable (market-analysis.ts: included, with a price per square foot). */
const isUsed = (c: ComparableFigures) => c.included && pricePerSqft(c) !== null;

/** The valuation of a subject from its comparables, with the confidence and the similarities. */
export function appraise(
  subject: SubjectFigures & SubjectTraits,
  comparables: readonly (ComparableFigures & ComparableTraits & { id: string })[],
  now: Date,
): AppraisedValuation {
  const used = comparables.filter(isUsed);
  return {
    ...valuate(subject, comparables, now),
    confidence: confidence(used.map((c) => pricePerSqft(c)!)),
    comparables: comparables.map((c) => ({ id: c.id, similarity: similarity(subject, c, now), used: isUsed(c) })),
  };
}
