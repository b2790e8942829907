// Every field of a comparable property, once (docs/api.md "Comparables").
import { z } from "zod";
import { enumSpec, type FieldSpec, type FieldTable } from "../../fields";
import { amount, between, count, hasInvalidCharacters, label, MAX_NUMBER, text, yearBuilt } from "../../rules";
import { formula, type Expr } from "../../computed";
import { ADJUSTED_PRICE, PRICE_PER_SQFT } from "./market-analysis";

export const ComparableStatus = enumSpec(
  "ComparableStatus",
  ["sold", "active", "pending", "off_market"] as const,
  "Market status of a comparable: sold (the default), active, pending or off_market",
);

/** Most comparables one replace of a report's set may send. */
export const MAX_REPLACED = 100;

/** At most this many adjustments per comparable. */
export const MAX_ADJUSTMENTS = 20;

/** name → signed whole dollars, at most MAX_ADJUSTMENTS entries, names of 1 to 100 characters. */
export const adjustmentsRule = z.record(z.string(), z.int().min(-MAX_NUMBER).max(MAX_NUMBER)).superRefine((adjustments, ctx) => {
  const names = Object.keys(adjustments);
  if (names.length > MAX_ADJUSTMENTS) ctx.addIssue({ code: "custom", message: `must have at most ${MAX_ADJUSTMENTS} entries`, input: adjustments });
  const bad = names.find((name) => name.trim() === "" || name.length > 100 || hasInvalidCharacters(name));
  if (bad !== undefined) ctx.addIssue({ code: "custom", message: "names must be 1 to 100 characters of text", input: adjustments });
});

const both = { create: "optional", update: true, nullable: true } as const;

/** A read-only dollar figure computed from the comparable's row by one formula (both read engines derive from it). */
const computed = (rest: string, description: string, expr: Expr) => ({ type: "Float", rest, nullable: true, description, ...formula(expr) }) satisfies FieldSpec;

export const comparableFields = {
  id: { type: "ID", rest: "id", description: "The comparable's id (a UUID)" },
  reportId: { type: "ID", rest: "report_id", description: "The report it is a comparable of (a UUID)" },
  address: { type: "String", rest: "address", rule: label(), create: "required", update: true, description: "Street address", example: "9 Comparable Avenue" },
  city: { type: "String", rest: "city", rule: text(), ...both, description: "City", example: "Springfield" },
  state: { type: "String", rest: "state", rule: text(), ...both, description: "State or region", example: "IL" },
  zip: { type: "String", rest: "zip", rule: text(), ...both, description: "Postal code (a string)", example: "62704" },
  price: { type: "Float", rest: "price", rule: amount(), ...both, description: "Closed price when sold, else list price, in dollars", example: 342000 },
  beds: { type: "Int", rest: "beds", aliases: ["bedrooms"], rule: count(), ...both, description: "Bedrooms", example: 3 },
  baths: { type: "Float", rest: "baths", aliases: ["bathrooms"], rule: amount(), ...both, description: "Bathrooms (halves allowed)", example: 2 },
  sqft: {
    type: "Int",
    rest: "sqft",
    aliases: ["square_feet"],
    rule: count().min(1),
    ...both,
    description: "Living area in square feet, at least 1",
    example: 1800,
  },
  lotSize: { type: "Float", rest: "lot_size", rule: amount(), ...both, description: "Lot size", example: 0.2 },
  yearBuilt: { type: "Int", rest: "year_built", rule: yearBuilt(), ...both, description: "Year built, 1600 to the current year + 5", example: 1995 },
  distanceMiles: { type: "Float", rest: "distance_miles", rule: amount(), ...both, description: "Distance from the subject in miles", example: 0.4 },
  saleDate: { type: "DateTime", rest: "sale_date", ...both, description: "Sale (closing) date", example: "2026-03-15T00:00:00Z" },
  daysOnMarket: { type: "Int", rest: "days_on_market", rule: count(), ...both, description: "Days on the market", example: 21 },
  status: { type: ComparableStatus, rest: "status", create: "optional", update: true, description: "sold (default), active, pending or off_market" },
  source: { type: "String", rest: "source", rule: text(), ...both, description: "Where the comparable came from, e.g. MLS", example: "MLS" },
  mlsId: { type: "String", rest: "mls_id", rule: text(), ...both, description: "MLS listing number", example: "MLS-20931" },
  latitude: { type: "Float", rest: "latitude", rule: between(-90, 90), ...both, description: "Latitude, -90 to 90", example: 39.7817 },
  longitude: { type: "Float", rest: "longitude", rule: between(-180, 180), ...both, description: "Longitude, -180 to 180", example: -89.6501 },
  adjustments: {
    type: "JSON",
    rest: "adjustments",
    rule: adjustmentsRule,
    create: "optional",
    update: true,
    description: `Price adjustments: name → signed whole dollars, at most ${MAX_ADJUSTMENTS} (an update replaces the whole object; {} clears it)`,
    example: { garage: 5000, pool: -10000 },
  },
  included: { type: "Boolean", rest: "included", create: "optional", update: true, description: "Whether the valuation uses it (default true)" },
  // Computed from the row, which Comparable always loads whole: a field `select` here would make Pothos load a
  // report's comparables in a second statement (measured in test/statements.test.ts).
  adjustedPrice: computed("adjusted_price", "price + the sum of adjustments; null without a price", ADJUSTED_PRICE),
  pricePerSqft: computed("price_per_sqft", "adjusted_price / sqft in dollars, rounded to cents; null without either", PRICE_PER_SQFT),
  createdAt: { type: "DateTime", rest: "created_at", description: "When the comparable was added" },
  updatedAt: { type: "DateTime", rest: "updated_at", description: "When the comparable last changed" },
} satisfies FieldTable;
