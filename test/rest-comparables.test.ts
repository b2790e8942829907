// Comparables and the valuation (docs/api.md "Comparables") against the real stack: REST routes with every response
// checked against the OpenAPI document, and the same operations in GraphQL.
import request from "supertest";
import { prisma } from "../src/db";
import { addKey, createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp()));
afterAll(() => t.close());

const newReport = async (body: Record<string, unknown> = {}) => {
  const res = await api.post("/v1/reports", { address: "1 Subject St", ...body });
  expect(res.status).toBe(201);
  return res.body.data.id as string;
};
const addComparable = async (reportId: string, body: Record<string, unknown>) => {
  const res = await api.post(`/v1/reports/${reportId}/comparables`, { address: "9 Comp Ave", ...body });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

describe("POST /v1/reports/{reportId}/comparables", () => {
  it("adds a comparable with its defaults, aliases and computed prices", async () => {
    const reportId = await newReport();
    const res = await api.post(`/v1/reports/${reportId}/comparables`, {
      address: "12 Elm St",
      city: "Springfield",
      price: 500000,
      bedrooms: 3,
      bathrooms: 2.5,
      square_feet: 1600,
      lot_size: 0.25,
      year_built: 1990,
      distance_miles: 0.4,
      sale_date: "2026-06-01T00:00:00Z",
      days_on_market: 12,
      source: "MLS",
      mls_id: "MLS-1",
      latitude: 39.78,
      longitude: -89.65,
      adjustments: { garage: 5000, pool: -10000 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: "Comparable created successfully",
      data: {
        id: expect.any(String),
        report_id: reportId,
        address: "12 Elm St",
        city: "Springfield",
        state: null,
        zip: null,
        price: 500000,
        beds: 3,
        baths: 2.5,
        sqft: 1600,
        lot_size: 0.25,
        year_built: 1990,
        distance_miles: 0.4,
        sale_date: "2026-06-01T00:00:00.000Z",
        days_on_market: 12,
        status: "sold",
        source: "MLS",
        mls_id: "MLS-1",
        latitude: 39.78,
        longitude: -89.65,
        adjustments: { garage: 5000, pool: -10000 },
        included: true,
        adjusted_price: 495000,
        price_per_sqft: 309.38,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });

  it("leaves the computed prices null without a price or sqft, and defaults adjustments to {}", async () => {
    const reportId = await newReport();
    expect(await addComparable(reportId, { sqft: 1000 })).toMatchObject({ price: null, adjustments: {}, adjusted_price: null, price_per_sqft: null });
    expect(await addComparable(reportId, { price: 1000 })).toMatchObject({ adjusted_price: 1000, price_per_sqft: null });
  });

  it.each([
    [{ address: "" }, "address must not be empty"],
    [{ address: undefined }, "address is required"],
    [{ price: -1 }, "price must be at least 0"],
    [{ price: "500000" }, "price must be a number"],
    [{ sqft: 0 }, "sqft must be at least 1"],
    [{ square_feet: 0 }, "square_feet must be at least 1"],
    [{ beds: 2.5 }, "beds must be an integer"],
    [{ latitude: 91 }, "latitude must be at most 90"],
    [{ longitude: -180.5 }, "longitude must be at least -180"],
    [{ distance_miles: -0.1 }, "distance_miles must be at least 0"],
    [{ days_on_market: -1 }, "days_on_market must be at least 0"],
    [{ status: "withdrawn" }, "status must be one of: sold, active, pending, off_market"],
    [{ sale_date: "2026-06-01" }, "sale_date must be an ISO 8601 date-time"],
    [{ adjustments: [] }, "adjustments must be an object"],
    [{ adjustments: { garage: 10.5 } }, "adjustments.garage must be an integer"],
    [{ adjustments: { garage: "5000" } }, "adjustments.garage must be a number"],
    [{ adjustments: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`a${i}`, i])) }, "adjustments must have at most 20 entries"],
    [{ adjustments: { "": 1 } }, "adjustments names must be 1 to 100 characters of text"],
    [{ included: "yes" }, "included must be a boolean"],
  ])("refuses %j with 400", async (body, message) => {
    const reportId = await newReport();
    const res = await api.post(`/v1/reports/${reportId}/comparables`, { address: "1 Comp St", ...body });
    expect(errorOf(res)).toEqual({ status: 400, message });
    expect((await api.get(`/v1/reports/${reportId}/comparables`)).body.total).toBe(0);
  });

  it("answers 404 Report not found for an unknown, malformed or other team's report", async () => {
    const theirs = (await restClient(t.app, (await createTeam()).auth).post("/v1/reports", { address: "1 Their St" })).body.data.id;
    for (const id of [UNKNOWN, "nope", theirs]) {
      expect(errorOf(await api.post(`/v1/reports/${id}/comparables`, { address: "1 Comp St" }))).toEqual({ status: 404, message: "Report not found" });
    }
    expect(await prisma.comparable.count({ where: { reportId: theirs } })).toBe(0);
  });
});

describe("GET /v1/reports/{reportId}/comparables and /v1/comparables/{id}", () => {
  it("lists a report's comparables oldest first, in pages", async () => {
    const reportId = await newReport();
    for (const address of ["1 A St", "2 B St", "3 C St"]) await addComparable(reportId, { address });
    const all = await api.get(`/v1/reports/${reportId}/comparables`);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.body.data.map((c: { address: string }) => c.address)).toEqual(["1 A St", "2 B St", "3 C St"]);
    const page = await api.get(`/v1/reports/${reportId}/comparables?limit=1&offset=1`);
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 1, data: [{ address: "2 B St" }] });
    expect(errorOf(await api.get(`/v1/reports/${reportId}/comparables?limit=0`))).toEqual({ status: 400, message: "limit must be at least 1" });
    expect(errorOf(await api.get(`/v1/reports/${UNKNOWN}/comparables`))).toEqual({ status: 404, message: "Report not found" });
  });

  it("gets, patches and deletes one comparable; adjustments are replaced whole and {} clears them", async () => {
    const reportId = await newReport();
    const comp = await addComparable(reportId, { price: 400000, sqft: 2000, adjustments: { garage: 5000 } });
    expect((await api.get(`/v1/comparables/${comp.id}`)).body.data).toEqual(comp);

    const patched = await api.patch(`/v1/comparables/${comp.id}`, { adjustments: { view: 20000 }, included: false, status: "active", city: null });
    expect(patched.status).toBe(200);
    expect(patched.body.message).toBe("Comparable updated successfully");
    expect(patched.body.data).toMatchObject({ adjustments: { view: 20000 }, included: false, status: "active", adjusted_price: 420000, price_per_sqft: 210 });
    expect((await api.patch(`/v1/comparables/${comp.id}`, { adjustments: {} })).body.data).toMatchObject({ adjustments: {}, adjusted_price: 400000 });
    expect(errorOf(await api.patch(`/v1/comparables/${comp.id}`, { adjustments: null }))).toEqual({ status: 400, message: "adjustments must not be null" });
    expect(errorOf(await api.patch(`/v1/comparables/${comp.id}`, { address: null }))).toEqual({ status: 400, message: "address must not be null" });

    const deleted = await api.delete(`/v1/comparables/${comp.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: "Comparable deleted successfully" });
    for (const res of [await api.get(`/v1/comparables/${comp.id}`), await api.patch(`/v1/comparables/${comp.id}`, { price: 1 }), await api.delete(`/v1/comparables/${comp.id}`)]) {
      expect(errorOf(res)).toEqual({ status: 404, message: "Comparable not found" });
    }
  });

  it("keeps teams apart: another team's comparable is 404 for every action and stays as it was", async () => {
    const reportId = await newReport();
    const comp = await addComparable(reportId, { price: 1 });
    const other = restClient(t.app, (await createTeam()).auth);
    for (const res of [
      await other.get(`/v1/comparables/${comp.id}`),
      await other.patch(`/v1/comparables/${comp.id}`, { price: 2 }),
      await other.delete(`/v1/comparables/${comp.id}`),
      await other.get(`/v1/comparables/not-a-uuid`),
    ]) {
      expect(errorOf(res)).toEqual({ status: 404, message: "Comparable not found" });
    }
    for (const res of [await other.get(`/v1/reports/${reportId}/comparables`), await other.put(`/v1/reports/${reportId}/comparables`, { comparables: [] })]) {
      expect(errorOf(res)).toEqual({ status: 404, message: "Report not found" });
    }
    expect((await api.get(`/v1/comparables/${comp.id}`)).body.data.price).toBe(1);
  });

  it("embeds the comparables in the report detail with the same shape", async () => {
    const reportId = await newReport();
    const comp = await addComparable(reportId, { price: 300000, sqft: 1500 });
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.comparable_properties).toEqual([comp]);
  });
});

describe("PUT /v1/reports/{reportId}/comparables", () => {
  it("replaces the whole set in the order sent", async () => {
    const reportId = await newReport();
    const old = await addComparable(reportId, { address: "Old St" });
    const res = await api.put(`/v1/reports/${reportId}/comparables`, {
      comparables: [{ address: "3 Third St", price: 3 }, { address: "1 First St", bedrooms: 2 }, { address: "2 Second St", included: false }],
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Comparables replaced successfully");
    expect(res.body.data.map((c: { address: string }) => c.address)).toEqual(["3 Third St", "1 First St", "2 Second St"]);
    expect(res.body.data[1].beds).toBe(2);
    expect(res.body.data[2].included).toBe(false);
    const list = await api.get(`/v1/reports/${reportId}/comparables`);
    expect(list.body.data).toEqual(res.body.data);
    expect(errorOf(await api.get(`/v1/comparables/${old.id}`))).toEqual({ status: 404, message: "Comparable not found" });

    const cleared = await api.put(`/v1/reports/${reportId}/comparables`, { comparables: [] });
    expect(cleared.body.data).toEqual([]);
    expect((await api.get(`/v1/reports/${reportId}/comparables`)).body.total).toBe(0);
  });

  it("refuses an invalid set naming the item, and leaves the old set untouched", async () => {
    const reportId = await newReport();
    await api.put(`/v1/reports/${reportId}/comparables`, { comparables: [{ address: "Keep 1" }, { address: "Keep 2" }] });
    const before = (await api.get(`/v1/reports/${reportId}/comparables`)).body.data;
    const valid = { address: "New St", price: 1 };
    const cases: Array<[unknown, string]> = [
      [{ comparables: [valid, valid, valid, { address: "Bad", price: "abc" }] }, "comparables[3].price must be a number"],
      [{ comparables: [valid, { address: "Bad", square_feet: 0 }] }, "comparables[1].square_feet must be at least 1"],
      [{ comparables: [valid, { price: 1 }] }, "comparables[1].address is required"],
      [{ comparables: [valid, { address: "x", adjustments: { a: 1.5 } }] }, "comparables[1].adjustments.a must be an integer"],
      [{ comparables: [valid, "nope"] }, "comparables[1] must be an object"],
      [{ comparables: Array.from({ length: 101 }, () => valid) }, "comparables must have at most 100 items"],
      [{ comparables: { address: "x" } }, "comparables must be an array"],
      [{}, "comparables is required"],
    ];
    for (const [body, message] of cases) expect(errorOf(await api.put(`/v1/reports/${reportId}/comparables`, body))).toEqual({ status: 400, message });
    expect((await api.get(`/v1/reports/${reportId}/comparables`)).body.data).toEqual(before);
  });

  it("leaves exactly one of two concurrent sets, never a mix", async () => {
    const reportId = await newReport();
    const set = (name: string) => ({ comparables: Array.from({ length: 20 }, (_, i) => ({ address: `${i} ${name} St` })) });
    const sets = [set("Left"), set("Right")].map((b) => b.comparables.map((c) => c.address));
    // Without the report lock, one round in three left a mix on PostgreSQL: five rounds make it show.
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all([api.put(`/v1/reports/${reportId}/comparables`, set("Left")), api.put(`/v1/reports/${reportId}/comparables`, set("Right"))]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const stored = (await api.get(`/v1/reports/${reportId}/comparables?limit=100`)).body.data.map((c: { address: string }) => c.address);
      expect(sets).toContainEqual(stored);
    }
  });

  it("accepts 100 comparables", async () => {
    const reportId = await newReport();
    const res = await api.put(`/v1/reports/${reportId}/comparables`, { comparables: Array.from({ length: 100 }, (_, i) => ({ address: `${i} Many St` })) });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[99].address).toBe("99 Many St");
  });
});

describe("permissions", () => {
  it("answers 403 naming the permission each action needs, and changes nothing", async () => {
    const reportId = await newReport();
    const comp = await addComparable(reportId, { price: 1 });
    const only = async (permissions: string) => restClient(t.app, await addKey(team.teamId, permissions));
    const reader = await only("reports:read");
    const cases: Array<[Promise<any>, string]> = [
      [reader.get(`/v1/reports/${reportId}/comparables`), "comparables:read"],
      [reader.get(`/v1/comparables/${comp.id}`), "comparables:read"],
      [reader.get(`/v1/reports/${reportId}/valuation`), "comparables:read"],
      [reader.post(`/v1/reports/${reportId}/comparables`, { address: "x" }), "comparables:create"],
      [reader.patch(`/v1/comparables/${comp.id}`, { price: 2 }), "comparables:update"],
      [reader.delete(`/v1/comparables/${comp.id}`), "comparables:delete"],
      [reader.put(`/v1/reports/${reportId}/comparables`, { comparables: [] }), "comparables:create"],
      [(await only("comparables:create")).put(`/v1/reports/${reportId}/comparables`, { comparables: [] }), "comparables:update"],
      [(await only("comparables:create,comparables:update")).put(`/v1/reports/${reportId}/comparables`, { comparables: [] }), "comparables:delete"],
    ];
    for (const [res, permission] of cases) expect(errorOf(await res)).toEqual({ status: 403, message: `Permission denied: ${permission}` });
    expect((await api.get(`/v1/comparables/${comp.id}`)).body.data.price).toBe(1);

    // Each action with its own permission only.
    expect((await (await only("comparables:read")).get(`/v1/reports/${reportId}/valuation`)).status).toBe(200);
    const writer = await only("comparables:create,comparables:update,comparables:delete");
    expect((await writer.put(`/v1/reports/${reportId}/comparables`, { comparables: [{ address: "New" }] })).status).toBe(200);
  });
});

describe("GET /v1/reports/{reportId}/valuation", () => {
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

  it("computes the README's worked example", async () => {
    const reportId = await newReport({ sqft: 2000, price: 700000 });
    const replaced = await api.put(`/v1/reports/${reportId}/comparables`, {
      comparables: [
        { address: "A", price: 600000, sqft: 2000, adjustments: { garage: 10000 }, sale_date: daysAgo(30), distance_miles: 0.5 },
        { address: "B", price: 640000, sqft: 2000, adjustments: { pool: -20000 }, sale_date: daysAgo(60), distance_miles: 1.2 },
        { address: "C", price: 585000, sqft: 1800, sale_date: daysAgo(90), distance_miles: 2 },
        { address: "D", price: 900000, sqft: 1000, included: false },
        { address: "E", price: 500000 },
      ],
    });
    const ids = replaced.body.data.map((c: { id: string }) => c.id);
    const res = await api.get(`/v1/reports/${reportId}/valuation`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        subject: { sqft: 2000, price: 700000 },
        comparables_total: 5,
        comparables_used: 3,
        price_per_sqft: { min: 305, median: 310, max: 325 },
        estimated_value: 620000,
        value_range: { low: 610000, high: 650000 },
        warnings: ["list_price_differs"],
        // README "Confidence and similarity" (hand-computed in test/unit/confidence.test.ts)
        confidence: { level: "high", score: 0.75, spread: 0.0271 },
        comparables: [
          { id: ids[0], similarity: 0.79, used: true },
          { id: ids[1], similarity: 0.75, used: true },
          { id: ids[2], similarity: 0.65, used: true },
          { id: ids[3], similarity: 0.35, used: false },
          { id: ids[4], similarity: 0.5, used: false },
        ],
      },
    });
  });

  it("raises each warning exactly when its condition holds", async () => {
    const reportId = await newReport({ sqft: 2000, price: 615000 });
    await api.put(`/v1/reports/${reportId}/comparables`, {
      comparables: [
        // sold 400 days ago: stale; an active listing's old date is not
        { address: "A", price: 610000, sqft: 2000, sale_date: daysAgo(400), distance_miles: 5 },
        { address: "B", price: 620000, sqft: 2000, sale_date: daysAgo(10), distance_miles: 5.1 },
        { address: "C", price: 1, sqft: 1, status: "active", sale_date: daysAgo(900), distance_miles: 50, included: false },
      ],
    });
    const valuation = async () => (await api.get(`/v1/reports/${reportId}/valuation`)).body.data;
    expect(await valuation()).toEqual({
      subject: { sqft: 2000, price: 615000 },
      comparables_total: 3,
      comparables_used: 2,
      price_per_sqft: { min: 305, median: 307.5, max: 310 },
      estimated_value: 615000,
      value_range: { low: 610000, high: 620000 },
      warnings: ["too_few_comparables", "stale_comparables", "distant_comparables"],
      // 2 used, rates 305 and 310: CV 2.5 / 307.5 = 0.0081; 0.5 · 2/5 + 0.5 · (1 − 0.0081/0.25) = 0.68
      confidence: { level: "medium", score: 0.68, spread: 0.0081 },
      // size 1 (0.3) or 0 for C, distance 0 (5 miles and beyond), recency 0 (400 days) or 1 − 10/365 for B,
      // age, beds and baths unknown (0.35 · 0.5)
      comparables: [
        { id: expect.any(String), similarity: 0.48, used: true },
        { id: expect.any(String), similarity: 0.62, used: true },
        { id: expect.any(String), similarity: 0.18, used: false },
      ],
    });

    await api.patch(`/v1/reports/${reportId}`, { price: 620001 });
    expect((await valuation()).warnings).toEqual(["too_few_comparables", "stale_comparables", "distant_comparables", "list_price_differs"]);

    await api.patch(`/v1/reports/${reportId}`, { sqft: null });
    expect(await valuation()).toMatchObject({
      subject: { sqft: null, price: 620001 },
      price_per_sqft: { min: 305, median: 307.5, max: 310 },
      estimated_value: null,
      value_range: null,
      warnings: ["too_few_comparables", "subject_sqft_missing", "stale_comparables", "distant_comparables"],
    });
  });

  it("has no figures without a used comparable, and 404s for another team's report", async () => {
    const reportId = await newReport({ sqft: 1000 });
    expect((await api.get(`/v1/reports/${reportId}/valuation`)).body.data).toEqual({
      subject: { sqft: 1000, price: null },
      comparables_total: 0,
      comparables_used: 0,
      price_per_sqft: null,
      estimated_value: null,
      value_range: null,
      warnings: ["too_few_comparables"],
      confidence: { level: "low", score: 0, spread: null },
      comparables: [],
    });
    const other = restClient(t.app, (await createTeam()).auth);
    expect(errorOf(await other.get(`/v1/reports/${reportId}/valuation`))).toEqual({ status: 404, message: "Report not found" });
  });
});

describe("GraphQL", () => {
  const gql = (query: string, variables: Record<string, unknown> = {}) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });

  it("creates, replaces and values comparables with the same rules", async () => {
    const reportId = await newReport({ sqft: 1000 });
    const created = await gql(`mutation($r: ID!) { createComparable(reportId: $r, input: { address: "G1", price: 200000, sqft: 1000, adjustments: { deck: 5000 } }) { id adjustedPrice pricePerSqft status } }`, { r: reportId });
    expect(created.body.data.createComparable).toMatchObject({ adjustedPrice: 205000, pricePerSqft: 205, status: "sold" });

    const bad = await gql(`mutation($r: ID!, $c: [CreateComparableInput!]!) { replaceComparables(reportId: $r, comparables: $c) { id } }`, {
      r: reportId,
      c: [{ address: "ok" }, { address: "bad", latitude: 91 }],
    });
    expect(bad.body.errors[0]).toMatchObject({ message: "comparables[1].latitude must be at most 90", extensions: { code: "BAD_USER_INPUT" } });

    const report = await gql(`query($r: ID!) { report(id: $r) { comparables(limit: 1) { address } valuation { estimatedValue comparablesUsed warnings } } }`, { r: reportId });
    expect(report.body.data.report).toEqual({ comparables: [{ address: "G1" }], valuation: { estimatedValue: 205000, comparablesUsed: 1, warnings: ["too_few_comparables"] } });
  });

  it("answers the confidence and each comparable's similarity, the same on Comparable as in the valuation", async () => {
    const reportId = await newReport({ sqft: 2000, year_built: 1990, beds: 3, baths: 2 });
    const saleDate = new Date(Date.now() - 73 * 86_400_000).toISOString();
    const set = await api.put(`/v1/reports/${reportId}/comparables`, {
      comparables: [
        // hand-computed in test/unit/confidence.test.ts: 0.76
        { address: "S1", price: 660000, sqft: 2200, year_built: 2000, beds: 4, baths: 2.5, distance_miles: 1, sale_date: saleDate },
        // the subject's twin sold today: 1
        { address: "S2", price: 600000, sqft: 2000, year_built: 1990, beds: 3, baths: 2, distance_miles: 0, sale_date: new Date().toISOString() },
      ],
    });
    const [s1, s2] = set.body.data.map((c: { id: string }) => c.id);
    const valuation = `valuation { confidence { level score spread } comparables { id similarity used } }`;
    const expected = {
      // rates 300 and 300: no spread; 0.5 · 2/5 + 0.5 · 1
      confidence: { level: "medium", score: 0.7, spread: 0 },
      comparables: [
        { id: s1, similarity: 0.76, used: true },
        { id: s2, similarity: 1, used: true },
      ],
    };
    const root = await gql(`query($r: ID!) { ${valuation.replace("valuation", "valuation(reportId: $r)")} }`, { r: reportId });
    expect(root.body).toEqual({ data: { valuation: expected }, extensions: { cost: expect.anything() } });
    // A report read selecting similarity (the one-statement path does not serve it: the resolvers answer).
    const nested = await gql(`query($r: ID!) { report(id: $r) { comparables { id similarity } ${valuation} } }`, { r: reportId });
    expect(nested.body).toEqual({
      data: {
        report: {
          comparables: [
            { id: s1, similarity: 0.76 },
            { id: s2, similarity: 1 },
          ],
          valuation: expected,
        },
      },
      extensions: { cost: expect.anything() },
    });
    const one = await gql(`query($id: ID!) { comparable(id: $id) { similarity } }`, { id: s1 });
    expect(one.body).toEqual({ data: { comparable: { similarity: 0.76 } }, extensions: { cost: expect.anything() } });
    // The REST bodies of a comparable keep the comparable's own fields (as the report's detail and webhook payloads).
    expect((await api.get(`/v1/comparables/${s1}`)).body.data).not.toHaveProperty("similarity");
  });
});
