// RESO Data Dictionary records in and out of REST (docs/api.md "RESO"; src/rest/reso.ts) on the
// real stack, each answer checked against the OpenAPI document: the report as a RESO Property record, reports and
// comparables created from one with the names not mapped reported, 400s naming the RESO field, and the round trip
// report → RESO → report on generated reports.
import fc from "fast-check";
import { createTeam, errorOf, type TestApp } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";
import { propertyTypeRow, RESO_FIELDS } from "../src/rest/reso";

let t: TestApp, api: RestClient;
beforeAll(async () => ({ t, api } = await teamApp({ name: "Sunset Realty" })));
afterAll(() => t.close());

const FULL = {
  address: "10 Ocean Ave",
  city: "Santa Monica",
  state: "CA",
  zip: "90401",
  price: 1250000,
  beds: 3,
  baths: 2.5,
  sqft: 1800,
  year_built: 1962,
  lot_size: 0.18,
  property_type: "condo",
  description: "Steps from the beach.",
  listing_agent: "Jo Agent",
  mls_id: "MLS-77",
};
const create = async (body: Record<string, unknown>) => {
  const res = await api.post("/v1/reports", body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};

describe("GET /v1/reports/{reportId}?format=reso", () => {
  it("answers the report as a RESO Property record, StandardStatus from its status", async () => {
    const report = await create(FULL);
    const res = await api.get(`/v1/reports/${report.id}?format=reso`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        ListingKey: report.id,
        ListingId: "MLS-77",
        UnparsedAddress: "10 Ocean Ave",
        City: "Santa Monica",
        StateOrProvince: "CA",
        PostalCode: "90401",
        StandardStatus: "Coming Soon",
        ListPrice: 1250000,
        BedroomsTotal: 3,
        BathroomsTotalInteger: 3,
        BathroomsHalf: 1,
        LivingArea: 1800,
        LivingAreaUnits: "Square Feet",
        YearBuilt: 1962,
        LotSizeAcres: 0.18,
        PropertyType: "Residential",
        PropertySubType: "Condominium",
        PublicRemarks: "Steps from the beach.",
        ListAgentFullName: "Jo Agent",
        ModificationTimestamp: report.updated_at,
      },
    });
    await api.patch(`/v1/reports/${report.id}`, { status: "published" });
    expect((await api.get(`/v1/reports/${report.id}?format=reso`)).body.data.StandardStatus).toBe("Active");
    expect((await api.get(`/v1/reports/${report.id}?format=json`)).body.data).toMatchObject({ id: report.id, status: "published" });
  });

  it("answers 404 for another team's report and 400 for an unknown format", async () => {
    const report = await create({ address: "1 Mine St" });
    const other = restClient(t.app, (await createTeam()).auth);
    expect(errorOf(await other.get(`/v1/reports/${report.id}?format=reso`))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await api.get(`/v1/reports/${report.id}?format=xml`))).toEqual({ status: 400, message: "format must be one of json, reso" });
    expect(errorOf(await api.get(`/v1/reports/${report.id}?format=reso&format=json`))).toEqual({ status: 400, message: "format must be given once, as text" });
  });
});

describe("POST /v1/reports with a RESO record", () => {
  const RECORD = {
    ListingKey: "their-key",
    UnparsedAddress: "12 Elm St",
    City: "Springfield",
    ListPrice: 350000,
    BathroomsTotalInteger: 3,
    BathroomsHalf: 1,
    LivingArea: 100,
    LivingAreaUnits: "Square Meters",
    StandardStatus: "Active",
    Cooling: "Central Air",
  };

  it("maps it, answers 201 with the report and the names it did not map", async () => {
    const res = await api.post("/v1/reports?format=reso", RECORD);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: expect.objectContaining({ address: "12 Elm St", city: "Springfield", price: 350000, baths: 2.5, sqft: 1076, status: "draft" }),
      message: "Report created successfully",
      ignored_fields: ["ListingKey", "StandardStatus", "Cooling"],
    });
    expect(res.body.data.id).not.toBe("their-key");
  });

  it("detects a RESO record without format, and refuses a body mixing both kinds of names", async () => {
    const res = await api.post("/v1/reports", { UnparsedAddress: "13 Elm St", ListPrice: 1 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ data: { address: "13 Elm St", price: 1 }, ignored_fields: [] });
    const plain = await api.post("/v1/reports", { address: "14 Elm St" });
    expect(plain.status).toBe(201);
    expect(plain.body.ignored_fields).toEqual([]);
    expect(errorOf(await api.post("/v1/reports", { address: "15 Elm St", ListPrice: 1 }))).toEqual({
      status: 400,
      message: "The body mixes RESO names (ListPrice) and this API's names (address); send format=reso or format=json",
    });
    // format=json reads this API's names only: the RESO names are unknown fields, and address is missing
    expect(errorOf(await api.post("/v1/reports?format=json", { UnparsedAddress: "16 Elm St" }))).toEqual({ status: 400, message: "Address is required" });
  });

  it.each([
    [{ City: "x" }, "UnparsedAddress is required"],
    [{ UnparsedAddress: "1 A St", ListPrice: "cheap" }, "ListPrice must be a number"],
    [{ UnparsedAddress: "1 A St", ListPrice: -1 }, "ListPrice must be at least 0"],
    [{ UnparsedAddress: "1 A St", YearBuilt: 1200 }, "YearBuilt must be between 1600 and "],
    [{ UnparsedAddress: "1 A St", BedroomsTotal: 2.5 }, "BedroomsTotal must be a whole number"],
    [{ UnparsedAddress: "1 A St", LivingArea: 10, LivingAreaUnits: "Acres" }, "LivingAreaUnits must be Square Feet or Square Meters"],
    [{ UnparsedAddress: "1 A St", PropertyType: "Castle" }, "PropertyType must be one of"],
  ])("refuses %j with a 400 naming the RESO field, creating nothing", async (record, message) => {
    const before = (await api.get("/v1/reports?limit=1")).body.total;
    const res = await api.post("/v1/reports?format=reso", record);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(message);
    expect((await api.get("/v1/reports?limit=1")).body.total).toBe(before);
  });

  it("answers 400 for an unknown format and for a body that is not an object", async () => {
    expect(errorOf(await api.post("/v1/reports?format=csv", { address: "1 A St" }))).toEqual({ status: 400, message: "format must be one of json, reso" });
    expect(errorOf(await api.post("/v1/reports?format=reso", [{ UnparsedAddress: "1 A St" }]))).toEqual({ status: 400, message: "Request body must be a JSON object" });
  });
});

describe("POST /v1/reports/{reportId}/comparables with a RESO record", () => {
  it("maps a closed sale, and the valuation uses it", async () => {
    const report = await create({ address: "1 Subject St", sqft: 1000 });
    const res = await api.post(`/v1/reports/${report.id}/comparables?format=reso`, {
      UnparsedAddress: "3 Oak Ave",
      StandardStatus: "Closed",
      ClosePrice: 520000,
      ListPrice: 540000,
      CloseDate: "2026-06-01",
      LivingArea: 1000,
      BedroomsTotal: 3,
      Latitude: 39.78,
      Longitude: -89.65,
      DaysOnMarket: 9,
      ListingId: "MLS-9",
      Heating: "Forced Air",
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      data: expect.objectContaining({
        report_id: report.id,
        address: "3 Oak Ave",
        status: "sold",
        price: 520000,
        sale_date: "2026-06-01T00:00:00.000Z",
        sqft: 1000,
        beds: 3,
        latitude: 39.78,
        longitude: -89.65,
        days_on_market: 9,
        mls_id: "MLS-9",
      }),
      message: "Comparable created successfully",
      ignored_fields: ["ListPrice", "Heating"],
    });
    expect((await api.get(`/v1/reports/${report.id}/valuation`)).body.data.estimated_value).toBe(520000);
  });

  it("refuses a bad record naming the RESO field, and an unknown format", async () => {
    const report = await create({ address: "2 Subject St" });
    const path = `/v1/reports/${report.id}/comparables`;
    expect(errorOf(await api.post(`${path}?format=reso`, { UnparsedAddress: "x", StandardStatus: "Sold" }))).toMatchObject({ status: 400 });
    expect((await api.post(`${path}?format=reso`, { UnparsedAddress: "x", StandardStatus: "Sold" })).body.error.message).toMatch(/^StandardStatus must be one of /);
    expect(errorOf(await api.post(`${path}?format=reso`, { UnparsedAddress: "x", Latitude: 91 }))).toEqual({ status: 400, message: "Latitude must be at most 90" });
    expect(errorOf(await api.post(`${path}?format=yaml`, { address: "x" }))).toEqual({ status: 400, message: "format must be one of json, reso" });
    expect((await api.get(`${path}`)).body.total).toBe(0);
  });
});

describe("the round trip report → RESO → report", () => {
  /** The report fields a RESO record fills on input. */
  const MAPPED = [...new Set(RESO_FIELDS.flatMap((row) => (row.report && !row.report.readOnly && !row.report.inOnly ? [row.report.field] : [])))];
  const text = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,'#-]{0,29}$/);
  const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const body = fc.record(
    {
      address: text,
      city: optional(text),
      state: optional(text),
      zip: optional(text),
      price: optional(fc.double({ min: 0, max: 1e12, noNaN: true })),
      beds: optional(fc.integer({ min: 0, max: 50 })),
      baths: optional(fc.integer({ min: 0, max: 40 }).map((halves) => halves / 2)),
      sqft: optional(fc.integer({ min: 0, max: 2_000_000_000 })),
      year_built: optional(fc.integer({ min: 1600, max: 2030 })),
      lot_size: optional(fc.double({ min: 0, max: 1e6, noNaN: true })),
      property_type: optional(fc.oneof(fc.constantFrom("single_family", "condo", "land", "multi_family"), text.filter((s) => !propertyTypeRow(s)))),
      description: optional(text),
      listing_agent: optional(text),
      mls_id: optional(text),
    },
    { requiredKeys: ["address"] },
  );

  it("keeps every mapped field of generated reports", async () => {
    await fc.assert(
      fc.asyncProperty(body, async (fields) => {
        const first = await create(JSON.parse(JSON.stringify(fields)));
        const reso = (await api.get(`/v1/reports/${first.id}?format=reso`)).body.data;
        const again = await api.post("/v1/reports?format=reso", reso);
        expect(again.status).toBe(201);
        expect(again.body.ignored_fields).toEqual(["ListingKey", "StandardStatus", "ModificationTimestamp"]);
        const second = (await api.get(`/v1/reports/${again.body.data.id}`)).body.data;
        const pick = (r: Record<string, unknown>) => Object.fromEntries(MAPPED.map((field) => [field, r[field]]));
        expect(pick(second)).toEqual(pick(first));
      }),
      { numRuns: 15 },
    );
  });
});
