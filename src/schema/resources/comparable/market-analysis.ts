// The comparative market analysis of a report (DECISIONS "Comparables"): pure arithmetic on the report and its
// comparables, deterministic for a given `now`. The GraphQL fields (and through them REST) compute every figure
// here; README "Valuation" walks through an example.

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

/** The sum of a comparable's adjustments (an object of name → dollars; anything else counts as none). */
function adjustmentTotal(adjustments: unknown): number {
  if (typeof adjustments !== "object" || adjustments === null || Array.isArray(adjustments)) return 0;
  let total = 0;
  for (const value of Object.values(adjustments)) if (typeof value === "number") total += value;
  return total;
}

/** price + the sum of its adjustments; null without a price. */
export function adjustedPrice(comp: Pick<ComparableFigures, "price" | "adjustments">): number | null {
  return comp.price === null ? null : comp.price + adjustmentTotal(comp.adjustments);
}

/** adjusted price / sqft, rounded to cents (halves up); null without either. */
export function pricePerSqft(comp: Pick<ComparableFigures, "price" | "adjustments" | "sqft">): number | null {
  const adjusted = adjustedPrice(comp);
  if (adjusted === null || !comp.sqft) return null;
  // floor(x + 0.5) rather than Math.round: the same IEEE operations as PRICE_PER_SQFT_SQL, so both give the same number.
  return Math.floor((adjusted * 100) / comp.sqft + 0.5) / 100;
}

// The same two figures as SQL over a comparables row `c` (the one-statement read path, ../../sql-json): the
// adjustments' numbers summed (in jsonb's key order, which may differ from the object's; the stored adjustments
// are whole dollars, whose sum is exact in any order), price + that sum, then the rate.
const ADJUSTMENT_TOTAL_SQL = (c: string) =>
  `coalesce((SELECT sum(v.value::text::float8) FROM jsonb_each(CASE WHEN jsonb_typeof(${c}.adjustments) = 'object' THEN ${c}.adjustments ELSE '{}'::jsonb END) v WHERE jsonb_typeof(v.value) = 'number'), 0)`;
export const ADJUSTED_PRICE_SQL = (c: string) => `(${c}.price + ${ADJUSTMENT_TOTAL_SQL(c)})`;
export const PRICE_PER_SQFT_SQL = (c: string) => `(floor((${ADJUSTED_PRICE_SQL(c)} * 100) / nullif(${c}.sqft, 0) + 0.5) / 100)`;

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
    stale_comparables: used.some((c) => c.status === "sold" && c.saleDate !== null && now.getTime() - c.saleDate.getTime() > STALE_AFTER_DAYS * DAY_MS),
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
