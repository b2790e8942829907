// REST /v1/showings against the real stack: every rule of docs/api.md for showings, with each response
// checked against the OpenAPI document.
import { createTeam, errorOf, type TestApp } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";

let t: TestApp, api: RestClient;
let reportId: string;
beforeAll(async () => {
  ({ t, api } = await teamApp());
  reportId = (await api.post("/v1/reports", { address: "1 Showing St" })).body.data.id;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) => {
  const res = await api.post("/v1/showings", { report_id: reportId, ...body });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};

describe("POST /v1/showings", () => {
  it("creates with 201 and the create fields; event_type defaults to showing; service_id is a second uuid", async () => {
    const res = await api.post("/v1/showings", {
      report_id: reportId,
      showing_date: "2026-05-01T14:00:00Z",
      scheduled_date: "2026-04-20T09:30:00+02:00",
      attendee_name: "Sam Buyer",
      attendee_email: "sam@example.com",
      attendee_phone: "555-0100",
      title: "First visit",
      rating: 4,
      showing_time_start: "2026-05-01T14:00:00Z",
      showing_time_end: "2026-05-01T14:30:00Z",
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({
      showing_date: "2026-05-01T14:00:00.000Z",
      scheduled_date: "2026-04-20T07:30:00.000Z",
      attendee_name: "Sam Buyer",
      attendee_email: "sam@example.com",
      event_type: "showing",
      created_at: expect.any(String),
    });
    expect(res.body.data.service_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.data.service_id).not.toBe(res.body.data.id);
  });

  it("creates open houses", async () => {
    expect(await create({ event_type: "open_house", attendees_count: 12 })).toMatchObject({ event_type: "open_house", attendees_count: 12 });
  });

  it("answers 409 for a unique_showing_key the team already has, and allows it in another team", async () => {
    await create({ unique_showing_key: "ext-42" });
    const again = await api.post("/v1/showings", { report_id: reportId, unique_showing_key: "ext-42" });
    expect(errorOf(again)).toEqual({ status: 409, message: "Showing with unique_showing_key 'ext-42' already exists" });
    const other = restClient(t.app, (await createTeam()).auth);
    const otherReport = (await other.post("/v1/reports", { address: "2 Other St" })).body.data.id;
    expect((await other.post("/v1/showings", { report_id: otherReport, unique_showing_key: "ext-42" })).status).toBe(201);
  });

  it("answers 404 Report not found for an unknown or another team's report", async () => {
    const other = restClient(t.app, (await createTeam()).auth);
    for (const id of ["00000000-0000-4000-8000-000000000000", reportId]) {
      expect(errorOf(await other.post("/v1/showings", { report_id: id }))).toEqual({ status: 404, message: "Report not found" });
    }
  });

  it.each([
    [{}, "report_id is required"],
    [{ report_id: "abc" }, "report_id must be a UUID"],
    [{ event_type: "party" }, "event_type must be one of: showing, open_house"],
    [{ rating: 0 }, "rating must be at least 1"],
    [{ rating: 6 }, "rating must be at most 5"],
    [{ rating: 4.5 }, "rating must be an integer"],
    [{ attendee_email: "not-an-email" }, "attendee_email must be a valid e-mail address"],
    [{ showing_date: "tomorrow" }, "showing_date must be an ISO 8601 date-time"],
    [{ interested: "yes" }, "interested must be a boolean"],
    [{ showing_time_start: "2026-05-01T15:00:00Z", showing_time_end: "2026-05-01T14:00:00Z" }, "showing_time_end must not be before showing_time_start"],
  ].map(([body, message]) => [message, body] as const))("rejects with 400: %s", async (message, body) => {
    const payload = "report_id" in (body as object) || message === "report_id is required" ? body : { report_id: reportId, ...(body as object) };
    expect(errorOf(await api.post("/v1/showings", payload))).toEqual({ status: 400, message });
  });
});

describe("GET /v1/showings", () => {
  it("lists the team's showings with data, total, limit, offset and a report filter", async () => {
    const mine = restClient(t.app, (await createTeam()).auth);
    const a = (await mine.post("/v1/reports", { address: "10 A St" })).body.data.id;
    const b = (await mine.post("/v1/reports", { address: "11 B St" })).body.data.id;
    for (const report of [a, a, b]) expect((await mine.post("/v1/showings", { report_id: report })).status).toBe(201);

    const all = await mine.get("/v1/showings");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(all.body.data[0]).toEqual(expect.objectContaining({ id: expect.any(String), service_id: expect.any(String), event_type: "showing", unique_showing_key: null, showing_time_start: null, updated_at: expect.any(String) }));
    const ofA = await mine.get(`/v1/showings?report_id=${a}`);
    expect(ofA.body.total).toBe(2);
    expect(ofA.body.data.every((s: { report_id: string }) => s.report_id === a)).toBe(true);
    const page = await mine.get("/v1/showings?limit=1&offset=2");
    expect(page.body).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(page.body.data).toHaveLength(1);
  });

  it.each([
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["offset=-1", "offset must be at least 0"],
    ["report_id=nope", "report_id must be a UUID"],
  ])("rejects ?%s with 400", async (query, message) => {
    expect(errorOf(await api.get(`/v1/showings?${query}`))).toEqual({ status: 400, message });
  });
});

describe("GET/PATCH/DELETE /v1/showings/{showingId}", () => {
  it("gets a showing by id and by unique_showing_key", async () => {
    const showing = await create({ unique_showing_key: "crm-7", attendee_name: "Kim" });
    for (const ref of [showing.id, "crm-7"]) {
      const res = await api.get(`/v1/showings/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: showing.id, unique_showing_key: "crm-7", attendee_name: "Kim" });
    }
  });

  it("updates only the given fields (by id or key) and answers the update fields", async () => {
    const showing = await create({ unique_showing_key: "crm-8", attendee_name: "Lee", rating: 2 });
    const res = await api.patch("/v1/showings/crm-8", { feedback: "Loved the kitchen", rating: 5, interested: true, event_type: "open_house" });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({ id: showing.id, service_id: showing.service_id, feedback: "Loved the kitchen", rating: 5, interested: true, event_type: "open_house", attendee_name: "Lee", showing_date: null, updated_at: expect.any(String) });
    const byId = await api.patch(`/v1/showings/${showing.id}`, { unique_showing_key: "crm-8b", showing_date: "2026-06-01T10:00:00Z" });
    expect(byId.body.data).toMatchObject({ unique_showing_key: "crm-8b", showing_date: "2026-06-01T10:00:00.000Z", feedback: "Loved the kitchen" });
  });

  it("refuses a key another showing of the team has (409) and bad values (400)", async () => {
    await create({ unique_showing_key: "crm-9" });
    const other = await create({ unique_showing_key: "crm-10" });
    expect(errorOf(await api.patch(`/v1/showings/${other.id}`, { unique_showing_key: "crm-9" }))).toEqual({ status: 409, message: "Showing with unique_showing_key 'crm-9' already exists" });
    expect(errorOf(await api.patch(`/v1/showings/${other.id}`, { rating: 9 }))).toEqual({ status: 400, message: "rating must be at most 5" });
    expect(errorOf(await api.patch(`/v1/showings/${other.id}`, { showing_time_start: "2026-01-01T10:00:00Z", showing_time_end: "2026-01-01T09:00:00Z" }))).toEqual({ status: 400, message: "showing_time_end must not be before showing_time_start" });
  });

  it("deletes by id or key with { message }, then 404", async () => {
    const a = await create({ unique_showing_key: "del-1" });
    const b = await create({});
    for (const ref of ["del-1", b.id]) {
      const res = await api.delete(`/v1/showings/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
    expect(errorOf(await api.get(`/v1/showings/${a.id}`))).toEqual({ status: 404, message: "Showing not found" });
    expect(errorOf(await api.delete("/v1/showings/del-1"))).toEqual({ status: 404, message: "Showing not found" });
  });

  it("answers 404 for unknown showings and another team's", async () => {
    const mine = await create({ unique_showing_key: "private-1" });
    const other = restClient(t.app, (await createTeam()).auth);
    for (const ref of [mine.id, "private-1"]) {
      expect((await other.get(`/v1/showings/${ref}`)).status).toBe(404);
      expect((await other.patch(`/v1/showings/${ref}`, { feedback: "x" })).status).toBe(404);
      expect((await other.delete(`/v1/showings/${ref}`)).status).toBe(404);
    }
    expect((await api.get("/v1/showings/00000000-0000-4000-8000-000000000000")).status).toBe(404);
  });
});
