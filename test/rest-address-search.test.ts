// Address search in its three REST forms: normalisation both ways, ranking, ties, 404 and team scope.
import { prisma } from "../src/db";
import { createTeam, startTestApp, type TestApp } from "./support/app";
import { restClient } from "./support/openapi";

let t: TestApp;
let api: ReturnType<typeof restClient>;

beforeAll(async () => {
  t = await startTestApp();
  api = restClient(t.app, (await createTeam()).auth);
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>, client = api) => (await client.post("/v1/reports", body)).body.data as { id: string };
const q = encodeURIComponent;

/** The id found by each of the three forms; they must agree. */
async function search(address: string, client = api): Promise<string | number> {
  const forms = [`/v1/reports?address=${q(address)}&limit=1&status=published`, `/v1/reports/search?address=${q(address)}`, `/v1/reports/anything?address=${q(address)}`];
  const results = await Promise.all(forms.map((path) => client.get(path)));
  const ids = results.map((res) => (res.status === 200 ? res.body.data.id : res.status));
  expect(new Set(ids).size).toBe(1);
  return ids[0];
}

it("treats abbreviations, case, punctuation and spacing as equal, both ways", async () => {
  const long = await create({ address: "123 North Main Street", city: "Springfield", state: "IL", zip: "62701" });
  const short = await create({ address: "77 s oak ave apt 4" });
  expect(await search("123 n main st")).toBe(long.id);
  expect(await search("123 N. MAIN ST.")).toBe(long.id);
  expect(await search("  123   north main   street ")).toBe(long.id);
  expect(await search("77 South Oak Avenue Apartment 4")).toBe(short.id);
  const unit = await create({ address: "5 West Pine Terrace #9" });
  expect(await search("5 w pine ter unit 9")).toBe(unit.id);
});

it("matches a part of the address, and the one-line address with city, state and zip", async () => {
  const report = await create({ address: "9 Willow Boulevard", city: "Portland", state: "OR", zip: "97201" });
  expect(await search("willow blvd")).toBe(report.id);
  expect(await search("9 Willow Blvd, Portland, OR 97201")).toBe(report.id);
});

it("ignores limit, offset and status on the list when address is given, even invalid ones", async () => {
  const report = await create({ address: "12 Priority Pl" });
  const res = await api.get(`/v1/reports?address=${q("12 priority place")}&limit=0&offset=-1&status=nope`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: expect.objectContaining({ id: report.id }) });
});

it("returns the search response fields", async () => {
  const report = await create({ address: "5 Shape Ct", beds: 3, baths: 2, sqft: 1500, price: 10 });
  const res = await api.get(`/v1/reports/search?address=${q("5 shape court")}`);
  expect(res.body.data).toMatchObject({ id: report.id, address: "5 Shape Ct", bedrooms: 3, bathrooms: 2, square_feet: 1500, price: 10, is_published: false, views_count: 0, comparable_properties: [], showing_events: [] });
  for (const field of ["city", "state", "zip"]) expect(res.body.data).toHaveProperty(field);
});

it("ranks exact over prefix over containment, then the latest update", async () => {
  const client = restClient(t.app, (await createTeam()).auth);
  const containing = await create({ address: "1200 Elm Street" }, client);
  const prefixed = await create({ address: "200 Elm Street Unit 5" }, client);
  const exact = await create({ address: "200 Elm St" }, client);
  expect(await search("200 elm street", client)).toBe(exact.id);
  await client.delete(`/v1/reports/${exact.id}`);
  expect(await search("200 elm street", client)).toBe(prefixed.id);
  await client.delete(`/v1/reports/${prefixed.id}`);
  expect(await search("200 elm street", client)).toBe(containing.id);

  const older = await create({ address: "8 Twin Rd" }, client);
  const newer = await create({ address: "8 Twin Road" }, client);
  expect(await search("8 twin rd", client)).toBe(newer.id);
  await prisma.report.update({ where: { id: older.id }, data: { updatedAt: new Date(Date.now() + 60_000) } });
  expect(await search("8 twin rd", client)).toBe(older.id);
});

it("answers 404 with the input in the message when nothing matches, and only searches the key's team", async () => {
  const res = await api.get(`/v1/reports/search?address=${q("404 Nowhere Lane")}`);
  expect(res.status).toBe(404);
  expect(res.body.error).toEqual({ status: 404, message: "No report found matching address '404 Nowhere Lane'" });
  const hidden = await create({ address: "66 Secret Sq" });
  const other = restClient(t.app, (await createTeam()).auth);
  expect(await search("66 secret square", other)).toBe(404);
  expect(await search("66 secret square")).toBe(hidden.id);
});

it("needs an address on /search", async () => {
  for (const path of ["/v1/reports/search", "/v1/reports/search?address=", "/v1/reports/search?address=%20"]) {
    const res = await api.get(path);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("Address is required");
  }
});

it("lists every match with address_contains, newest first and paged, leaving address's best match as it was", async () => {
  const team = restClient(t.app, (await createTeam()).auth);
  const other = restClient(t.app, (await createTeam()).auth);
  const first = await create({ address: "1 Maple Street", city: "Springfield" }, team);
  const second = await create({ address: "2 Maple St" }, team);
  const published = await create({ address: "3 Maple Street" }, team);
  expect((await team.patch(`/v1/reports/${published.id}`, { status: "published" })).status).toBe(200);
  await create({ address: "4 Oak Avenue" }, team);
  await create({ address: "5 Maple Street" }, other);

  const all = await team.get("/v1/reports?address_contains=maple%20st");
  expect(all.status).toBe(200);
  expect(all.body).toMatchObject({ total: 3, limit: 50, offset: 0 });
  expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([published.id, second.id, first.id]);
  const page = await team.get("/v1/reports?address_contains=MAPLE%20STREET&limit=1&offset=1");
  expect([page.body.total, page.body.data.map((r: { id: string }) => r.id)]).toEqual([3, [second.id]]);
  expect((await team.get("/v1/reports?address_contains=maple&status=published")).body.data.map((r: { id: string }) => r.id)).toEqual([published.id]);
  expect((await team.get("/v1/reports?address_contains=elm")).body).toMatchObject({ data: [], total: 0 });
  // address keeps answering the one best match, and wins over address_contains.
  const best = await team.get("/v1/reports?address=maple&address_contains=maple");
  expect(best.body.data.id).toBeDefined();
  expect(best.body.total).toBeUndefined();
  const empty = await team.get("/v1/reports?address_contains=");
  expect(empty.status).toBe(400);
  expect(empty.body.error.message).toMatch(/address_contains/);
});
