// The valuation arithmetic (src/schema/resources/comparable/market-analysis.ts) on hand-computed examples.
import { adjustedPrice, pricePerSqft, valuate, type ComparableFigures } from "../../src/schema/resources/comparable/market-analysis";

const NOW = new Date("2026-11-23T12:00:00Z");
const daysBefore = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const comp = (figures: Partial<ComparableFigures>): ComparableFigures => ({
  price: null,
  adjustments: {},
  sqft: null,
  included: true,
  status: "sold",
  saleDate: null,
  distanceMiles: null,
  ...figures,
});

describe("adjusted price and price per square foot", () => {
  it("adds the signed adjustments to the price, and rounds the price per square foot to cents", () => {
    expect(adjustedPrice(comp({ price: 500000, adjustments: { garage: 5000, pool: -10000 } }))).toBe(495000);
    expect(pricePerSqft(comp({ price: 500000, adjustments: { garage: 5000, pool: -10000 }, sqft: 1600 }))).toBe(309.38); // 309.375
    expect(pricePerSqft(comp({ price: 100000, sqft: 3 }))).toBe(33333.33);
    expect(pricePerSqft(comp({ price: 200000, sqft: 3 }))).toBe(66666.67);
  });

  it("is null without a price (adjusted) or without either (per square foot)", () => {
    expect(adjustedPrice(comp({ adjustments: { garage: 5000 } }))).toBeNull();
    expect(pricePerSqft(comp({ price: 1, sqft: null }))).toBeNull();
    expect(pricePerSqft(comp({ price: null, sqft: 100 }))).toBeNull();
  });
});

describe("valuate", () => {
  // The README's worked example.
  const example = [
    comp({ price: 600000, sqft: 2000, adjustments: { garage: 10000 }, saleDate: daysBefore(30), distanceMiles: 0.5 }), // 305.00
    comp({ price: 640000, sqft: 2000, adjustments: { pool: -20000 }, saleDate: daysBefore(60), distanceMiles: 1.2 }), // 310.00
    comp({ price: 585000, sqft: 1800, saleDate: daysBefore(90), distanceMiles: 2 }), // 325.00
    comp({ price: 900000, sqft: 1000, included: false }), // left out by the agent
    comp({ price: 500000 }), // no sqft: not used
  ];

  it("takes the median price per square foot of the used comparables × the subject's size", () => {
    expect(valuate({ sqft: 2000, price: 700000 }, example, NOW)).toEqual({
      subject: { sqft: 2000, price: 700000 },
      comparablesTotal: 5,
      comparablesUsed: 3,
      pricePerSqft: { min: 305, median: 310, max: 325 },
      estimatedValue: 620000,
      valueRange: { low: 610000, high: 650000 },
      warnings: ["list_price_differs"],
    });
    expect(valuate({ sqft: 2000, price: 650000 }, example, NOW).warnings).toEqual([]);
    expect(valuate({ sqft: 2000, price: 610000 }, example, NOW).warnings).toEqual([]);
    expect(valuate({ sqft: 2000, price: 609999 }, example, NOW).warnings).toEqual(["list_price_differs"]);
    expect(valuate({ sqft: 2000, price: null }, example, NOW).warnings).toEqual([]);
  });

  it("averages the two middle values of an even count, and rounds values to whole dollars", () => {
    const two = [comp({ price: 100001, sqft: 1000 }), comp({ price: 100002, sqft: 1000 })]; // 100.00 and 100.00 → 100.00
    expect(valuate({ sqft: 1234, price: null }, two, NOW).pricePerSqft).toEqual({ min: 100, median: 100, max: 100 });
    const uneven = [comp({ price: 100000, sqft: 1000 }), comp({ price: 100010, sqft: 1000 })]; // 100.00 and 100.01
    expect(valuate({ sqft: 1001, price: null }, uneven, NOW)).toMatchObject({
      pricePerSqft: { min: 100, median: 100.01, max: 100.01 }, // 100.005 to the cent
      estimatedValue: 100110, // 100.01 × 1001 = 100110.01
      valueRange: { low: 100100, high: 100110 },
    });
  });

  it("warns too_few_comparables below three used comparables", () => {
    expect(valuate({ sqft: 2000, price: null }, example.slice(1), NOW).warnings).toEqual(["too_few_comparables"]);
    expect(valuate({ sqft: 2000, price: null }, [], NOW)).toMatchObject({ comparablesUsed: 0, pricePerSqft: null, estimatedValue: null, valueRange: null, warnings: ["too_few_comparables"] });
  });

  it("warns subject_sqft_missing and gives no estimate without the subject's size (0 is no size)", () => {
    for (const sqft of [null, 0]) {
      expect(valuate({ sqft, price: 700000 }, example, NOW)).toMatchObject({
        pricePerSqft: { min: 305, median: 310, max: 325 },
        estimatedValue: null,
        valueRange: null,
        warnings: ["subject_sqft_missing"],
      });
    }
  });

  it("warns stale_comparables for a used sold comparable sold more than 365 days ago", () => {
    const withSale = (status: string, days: number, included = true) => [...example.slice(0, 2), comp({ ...example[2], status, saleDate: daysBefore(days), included })];
    expect(valuate({ sqft: 2000, price: null }, withSale("sold", 366), NOW).warnings).toEqual(["stale_comparables"]);
    expect(valuate({ sqft: 2000, price: null }, withSale("sold", 365), NOW).warnings).toEqual([]);
    expect(valuate({ sqft: 2000, price: null }, withSale("active", 900), NOW).warnings).toEqual([]);
    expect(valuate({ sqft: 2000, price: null }, withSale("sold", 900, false), NOW).warnings).toEqual(["too_few_comparables"]);
  });

  it("warns distant_comparables for a used comparable farther than 5 miles", () => {
    const at = (miles: number) => [...example.slice(0, 2), comp({ ...example[2], distanceMiles: miles })];
    expect(valuate({ sqft: 2000, price: null }, at(5.01), NOW).warnings).toEqual(["distant_comparables"]);
    expect(valuate({ sqft: 2000, price: null }, at(5), NOW).warnings).toEqual([]);
  });

  it("lists every warning that holds, in a fixed order", () => {
    const comps = [comp({ price: 1000, sqft: 10, saleDate: daysBefore(500), distanceMiles: 9 })];
    expect(valuate({ sqft: null, price: 1 }, comps, NOW).warnings).toEqual(["too_few_comparables", "subject_sqft_missing", "stale_comparables", "distant_comparables"]);
    expect(valuate({ sqft: 10, price: 1 }, comps, NOW).warnings).toEqual(["too_few_comparables", "stale_comparables", "distant_comparables", "list_price_differs"]);
  });
});
