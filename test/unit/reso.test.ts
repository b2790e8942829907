// The RESO mapping (src/rest/reso.ts): hand-made records, the round trip report → RESO → report as a property, and
// the table of docs/features/reso.md as the module's.
import fc from "fast-check";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROPERTY_TYPE_TABLE, propertyTypeRow, readmeTable, reportToReso, resoToBody, RESO_FIELDS } from "../../src/rest/reso";

const REPORT = {
  id: "5b7c8a52-3a43-4f0e-9d8c-2f6f2f1f5a11",
  address: "12 Elm St",
  city: "Springfield",
  state: "IL",
  zip: "62704",
  price: 350000,
  beds: 3,
  baths: 2.5,
  sqft: 1850,
  year_built: 1998,
  lot_size: 0.25,
  property_type: "single_family",
  status: "published",
  description: "Bright and quiet.",
  listing_agent: "Ann Agent",
  mls_id: "MLS-1",
  updated_at: "2026-11-20T10:00:00.000Z",
  executive_summary: "not mapped",
};

/** The report fields the mapping reads back (every field a RESO name fills on input). */
const MAPPED = [...new Set(RESO_FIELDS.flatMap((row) => (row.report && !row.report.readOnly && !row.report.inOnly ? [row.report.field] : [])))];

describe("a report as a RESO Property record", () => {
  it("has the Data Dictionary names, StandardStatus and units", () => {
    expect(reportToReso(REPORT)).toEqual({
      ListingKey: REPORT.id,
      ListingId: "MLS-1",
      UnparsedAddress: "12 Elm St",
      City: "Springfield",
      StateOrProvince: "IL",
      PostalCode: "62704",
      StandardStatus: "Active",
      ListPrice: 350000,
      BedroomsTotal: 3,
      BathroomsTotalInteger: 3,
      BathroomsHalf: 1,
      LivingArea: 1850,
      LivingAreaUnits: "Square Feet",
      YearBuilt: 1998,
      LotSizeAcres: 0.25,
      PropertyType: "Residential",
      PropertySubType: "Single Family Residence",
      PublicRemarks: "Bright and quiet.",
      ListAgentFullName: "Ann Agent",
      ModificationTimestamp: "2026-11-20T10:00:00.000Z",
    });
    expect(reportToReso({ ...REPORT, status: "draft" }).StandardStatus).toBe("Coming Soon");
  });

  it("answers null for what the report does not have, and other property types as PropertySubType", () => {
    const record = reportToReso({ id: "x", address: "1 A St", status: "draft", property_type: "Houseboat" });
    expect(record).toMatchObject({ ListPrice: null, BathroomsTotalInteger: null, BathroomsHalf: null, LivingArea: null, LivingAreaUnits: null });
    expect(record).toMatchObject({ PropertyType: null, PropertySubType: "Houseboat" });
  });
});

describe("a RESO Property record as a report or comparable", () => {
  it("maps the names, reports the ones it does not map, and converts units", () => {
    const { body, ignored } = resoToBody("report", {
      ListingKey: "theirs",
      UnparsedAddress: "1 A St",
      ListPrice: 1,
      BathroomsTotalInteger: 4,
      BathroomsHalf: 2,
      LivingArea: 100,
      LivingAreaUnits: "Square Meters",
      LotSizeSquareFeet: 21780,
      PropertyType: "Residential",
      PropertySubType: "Condominium",
      StandardStatus: "Active",
      Cooling: "Central Air",
      ModificationTimestamp: "2026-01-01T00:00:00Z",
    });
    expect(body).toEqual({ address: "1 A St", price: 1, baths: 3, sqft: 1076, lot_size: 0.5, property_type: "condo" });
    expect(ignored).toEqual(["ListingKey", "StandardStatus", "Cooling", "ModificationTimestamp"]);
  });

  it("takes the first of two names for one field and reports the other", () => {
    const { body, ignored } = resoToBody("comparable", { UnparsedAddress: "1 A St", ListPrice: 2, ClosePrice: 1, LotSizeAcres: 1, LotSizeSquareFeet: 5, BathroomsHalf: 1 });
    expect(body).toEqual({ address: "1 A St", price: 1, lot_size: 1 });
    expect(ignored).toEqual(["ListPrice", "LotSizeSquareFeet", "BathroomsHalf"]);
  });

  it("maps a comparable's StandardStatus, CloseDate and coordinates", () => {
    const record = { UnparsedAddress: "1 A St", StandardStatus: "Closed", CloseDate: "2026-06-01", Latitude: 39.7, Longitude: -89.6, DaysOnMarket: 12 };
    expect(resoToBody("comparable", record).body).toEqual({ address: "1 A St", status: "sold", sale_date: "2026-06-01T00:00:00Z", latitude: 39.7, longitude: -89.6, days_on_market: 12 });
    expect(resoToBody("comparable", { ...record, StandardStatus: "Withdrawn" }).body.status).toBe("off_market");
    expect(resoToBody("comparable", { ...record, StandardStatus: "Active Under Contract" }).body.status).toBe("pending");
  });

  it.each([
    [{}, "UnparsedAddress is required"],
    [{ UnparsedAddress: 5 }, "UnparsedAddress must be a string"],
    [{ UnparsedAddress: "a", ListPrice: "1" }, "ListPrice must be a number"],
    [{ UnparsedAddress: "a", BedroomsTotal: 2.5 }, "BedroomsTotal must be a whole number"],
    [{ UnparsedAddress: "a", BathroomsTotalInteger: 1, BathroomsHalf: 2 }, "BathroomsHalf must be at most BathroomsTotalInteger"],
    [{ UnparsedAddress: "a", LivingArea: 1, LivingAreaUnits: "Acres" }, "LivingAreaUnits must be Square Feet or Square Meters"],
    [{ UnparsedAddress: "a", PropertyType: "Castle" }, "PropertyType must be one of"],
    [{ UnparsedAddress: "a", LotSizeSquareFeet: 1e13 }, "LotSizeSquareFeet must be within ±1000000000000"],
    [{ UnparsedAddress: "a", PropertyType: "Residential", PropertySubType: 3 }, "PropertySubType must be a string"],
  ])("refuses %j naming the RESO field", (record, message) => {
    expect(() => resoToBody("report", record)).toThrow(message);
  });

  it("refuses an unknown StandardStatus of a comparable", () => {
    expect(() => resoToBody("comparable", { UnparsedAddress: "a", StandardStatus: "Sold" })).toThrow("StandardStatus must be one of Active, ");
  });
});

describe("the round trip report → RESO → report", () => {
  const text = fc.string({ minLength: 1, maxLength: 30 });
  const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
  const report = fc.record({
    id: fc.uuid(),
    address: text,
    city: nullable(text),
    state: nullable(text),
    zip: nullable(text),
    price: nullable(fc.double({ min: 0, max: 1e12, noNaN: true })),
    beds: nullable(fc.integer({ min: 0, max: 50 })),
    baths: nullable(fc.integer({ min: 0, max: 40 }).map((halves) => halves / 2)),
    sqft: nullable(fc.integer({ min: 0, max: 2_000_000_000 })),
    year_built: nullable(fc.integer({ min: 1600, max: 2030 })),
    lot_size: nullable(fc.double({ min: 0, max: 1e6, noNaN: true })),
    // Free text that spells a known type comes back as that type's value (see "common spellings" below).
    property_type: nullable(fc.oneof(fc.constantFrom(...PROPERTY_TYPE_TABLE.map((row) => row.value)), text.filter((s) => !propertyTypeRow(s)))),
    status: fc.constantFrom("draft", "published"),
    description: nullable(text),
    listing_agent: text,
    mls_id: nullable(text),
    updated_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  });

  it("keeps every mapped field, and ignores only the names that are answered but not read", () => {
    fc.assert(
      fc.property(report, (r) => {
        const { body, ignored } = resoToBody("report", reportToReso(r));
        const kept = Object.fromEntries(MAPPED.map((field) => [field, r[field as keyof typeof r]]));
        expect({ ...Object.fromEntries(MAPPED.map((f) => [f, null])), ...body }).toEqual(kept);
        expect(ignored).toEqual(["ListingKey", "StandardStatus", "ModificationTimestamp"]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("PropertyType from free text", () => {
  const typeOf = (property_type: string) => reportToReso({ ...REPORT, property_type });
  it.each([
    ["Single Family", "Residential", "Single Family Residence"],
    ["single-family home", "Residential", "Single Family Residence"],
    ["Single Family Residence", "Residential", "Single Family Residence"],
    ["SFR", "Residential", "Single Family Residence"],
    [" Condo ", "Residential", "Condominium"],
    ["Condominium", "Residential", "Condominium"],
    ["Townhome", "Residential", "Townhouse"],
    ["town house", "Residential", "Townhouse"],
    ["Multi-Family", "Residential Income", null],
    ["LAND", "Land", null],
    ["Farm", "Farm", null],
    ["Commercial", "Commercial Sale", null],
  ])("maps the common spelling %j to %s", (text, type, subType) => {
    expect(typeOf(text)).toMatchObject({ PropertyType: type, PropertySubType: subType });
  });
  it("leaves other text as PropertySubType alone", () => {
    expect(typeOf("Castle")).toMatchObject({ PropertyType: null, PropertySubType: "Castle" });
    expect(typeOf("Single Family Castle")).toMatchObject({ PropertyType: null, PropertySubType: "Single Family Castle" });
  });
});

describe("docs/features/reso.md", () => {
  it("holds the module's mapping table", () => {
    const readme = readFileSync(path.join(__dirname, "../../docs/features/reso.md"), "utf8");
    const table = /<!-- reso-fields[^>]*-->\n([\s\S]*?)\n<!-- \/reso-fields -->/.exec(readme)?.[1];
    expect(table).toBe(readmeTable());
  });
});
