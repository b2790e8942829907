// The valuation's confidence and the comparables' similarity (src/schema/resources/comparable/confidence.ts) on
// hand-computed examples.
import { readFileSync } from "node:fs";
import path from "node:path";
import { appraise, confidence, similarity, SIMILARITY_FACTORS } from "../../src/schema/resources/comparable/confidence";
import type { ComparableFigures } from "../../src/schema/resources/comparable/market-analysis";

const NOW = new Date("2026-11-23T12:00:00Z");
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const SUBJECT = { sqft: 2000, yearBuilt: 1990, beds: 3, baths: 2 };
type Traits = { sqft: number | null; yearBuilt: number | null; beds: number | null; baths: number | null; distanceMiles: number | null; saleDate: Date | null };
const nothing: Traits = { sqft: null, yearBuilt: null, beds: null, baths: null, distanceMiles: null, saleDate: null };

describe("similarity", () => {
  it("weighs size, age, beds, baths, distance and recency (weights summing to 1)", () => {
    expect(SIMILARITY_FACTORS.reduce((sum, f) => sum + f.weight, 0)).toBeCloseTo(1, 12);
    // size 1 − 0.10/0.5 = 0.8; age 1 − 10/30; beds 1 − 1/3; baths 1 − 0.5/2 = 0.75; distance 1 − 1/5 = 0.8; recency 1 − 73/365 = 0.8
    // 0.3·0.8 + 0.15·(2/3) + 0.1·(2/3) + 0.1·0.75 + 0.2·0.8 + 0.15·0.8 = 0.24 + 0.1 + 0.0667 + 0.075 + 0.16 + 0.12 = 0.7617
    const comp = { sqft: 2200, yearBuilt: 2000, beds: 4, baths: 2.5, distanceMiles: 1, saleDate: daysBefore(73) };
    expect(similarity(SUBJECT, comp, NOW)).toBe(0.76);
  });

  it("is 1 for the subject's twin sold today and 0 when every figure is past its limit", () => {
    expect(similarity(SUBJECT, { ...SUBJECT, distanceMiles: 0, saleDate: NOW }, NOW)).toBe(1);
    const far = { sqft: 1000, yearBuilt: 1950, beds: 6, baths: 5, distanceMiles: 8, saleDate: daysBefore(400) };
    expect(similarity(SUBJECT, far, NOW)).toBe(0);
  });

  it("scores a missing figure (on either side) 0.5, neither a match nor a mismatch", () => {
    expect(similarity(SUBJECT, nothing, NOW)).toBe(0.5);
    // distance 0 known (0.2 · 1), the other 0.8 of the weight missing: 0.2 + 0.8 · 0.5
    expect(similarity(SUBJECT, { ...nothing, distanceMiles: 0 }, NOW)).toBe(0.6);
    // a subject of 0 square feet has no size: the size factor is missing even though the comparable has one
    expect(similarity({ sqft: 0 }, { ...nothing, sqft: 2000 }, NOW)).toBe(0.5);
    expect(similarity({ sqft: null }, { ...nothing, sqft: 2000 }, NOW)).toBe(0.5);
  });

  it("counts whole days since the sale, a future sale as today", () => {
    // 36.9 days → 36 whole days: 1 − 36/365 = 0.90137; 0.15 · that + 0.85 · 0.5 = 0.5602
    expect(similarity({ sqft: null }, { ...nothing, saleDate: new Date(NOW.getTime() - 36.9 * 86_400_000) }, NOW)).toBe(0.56);
    expect(similarity({ sqft: null }, { ...nothing, saleDate: new Date(NOW.getTime() + 9 * 86_400_000) }, NOW)).toBe(0.58); // 0.15 + 0.425 = 0.575
  });
});

describe("confidence", () => {
  it("is low with nothing or one comparable used (no spread to measure)", () => {
    expect(confidence([])).toEqual({ level: "low", score: 0, spread: null });
    expect(confidence([300])).toEqual({ level: "low", score: 0.1, spread: null }); // 0.5 · 1/5
  });

  it("combines the count (reaching 1 at 5) and the coefficient of variation (0 at 25 %)", () => {
    expect(confidence([300, 300, 300, 300, 300])).toEqual({ level: "high", score: 1, spread: 0 });
    expect(confidence([300, 300, 300, 300, 300, 300, 300])).toEqual({ level: "high", score: 1, spread: 0 });
    // mean 100, population sd √(200/3) = 8.165, CV 0.08165: 0.5 · 3/5 + 0.5 · (1 − 0.08165/0.25) = 0.3 + 0.3367
    expect(confidence([90, 100, 110])).toEqual({ level: "medium", score: 0.64, spread: 0.0816 });
    // mean 100, sd 20, CV 0.2: 0.5 · 2/5 + 0.5 · (1 − 0.8) = 0.2 + 0.1
    expect(confidence([80, 120])).toEqual({ level: "low", score: 0.3, spread: 0.2 });
    // a spread past 25 % scores no spread factor at all: 0.5 · 4/5
    expect(confidence([50, 100, 150, 200])).toEqual({ level: "low", score: 0.4, spread: 0.4472 });
  });

  it("has no spread when the mean is not above 0 (adjustments can make prices negative)", () => {
    expect(confidence([-10, 10])).toEqual({ level: "low", score: 0.2, spread: null });
  });

  it("gives the same answer whatever the order", () => {
    expect(confidence([325, 305, 310])).toEqual(confidence([305, 310, 325]));
  });
});

describe("appraise", () => {
  const comp = (id: string, figures: Partial<ComparableFigures & Traits>) => ({
    id,
    price: null,
    adjustments: {},
    included: true,
    status: "sold",
    ...nothing,
    ...figures,
  });

  it("adds the confidence and each comparable's similarity to the worked example of docs/features/comparables.md", () => {
    const subject = { sqft: 2000, price: 700000 };
    const comparables = [
      comp("a", { price: 600000, sqft: 2000, adjustments: { garage: 10000 }, saleDate: daysBefore(30), distanceMiles: 0.5 }), // 305.00
      comp("b", { price: 640000, sqft: 2000, adjustments: { pool: -20000 }, saleDate: daysBefore(60), distanceMiles: 1.2 }), // 310.00
      comp("c", { price: 585000, sqft: 1800, saleDate: daysBefore(90), distanceMiles: 2 }), // 325.00
      comp("d", { price: 900000, sqft: 1000, included: false }),
      comp("e", { price: 500000 }),
    ];
    const result = appraise(subject, comparables, NOW);
    expect(result.estimatedValue).toBe(620000);
    // rates 305, 310, 325: mean 313.33, sd 8.498, CV 0.0271; 0.3 + 0.5 · (1 − 0.0271/0.25) = 0.7458 → 0.75
    expect(result.confidence).toEqual({ level: "high", score: 0.75, spread: 0.0271 });
    // a: size 1, distance 0.9, recency 1 − 30/365 = 0.9178, age/beds/baths missing (0.35 · 0.5):
    //    0.3 + 0.18 + 0.1377 + 0.175 = 0.7927
    // c: size 1 − 0.1/0.5 = 0.8, distance 0.6, recency 1 − 90/365 = 0.7534: 0.24 + 0.12 + 0.113 + 0.175 = 0.648
    // b: size 1, distance 1 − 1.2/5 = 0.76, recency 1 − 60/365 = 0.8356: 0.3 + 0.152 + 0.1253 + 0.175 = 0.7523
    // d: size 0 (50 % smaller), the rest missing: 0.7 · 0.5 = 0.35; e: everything missing: 0.5
    expect(result.comparables).toEqual([
      { id: "a", similarity: 0.79, used: true },
      { id: "b", similarity: 0.75, used: true },
      { id: "c", similarity: 0.65, used: true },
      { id: "d", similarity: 0.35, used: false },
      { id: "e", similarity: 0.5, used: false },
    ]);
  });
});

describe("docs/features/comparables.md", () => {
  it("states the similarity factors as SIMILARITY_FACTORS does", () => {
    const readme = readFileSync(path.join(__dirname, "../../docs/features/comparables.md"), "utf8");
    const table = /<!-- similarity-factors[^>]*-->\n([\s\S]*?)\n<!-- \/similarity-factors -->/.exec(readme)?.[1];
    const rows = SIMILARITY_FACTORS.map((f) => `| ${f.name} | ${f.rule.replace(/\|/g, "\\|")} | ${f.weight} |`);
    expect(table).toBe(["| factor | compares | weight |", "|---|---|---|", ...rows].join("\n"));
  });
});
