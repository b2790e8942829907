// REST /v1/reports against the real stack: every rule of docs/api.md for reports, with each response
// checked against the OpenAPI document.
import { prisma } from "../src/db";
import { createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import request from "supertest";
import { expectDocumented, restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp({ name: "Sunset Realty" })));
afterAll(() => t.close());

const create = async (body: Record<string, unknown>, client = api) => {
  const res = await client.post("/v1/reports", body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};

describe("POST /v1/reports", () => {
  it("creates a draft with 201, the create fields and the team's defaults", async () => {
    const res = await api.post("/v1/reports", { address: "10 Ocean Ave", city: "Santa Monica", state: "CA", zip: "90401", price: 1250000, beds: 3, baths: 2.5, sqft: 1800, custom_agent_name: "Jo" });
    expect(res.status).toBe(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({
      address: "10 Ocean Ave",
      city: "Santa Monica",
      state: "CA",
      zip: "90401",
      price: 1250000,
      bedrooms: 3,
      bathrooms: 2.5,
      square_feet: 1800,
      date_created: expect.any(String),
      listing_agent: "Alex Admin",
      created_by: "Sunset Realty",
      custom_agent_name: "Jo",
      status: "draft",
      is_draft: true,
      is_published: false,
      published_at: null,
      views_count: 0,
      saves_count: 0,
      showings_count: 0,
    });
    expect(res.body.data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps a listing_agent and created_by that are sent, and the extra create fields", async () => {
    const data = await create({ address: "1 Extra St", listing_agent: "Pat Agent", created_by: "Import bot", portal_property_id: "Z-1", portal_url: "https://portal.example/1", primary_color: "#123", secondary_color: "#A1B2C3", custom_agent_email: "a@b.co", mls_id: "M1", lot_size: 0.25, year_built: 1999 });
    expect(data).toMatchObject({ listing_agent: "Pat Agent", created_by: "Import bot", portal_property_id: "Z-1", portal_url: "https://portal.example/1", primary_color: "#123", secondary_color: "#A1B2C3", custom_agent_email: "a@b.co", mls_id: "M1", lot_size: 0.25, year_built: 1999 });
  });

  it("accepts bedrooms/bathrooms/square_feet, and the spec names win when both are sent", async () => {
    expect(await create({ address: "2 Alias St", bedrooms: 4, bathrooms: 3, square_feet: 2000 })).toMatchObject({ beds: 4, baths: 3, sqft: 2000 });
    expect(await create({ address: "3 Alias St", beds: 2, bedrooms: 5, baths: 1, bathrooms: "x", sqft: 900, square_feet: 1 })).toMatchObject({ beds: 2, baths: 1, sqft: 900 });
  });

  it("ignores unknown fields and names them in ignored_fields", async () => {
    const res = await api.post("/v1/reports", { address: "4 Unknown St", favourite_colour: "blue", status: "published", city: "Bath" });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty("favourite_colour");
    expect(res.body.data.status).toBe("draft");
    expect(res.body.ignored_fields).toEqual(["favourite_colour", "status"]);
    expect((await api.post("/v1/reports", { address: "4b Known St" })).body.ignored_fields).toEqual([]);
  });

  it("takes the display switches at creation: the client page then leaves those sections out", async () => {
    const switches = {
      show_comps_on_report: false,
      show_neighborhood_on_report: false,
      show_social_media_on_report: false,
      show_showings_on_report: false,
      show_agent_insights_on_report: false,
    };
    const res = await api.post("/v1/reports", { address: "6 Switch St", ...switches });
    expect(res.status).toBe(201);
    expect(res.body.ignored_fields).toEqual([]);
    const detail = (await api.get(`/v1/reports/${res.body.data.id}`)).body.data;
    const { show_social_media_on_report: _social, ...answered } = switches;
    expect(detail).toMatchObject({ ...answered, show_social_on_report: false });
    // The alias the answer uses is taken too; a switch left out is on.
    const aliased = await create({ address: "7 Switch St", show_social_on_report: false });
    const back = (await api.get(`/v1/reports/${aliased.id}`)).body.data;
    expect(back).toMatchObject({ show_social_on_report: false, show_comps_on_report: true, show_showings_on_report: true });
    for (const value of ["no", null]) {
      const refused = errorOf(await api.post("/v1/reports", { address: "x", show_comps_on_report: value }));
      expect(refused).toEqual({ status: 400, message: expect.stringContaining("show_comps_on_report") });
    }
  });

  it.each([
    [{}, "Address is required"],
    [{ address: "   " }, "Address is required"],
    [{ address: 12 }, "address must be a string"],
    [{ address: "x", price: "100" }, "price must be a number"],
    [{ address: "x", price: -1 }, "price must be at least 0"],
    [{ address: "x", beds: 2.5 }, "beds must be an integer"],
    [{ address: "x", bedrooms: -2 }, "bedrooms must be at least 0"],
    [{ address: "x", sqft: "big" }, "sqft must be a number"],
    [{ address: "x", lot_size: -0.1 }, "lot_size must be at least 0"],
    [{ address: "x", zip: 90210 }, "zip must be a string"],
    [{ address: "x", year_built: 1599 }, `year_built must be between 1600 and ${new Date().getUTCFullYear() + 5}`],
    [{ address: "x", year_built: new Date().getUTCFullYear() + 6 }, `year_built must be between 1600 and ${new Date().getUTCFullYear() + 5}`],
    [{ address: "x", city: "c".repeat(1001) }, "city must be at most 1000 characters"],
    [{ address: "x", description: "d".repeat(20001) }, "description must be at most 20000 characters"],
    [{ address: "x", primary_color: "red" }, "primary_color must be a hex colour like #1A2B3C"],
    [{ address: "x", custom_agent_email: "nope" }, "custom_agent_email must be a valid e-mail address"],
  ])("rejects %# with 400 naming the field: %s", async (body, message) => {
    expect(errorOf(await api.post("/v1/reports", body))).toEqual({ status: 400, message });
  });

  it("accepts the longest allowed values", async () => {
    await create({ address: "5 Long St", description: "d".repeat(20000), executive_summary: "e".repeat(20000), city: "c".repeat(1000), year_built: 1600 });
  });

  it("refuses a body that is not a JSON object", async () => {
    for (const body of [[{ address: "x" }], "just text", 42, null]) {
      const res = expectDocumented(await request(t.app).post("/v1/reports").set(team.auth).type("json").send(JSON.stringify(body)));
      expect(errorOf(res)).toEqual({ status: 400, message: "Request body must be a JSON object" });
    }
  });

  it("needs reports:create (403 with the permission's name)", async () => {
    const reader = await createTeam({ permissions: "reports:read" });
    const res = await restClient(t.app, reader.auth).post("/v1/reports", { address: "1 No St" });
    expect(errorOf(res)).toEqual({ status: 403, message: "Permission denied: reports:create" });
  });
});

describe("GET /v1/reports", () => {
  let mine: TestTeam;
  let client: ReturnType<typeof restClient>;
  beforeAll(async () => {
    mine = await createTeam();
    client = restClient(t.app, mine.auth);
    for (const address of ["1 First St", "2 Second St", "3 Third St"]) await create({ address, beds: 2, baths: 1, sqft: 700 }, client);
  });

  it("lists the team's reports with data, total, limit and offset (defaults 50 and 0), newest first", async () => {
    const res = await client.get("/v1/reports");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(res.body.data.map((r: { address: string }) => r.address)).toEqual(["3 Third St", "2 Second St", "1 First St"]);
  });

  it("gives list items the documented names and the sample names", async () => {
    const [item] = (await client.get("/v1/reports?limit=1")).body.data;
    for (const field of ["id", "address", "city", "state", "zip", "price", "beds", "baths", "sqft", "year_built", "property_type", "status", "is_published", "is_draft", "published_at", "views_count", "saves_count", "showings_count", "created_at", "updated_at"]) {
      expect(item).toHaveProperty(field);
    }
    expect(item).toMatchObject({ bedrooms: 2, bathrooms: 1, square_feet: 700, date_created: item.created_at });
  });

  it("pages with limit and offset", async () => {
    const res = await client.get("/v1/reports?limit=1&offset=1");
    expect(res.body).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(res.body.data.map((r: { address: string }) => r.address)).toEqual(["2 Second St"]);
  });

  it("filters by status", async () => {
    const [first] = (await client.get("/v1/reports")).body.data;
    await client.patch(`/v1/reports/${first.id}`, { status: "published" });
    expect((await client.get("/v1/reports?status=published")).body.data.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect((await client.get("/v1/reports?status=draft")).body.total).toBe(2);
    expect((await client.get("/v1/reports?status=all")).body.total).toBe(3);
  });

  it.each([
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["limit=abc", "limit must be an integer"],
    ["limit=2.5", "limit must be an integer"],
    ["offset=-1", "offset must be at least 0"],
    ["offset=x", "offset must be an integer"],
    ["status=archived", "status must be one of: draft, published, all"],
  ])("rejects ?%s with 400", async (query, message) => {
    expect(errorOf(await client.get(`/v1/reports?${query}`))).toEqual({ status: 400, message });
  });

  it("accepts the bounds and ignores unknown parameters", async () => {
    expect((await client.get("/v1/reports?limit=100&offset=0&sort=name")).status).toBe(200);
    expect((await client.get("/v1/reports?limit=1")).status).toBe(200);
  });

  it("shows only the key's team", async () => {
    const ids = (await client.get("/v1/reports")).body.data.map((r: { id: string }) => r.id);
    const others = (await api.get("/v1/reports?limit=100")).body.data.map((r: { id: string }) => r.id);
    expect(others.some((id: string) => ids.includes(id))).toBe(false);
  });
});

describe("GET /v1/reports/{reportId}", () => {
  it("returns the detail with its collections in snake_case", async () => {
    const report = await create({ address: "7 Detail Rd", executive_summary: "Lovely", lot_size: 0.5 });
    const teamId = team.teamId;
    await prisma.comparable.create({ data: { teamId, reportId: report.id, address: "9 Comp Rd", price: 500000, distanceMiles: 0.3, saleDate: new Date("2025-01-02T00:00:00Z") } });
    await prisma.socialMediaPost.create({ data: { teamId, reportId: report.id, platform: "instagram", externalId: "ig1", likes: 5 } });
    await prisma.agentInsight.create({ data: { teamId, reportId: report.id, author: "AI", body: "Priced well", category: "pricing" } });
    const showing = await api.post("/v1/showings", { report_id: report.id, attendee_name: "Sam" });
    expect(showing.status).toBe(201);

    const res = await api.get(`/v1/reports/${report.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: report.id,
      executive_summary: "Lovely",
      lot_size: 0.5,
      showings_count: 1,
      show_comps_on_report: true,
      show_social_on_report: true,
      comparable_properties: [{ address: "9 Comp Rd", price: 500000, distance_miles: 0.3, sale_date: "2025-01-02T00:00:00.000Z" }],
      showing_events: [{ id: showing.body.data.id, attendee_name: "Sam", event_type: "showing" }],
      social_media_posts: [{ platform: "instagram", external_id: "ig1", likes: 5 }],
      agent_insights: [{ author: "AI", body: "Priced well", category: "pricing" }],
    });
  });

  it("answers HEAD with the GET's status and headers and no body; a client accepting gzip gets the same JSON compressed", async () => {
    const report = await create({ address: "12 Head Rd", description: "é".repeat(800) });
    const got = await request(t.app).get(`/v1/reports/${report.id}`).set(team.auth).set("Accept-Encoding", "identity");
    const head = await request(t.app).head(`/v1/reports/${report.id}`).set(team.auth).set("Accept-Encoding", "identity");
    expect(got.headers.etag).toMatch(/^W\/"/);
    expect([head.status, head.headers["content-type"], head.headers["content-length"], head.headers.etag]).toEqual([200, "application/json; charset=utf-8", got.headers["content-length"], got.headers.etag]);
    expect((await request(t.app).head(`/v1/reports/${report.id}`).set(team.auth).set("If-None-Match", got.headers.etag)).status).toBe(304);
    expect(head.text).toBeUndefined();
    expect(Number(got.headers["content-length"])).toBe(Buffer.byteLength(got.text)); // bytes, not characters
    const zipped = await request(t.app).get(`/v1/reports/${report.id}`).set(team.auth).set("Accept-Encoding", "gzip");
    expect([zipped.headers["content-encoding"], zipped.headers["content-length"], zipped.body]).toEqual(["gzip", undefined, got.body]);
  });

  it("leaves out the collections the key may not read, instead of failing", async () => {
    const owner = await createTeam();
    const report = await create({ address: "8 Partial Rd" }, restClient(t.app, owner.auth));
    const limited = await prisma.apiKey.findFirstOrThrow({ where: { teamId: owner.teamId } });
    await prisma.apiKey.update({ where: { id: limited.id }, data: { permissions: { reports: ["read"], comparables: ["read"] } } });
    const res = await restClient(t.app, owner.auth).get(`/v1/reports/${report.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.comparable_properties).toEqual([]);
    expect(res.body.data).not.toHaveProperty("showing_events");
  });

  it("answers 404 for an unknown id, a non-uuid and another team's report", async () => {
    const report = await create({ address: "11 Mine Ct" });
    const other = restClient(t.app, (await createTeam()).auth);
    for (const res of [await api.get("/v1/reports/00000000-0000-4000-8000-000000000000"), await api.get("/v1/reports/not-a-uuid"), await other.get(`/v1/reports/${report.id}`)]) {
      expect(errorOf(res)).toEqual({ status: 404, message: "Report not found" });
    }
  });
});

describe("PATCH /v1/reports/{reportId}", () => {
  it("changes only the given fields and answers id, address, city, state, updated_at and a message", async () => {
    const report = await create({ address: "20 Patch Ln", city: "Austin", state: "TX", price: 100 });
    const res = await api.patch(`/v1/reports/${report.id}`, { price: 200, bedrooms: 3, property_type: "condo" });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({ id: report.id, address: "20 Patch Ln", city: "Austin", state: "TX", price: 200, beds: 3, property_type: "condo", updated_at: expect.any(String) });
    expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(report.updated_at));
  });

  it("accepts both spellings of the social switch (show_social_media_on_report wins)", async () => {
    const report = await create({ address: "21 Switch Ln" });
    expect((await api.patch(`/v1/reports/${report.id}`, { show_social_on_report: false })).body.data.show_social_on_report).toBe(false);
    expect((await api.patch(`/v1/reports/${report.id}`, { show_social_media_on_report: true })).body.data.show_social_on_report).toBe(true);
    const both = await api.patch(`/v1/reports/${report.id}`, { show_social_media_on_report: false, show_social_on_report: true, show_comps_on_report: false });
    expect(both.body.data).toMatchObject({ show_social_on_report: false, show_comps_on_report: false });
  });

  it("publishes and unpublishes, keeping status, is_draft and is_published consistent", async () => {
    const report = await create({ address: "22 Publish Ln" });
    const published = await api.patch(`/v1/reports/${report.id}`, { is_draft: false });
    expect(published.body.data).toMatchObject({ status: "published", is_draft: false, is_published: true, published_at: expect.any(String) });
    const draft = await api.patch(`/v1/reports/${report.id}`, { status: "draft" });
    expect(draft.body.data).toMatchObject({ status: "draft", is_draft: true, is_published: false });
    const contradiction = await api.patch(`/v1/reports/${report.id}`, { status: "published", is_draft: true });
    expect(errorOf(contradiction)).toEqual({ status: 400, message: "status 'published' contradicts is_draft true" });
  });

  it("needs reports:publish to publish", async () => {
    const owner = await createTeam({ permissions: "reports:read,reports:create,reports:update" });
    const client = restClient(t.app, owner.auth);
    const report = await create({ address: "23 Gate Ln" }, client);
    expect(errorOf(await client.patch(`/v1/reports/${report.id}`, { status: "published" }))).toEqual({ status: 403, message: "Permission denied: reports:publish" });
    expect((await client.patch(`/v1/reports/${report.id}`, { city: "Reno" })).status).toBe(200);
  });

  it.each([
    [{ price: "cheap" }, "price must be a number"],
    [{ is_draft: "no" }, "is_draft must be a boolean"],
    [{ status: "archived" }, "status must be one of: draft, published"],
    [{ show_comps_on_report: 1 }, "show_comps_on_report must be a boolean"],
    [{ address: "" }, "Address is required"],
    [{ year_built: 1500 }, `year_built must be between 1600 and ${new Date().getUTCFullYear() + 5}`],
  ].map(([body, message]) => [message, body] as const))("rejects with 400: %s", async (message, body) => {
    const report = await create({ address: "24 Invalid Ln" });
    expect(errorOf(await api.patch(`/v1/reports/${report.id}`, body))).toEqual({ status: 400, message });
  });

  it("answers 404 for an unknown report", async () => {
    expect(errorOf(await api.patch("/v1/reports/00000000-0000-4000-8000-000000000000", { price: 1 }))).toEqual({ status: 404, message: "Report not found" });
  });
});

describe("DELETE /v1/reports/{reportId}", () => {
  it("deletes the report and everything attached, answering { message }", async () => {
    const report = await create({ address: "30 Gone Way" });
    const showing = await api.post("/v1/showings", { report_id: report.id, unique_showing_key: "gone-1" });
    const teamId = team.teamId;
    await prisma.comparable.create({ data: { teamId, reportId: report.id, address: "31 Comp Way" } });
    await prisma.socialMediaPost.create({ data: { teamId, reportId: report.id, platform: "x", externalId: "x1" } });
    await prisma.agentInsight.create({ data: { teamId, reportId: report.id, author: "AI", body: "b" } });

    const res = await api.delete(`/v1/reports/${report.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await api.get(`/v1/reports/${report.id}`)).status).toBe(404);
    expect((await api.get(`/v1/showings/${showing.body.data.id}`)).status).toBe(404);
    expect((await api.get("/v1/showings/gone-1")).status).toBe(404);
    const where = { reportId: report.id };
    expect(await Promise.all([prisma.comparable.count({ where }), prisma.socialMediaPost.count({ where }), prisma.agentInsight.count({ where })])).toEqual([0, 0, 0]);
  });

  it("answers 404 for an unknown or already deleted report", async () => {
    const report = await create({ address: "32 Twice Way" });
    expect((await api.delete(`/v1/reports/${report.id}`)).status).toBe(200);
    expect(errorOf(await api.delete(`/v1/reports/${report.id}`))).toEqual({ status: 404, message: "Report not found" });
  });
});
