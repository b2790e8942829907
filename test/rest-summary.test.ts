// AI-generated executive summaries with the default template provider (docs/api.md "AI-generated summaries") against the
// real stack: POST /v1/reports/{id}/summary (responses checked against the OpenAPI document) and generateSummary in
// GraphQL, written from the report's facts, valuation, showings, engagement and insights.
import request from "supertest";
import { inputNumbers, ungroundedNumbers, wordCount } from "../src/schema/resources/summary/screen";
import { addKey, createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof restClient>;
let reportId: string;

const FACTS = { address: "42 Harbor View Road", city: "Portland", state: "ME", price: 615000, bedrooms: 4, bathrooms: 2.5, square_feet: 2400, year_built: 1987, property_type: "single_family" };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  api = restClient(t.app, team.auth);
  reportId = (await api.post("/v1/reports", FACTS)).body.data.id;
  const comps = [
    { address: "40 Harbor View Rd", price: 600000, sqft: 2300 },
    { address: "7 Bay St", price: 640000, sqft: 2500, adjustments: { garage: -5000 } },
    { address: "12 Cove Ln", price: 590000, sqft: 2250 },
  ];
  expect((await api.put(`/v1/reports/${reportId}/comparables`, { comparables: comps })).status).toBe(200);
  for (const showing of [
    { rating: 5, interested: true, feedback: "Loved the water views. Kitchen is dated." },
    { rating: 4, interested: false, feedback: "Perfect for families, big yard!" },
    { event_type: "open_house", attendees_count: 18, rating: 4 },
  ]) {
    expect((await api.post("/v1/showings", { report_id: reportId, ...showing })).status).toBe(201);
  }
  const posts = [
    { platform: "instagram", external_id: "p1", views: 5200, likes: 310 },
    { platform: "facebook", external_id: "p2", views: 2100, likes: 95, comments: 14 },
  ];
  expect((await api.post(`/v1/reports/${reportId}/social-posts/import`, { posts })).status).toBe(200);
  expect((await api.post(`/v1/reports/${reportId}/insights`, { title: "Waterfront demand", body: "Two nearby waterfront homes sold in under a week." })).status).toBe(201);
  expect((await api.post(`/v1/reports/${reportId}/insights`, { title: "Safe neighborhood", body: "Great for families and retirees." })).status).toBe(201);
});
afterAll(() => t.close());

const summarize = (body?: Record<string, unknown>, report = reportId) => api.post(`/v1/reports/${report}/summary`, body);

describe("POST /v1/reports/{reportId}/summary", () => {
  it("writes a standard professional summary from every input, saves it and says so", async () => {
    const before = (await api.get(`/v1/reports/${reportId}`)).body.data;
    const res = await summarize();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: "Summary generated",
      data: {
        report_id: reportId,
        executive_summary: expect.any(String),
        source: "template",
        model: "template-v1",
        generated_at: expect.any(String),
        saved: true,
        warnings: [],
      },
    });
    const text: string = res.body.data.executive_summary;
    expect(text).toMatch(/^42 Harbor View Road, Portland, ME is a single-family home with 4 bedrooms, 2\.5 bathrooms and 2,400 square feet, built in 1987\./);
    expect(text).toContain("It is listed at $615,000.");
    expect(text).toMatch(/An analysis of 3 comparable properties supports an estimated market value of \$[\d,]+/); // the valuation
    expect(text).toContain("2 showings and 1 open house, with an average rating of 4.3 out of 5; 1 visitor expressed interest");
    expect(text).toContain("7,300 views and 405 likes");
    expect(text).toContain("The listing agent notes: “Two nearby waterfront homes sold in under a week.”");
    expect(text).not.toMatch(/families|retirees|safe neighborhood/i); // the agent's and a visitor's flagged phrases
    expect(wordCount(text)).toBeLessThanOrEqual(150);

    const after = (await api.get(`/v1/reports/${reportId}`)).body.data;
    expect(after.executive_summary).toBe(text);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
  });

  it("writes every number from the inputs: the report, its valuation, showings, engagement and insights", async () => {
    const valuation = (await api.get(`/v1/reports/${reportId}/valuation`)).body.data;
    const text: string = (await summarize({ length: "long", save: false })).body.data.executive_summary;
    expect(text).toContain(`$${valuation.estimated_value.toLocaleString("en-US")}`);
    const inputs = { FACTS, valuation, showings: [5, 4, 4.3, 2, 1, 18], posts: [7300, 405, 14], insight: "Two nearby waterfront homes sold in under a week." };
    expect(ungroundedNumbers(text, inputNumbers(inputs))).toEqual([]);
  });

  it("gives the same text for the same inputs, a different one per tone, within each length's limit", async () => {
    const texts: Record<string, string> = {};
    for (const tone of ["professional", "warm", "luxury"]) {
      for (const [length, limit] of [["short", 60], ["standard", 150], ["long", 300]] as const) {
        const res = await summarize({ tone, length, save: false });
        expect(res.status).toBe(200);
        const text: string = res.body.data.executive_summary;
        expect(wordCount(text)).toBeLessThanOrEqual(limit);
        expect((await summarize({ tone, length, save: false })).body.data.executive_summary).toBe(text);
        texts[`${tone} ${length}`] = text;
      }
    }
    expect(new Set(Object.values(texts)).size).toBe(9);
    // The README's example.
    expect(texts["warm short"]).toBe(
      "Welcome to 42 Harbor View Road, Portland, ME, a single-family home with 4 bedrooms, 2.5 bathrooms and 2,400 square feet, built in 1987. It is offered at $615,000. Reach out to Alex Admin to come see it in person.",
    );
    expect(texts["luxury long"]).toMatch(/^Presenting 42 Harbor View Road/);
  });

  it("leaves the stored summary alone with save: false", async () => {
    await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Written by hand." });
    const res = await summarize({ tone: "warm", save: false });
    expect(res.body.data).toMatchObject({ saved: false, source: "template" });
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.executive_summary).toBe("Written by hand.");
  });

  it("summarises a report with no price, comparables, showings or posts", async () => {
    const bare = (await api.post("/v1/reports", { address: "5 Quiet Lane" })).body.data.id;
    const res = await summarize({ length: "long" }, bare);
    expect(res.status).toBe(200);
    expect(res.body.data.executive_summary).toBe("5 Quiet Lane is a home. Contact Alex Admin for details or to arrange a showing.");
    expect(res.body.data.warnings).toEqual([]);
  });

  it.each([
    [{ tone: "casual" }, "tone must be one of: professional, warm, luxury"],
    [{ length: "epic" }, "length must be one of: short, standard, long"],
    [{ save: "yes" }, "save must be a boolean"],
  ])("refuses %j with 400", async (body, message) => {
    expect(errorOf(await summarize(body))).toEqual({ status: 400, message });
  });

  it("leaves out an agent's or a visitor's text that disguises a flagged phrase (Unicode look-alikes, invisible characters)", async () => {
    const id = (await api.post("/v1/reports", { address: "9 Lookalike Lane", price: 410000 })).body.data.id;
    const disguised = [
      "The m\u0430ster\u200b bedroom faces east.", // Cyrillic a, zero-width space
      "A quiet, family\u2011friendly street.", // non-breaking hyphen
      "Perfect for \uff46\uff41\uff4d\uff49\uff4c\uff49\uff45\uff53 with kids.", // full-width letters
    ];
    for (const body of disguised) expect((await api.post(`/v1/reports/${id}/insights`, { body })).status).toBe(201);
    expect((await api.post("/v1/showings", { report_id: id, rating: 4, feedback: "N\u03bf children allowed, we hope." })).status).toBe(201);
    expect((await api.post("/v1/showings", { report_id: id, rating: 5, feedback: "Great light in the kitchen." })).status).toBe(201);

    const rest = await summarize({ length: "long", save: false }, id);
    const gql = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `mutation($id: ID!) { generateSummary(reportId: $id, length: long, save: false) { executiveSummary warnings } }`, variables: { id } });
    for (const { text, warnings } of [
      { text: rest.body.data.executive_summary as string, warnings: rest.body.data.warnings },
      { text: gql.body.data.generateSummary.executiveSummary as string, warnings: gql.body.data.generateSummary.warnings },
    ]) {
      expect(text).toContain("Great light in the kitchen.");
      expect(text).not.toMatch(/bedroom|street|with kids|allowed/);
      expect(warnings).toEqual([]);
    }
  });

  it("refuses a body that is not a JSON object", async () => {
    const res = await request(t.app).post(`/v1/reports/${reportId}/summary`).set(team.auth).set("Content-Type", "application/json").send("[1]");
    expect(errorOf(res)).toEqual({ status: 400, message: "Request body must be a JSON object" });
  });

  it("answers 404 for an unknown report, another team's, or not a UUID", async () => {
    const other = await createTeam();
    const theirs = (await restClient(t.app, other.auth).post("/v1/reports", { address: "9 Other St" })).body.data.id;
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000", "nope"]) {
      expect(errorOf(await summarize({}, id))).toEqual({ status: 404, message: "Report not found" });
    }
  });

  it("needs ai_insights:create, and reports:update to save", async () => {
    const reader = restClient(t.app, await addKey(team.teamId, "reports:read,ai_insights:read"));
    expect(errorOf(await reader.post(`/v1/reports/${reportId}/summary`, {}))).toEqual({ status: 403, message: "Permission denied: ai_insights:create" });
    const writer = restClient(t.app, await addKey(team.teamId, "ai_insights:create"));
    expect(errorOf(await writer.post(`/v1/reports/${reportId}/summary`, {}))).toEqual({ status: 403, message: "Permission denied: reports:update" });
    const res = await writer.post(`/v1/reports/${reportId}/summary`, { save: false });
    expect(res.status).toBe(200);
    expect(res.body.data.saved).toBe(false);
  });

  it("answers 405 for other methods", async () => {
    const res = await request(t.app).put(`/v1/reports/${reportId}/summary`).set(team.auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST");
  });
});

describe("generateSummary (GraphQL)", () => {
  const gql = (query: string, variables: Record<string, unknown> = {}) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });

  it("does what the REST route does, in GraphQL names", async () => {
    const res = await gql(
      `mutation($id: ID!) { generateSummary(reportId: $id, tone: luxury, length: short, save: false) { reportId executiveSummary source model generatedAt saved warnings } }`,
      { id: reportId },
    );
    expect(res.body.errors).toBeUndefined();
    const rest = await summarize({ tone: "luxury", length: "short", save: false });
    expect(res.body.data.generateSummary).toEqual({
      reportId,
      executiveSummary: rest.body.data.executive_summary,
      source: "template",
      model: "template-v1",
      generatedAt: expect.any(String),
      saved: false,
      warnings: [],
    });
  });

  it("names the problem of a bad report id", async () => {
    const res = await gql(`mutation { generateSummary(reportId: "nope") { saved } }`);
    expect(res.body.errors[0]).toMatchObject({ message: "Report not found", extensions: { code: "NOT_FOUND" } });
  });
});
