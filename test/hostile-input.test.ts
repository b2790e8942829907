// Each input that answered 500 (or was stored leniently) now answers a 400 naming the
// field, in both interfaces, and what is stored can always be read back; racing writes answer 404, never 500.
import request from "supertest";
import { createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  reportId = (await api().post("/v1/reports").send({ address: "1 Hostile Way" })).body.data.id;
});
afterAll(() => t.close());

function api() {
  const wrap = (r: request.Test) => r.set(team.auth);
  return {
    get: (path: string) => wrap(request(t.app).get(path)),
    post: (path: string) => wrap(request(t.app).post(path)),
    patch: (path: string) => wrap(request(t.app).patch(path)),
    delete: (path: string) => wrap(request(t.app).delete(path)),
  };
}
const gql = (query: string, variables: Record<string, unknown> = {}) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });

describe("REST bodies", () => {
  it.each([
    [{ address: "x", city: "a\u0000b" }, "city contains invalid characters"],
    [{ address: "x\u0000" }, "address contains invalid characters"],
    [{ address: "x", state: "\ud800" }, "state contains invalid characters"],
    [{ address: "x", zip: "\udc00z" }, "zip contains invalid characters"],
    [{ address: "x", price: 1.7976931348623157e308 }, "price must be at most 1000000000000"],
    [{ address: "x", baths: 1e13 }, "baths must be at most 1000000000000"],
    [{ address: "x", bathrooms: 1e13 }, "bathrooms must be at most 1000000000000"],
    [{ address: "x", beds: 2 ** 31 }, "beds must be at most 2147483647"],
    [{ address: "x", sqft: -(2 ** 31) - 1 }, "sqft must be at least -2147483648"],
  ])("POST /v1/reports %j → 400 %s", async (body, message) => {
    expect(errorOf(await api().post("/v1/reports").send(body))).toEqual({ status: 400, message });
  });

  it.each([
    ["0000-01-01T00:00:00Z"],
    ["0001-01-01T00:30:00+01:00"], // year 0 once converted to UTC
    ["+275760-09-13T00:00:00Z"],
    ["9999-12-31T23:59:59-14:00"], // year 10000 in UTC
    ["2026-05-01T14:00:00"], // no offset: not read in the server's time zone
    ["1"],
  ])("POST /v1/showings with showing_time_start %s → 400, nothing stored", async (value) => {
    const before = (await api().get(`/v1/showings?report_id=${reportId}`)).body.total;
    const res = await api().post("/v1/showings").send({ report_id: reportId, showing_time_start: value });
    expect(errorOf(res)).toEqual({ status: 400, message: "showing_time_start must be an ISO 8601 date-time" });
    expect((await api().get(`/v1/showings?report_id=${reportId}`)).body.total).toBe(before);
  });

  it("keeps the messages in REST words (no GraphQL variable names or types)", async () => {
    const res = await api().post("/v1/showings").send({ report_id: reportId, attendees_count: 1e12 });
    expect(errorOf(res)).toEqual({ status: 400, message: "attendees_count must be at most 2147483647" });
  });
});

describe("REST query strings and paths", () => {
  it.each(["limit=0x10", "limit=1e1", "limit=%205%20", "limit=+5", "offset=-0", "limit=5&limit=6"])("GET /v1/reports?%s → 400", async (query) => {
    const res = await api().get(`/v1/reports?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^(limit|offset) must be/);
  });

  it.each(["/v1/reports/%ZZ", "/v1/showings/%E2%82", "/v1/reports/%"])("GET %s → 400 Malformed URL", async (path) => {
    expect(errorOf(await api().get(path))).toEqual({ status: 400, message: "Malformed URL" });
  });

  it("a NUL in a showing reference is not found, not a database error", async () => {
    expect(errorOf(await api().get("/v1/showings/a%00b"))).toEqual({ status: 404, message: "Showing not found" });
  });
});

describe("GraphQL enforces the same rules", () => {
  const CREATE = `mutation($input: CreateShowingInput!) { createShowing(input: $input) { id showingTimeStart } }`;

  it("refuses a date past year 9999 (it used to be stored, and every list of the team answered 500 after)", async () => {
    const res = await gql(CREATE, { input: { reportId, showingTimeStart: "+275760-09-13T00:00:00Z" } });
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].message).toMatch(/showingTimeStart.*must be an ISO 8601 date-time/);
    expect((await api().get("/v1/showings")).status).toBe(200);
    expect((await api().get(`/v1/reports/${reportId}`)).status).toBe(200);
  });

  it("refuses what REST refuses: a date without an offset, 1, a NUL, an amount over 10^12", async () => {
    for (const showingTimeStart of ["2026-05-01T14:00:00", "1"]) {
      expect((await gql(CREATE, { input: { reportId, showingTimeStart } })).body.errors[0].message).toMatch(/must be an ISO 8601 date-time/);
    }
    const nul = await gql(`mutation { createReport(input: { address: "x", city: "a\\u0000b" }) { id } }`);
    expect(nul.body.errors[0]).toMatchObject({ message: "city contains invalid characters", extensions: { code: "BAD_USER_INPUT", field: "city" } });
    const big = await gql(`mutation($input: CreateReportInput!) { createReport(input: $input) { id } }`, { input: { address: "x", price: 1e13 } });
    expect(big.body.errors[0].message).toBe("price must be at most 1000000000000");
  });

  it("stores a valid date with its offset as the same instant", async () => {
    const res = await gql(CREATE, { input: { reportId, showingTimeStart: "2026-05-01T16:00:00+02:00" } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createShowing.showingTimeStart).toBe("2026-05-01T14:00:00.000Z");
  });
});

describe("races (finding 4)", () => {
  it("concurrent deletes of one showing: one 200, the rest 404", async () => {
    for (let round = 0; round < 5; round++) {
      const id = (await api().post("/v1/showings").send({ report_id: reportId })).body.data.id;
      const answers = await Promise.all(Array.from({ length: 8 }, () => api().delete(`/v1/showings/${id}`)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    }
  });

  it("a report delete racing updates and new showings of it: every loser answers 404", async () => {
    for (let round = 0; round < 5; round++) {
      const id = (await api().post("/v1/reports").send({ address: `${round} Race St` })).body.data.id;
      const answers = await Promise.all([
        api().delete(`/v1/reports/${id}`),
        ...Array.from({ length: 3 }, (_, i) => api().patch(`/v1/reports/${id}`).send({ price: i })),
        ...Array.from({ length: 3 }, () => api().post("/v1/showings").send({ report_id: id })),
      ]);
      for (const res of answers) expect([200, 201, 404]).toContain(res.status);
      expect((await api().get(`/v1/reports/${id}`)).status).toBe(404);
      expect((await api().get(`/v1/showings?report_id=${id}`)).body.total).toBe(0);
    }
  });
});
