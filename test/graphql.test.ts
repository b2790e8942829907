// GraphQL over HTTP: queries, mutations, business rules and team scoping, against the real stack.
import { randomUUID } from "node:crypto";
import request from "supertest";
import { prisma } from "../src/db";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ name: "Sunset Realty" });
  other = await createTeam({ name: "Other Brokerage" });
});
afterAll(() => t.close());

async function gql(who: TestTeam, query: string, variables: Record<string, unknown> = {}) {
  const res = await request(t.app).post("/graphql").set(who.auth).send({ query, variables });
  return res.body as { data?: any; errors?: Array<{ message: string; extensions: { code: string; status: number } }> };
}

const CREATE = `mutation($input: CreateReportInput!) { createReport(input: $input) {
  id address status isDraft isPublished publishedAt listingAgent createdBy showingsCount viewsCount } }`;

describe("reports", () => {
  it("creates a draft with the team's defaults", async () => {
    const { data, errors } = await gql(team, CREATE, { input: { address: "10 Ocean Ave", city: "Santa Monica", price: 1250000 } });
    expect(errors).toBeUndefined();
    expect(data.createReport).toMatchObject({
      address: "10 Ocean Ave",
      status: "draft",
      isDraft: true,
      isPublished: false,
      publishedAt: null,
      listingAgent: "Alex Admin",
      createdBy: "Sunset Realty",
      showingsCount: 0,
      viewsCount: 0,
    });
  });

  it("rejects invalid input with a message naming the field", async () => {
    const { errors } = await gql(team, CREATE, { input: { address: "1 A St", yearBuilt: 1200 } });
    expect(errors?.[0].message).toMatch(/^yearBuilt must be between 1600 and \d{4}$/);
    expect(errors?.[0].extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    const negative = await gql(team, CREATE, { input: { address: "1 A St", price: -5 } });
    expect(negative.errors?.[0].message).toBe("price must be at least 0");
  });

  it("publishes and unpublishes consistently, and refuses contradictions", async () => {
    const { data } = await gql(team, CREATE, { input: { address: "22 Pine Rd" } });
    const id = data.createReport.id;
    const UPDATE = `mutation($id: ID!, $input: UpdateReportInput!) { updateReport(id: $id, input: $input) { status isDraft isPublished publishedAt } }`;
    const published = await gql(team, UPDATE, { id, input: { isDraft: false } });
    expect(published.data.updateReport).toMatchObject({ status: "published", isDraft: false, isPublished: true });
    const firstPublishedAt = published.data.updateReport.publishedAt;
    expect(firstPublishedAt).not.toBeNull();
    const draft = await gql(team, UPDATE, { id, input: { status: "draft" } });
    expect(draft.data.updateReport).toMatchObject({ status: "draft", isDraft: true, isPublished: false });
    const again = await gql(team, UPDATE, { id, input: { status: "published" } });
    expect(again.data.updateReport.publishedAt).toBe(firstPublishedAt);
    const contradiction = await gql(team, UPDATE, { id, input: { status: "published", isDraft: true } });
    expect(contradiction.errors?.[0].extensions.status).toBe(400);
  });

  it("never shows or changes another team's report", async () => {
    const { data } = await gql(team, CREATE, { input: { address: "5 Private Ln" } });
    const id = data.createReport.id;
    const read = await gql(other, `query($id: ID!) { report(id: $id) { id } }`, { id });
    expect(read.errors?.[0]).toMatchObject({ message: "Report not found", extensions: { code: "NOT_FOUND", status: 404 } });
    const del = await gql(other, `mutation($id: ID!) { deleteReport(id: $id) }`, { id });
    expect(del.errors?.[0].extensions.status).toBe(404);
    const list = await gql(other, `{ reports { total items { id } } }`);
    expect(list.data.reports.items.map((r: { id: string }) => r.id)).not.toContain(id);
    const still = await gql(team, `query($id: ID!) { report(id: $id) { id } }`, { id });
    expect(still.data.report.id).toBe(id);
  });

  it("lists the team's reports newest first with status filter, paging and total", async () => {
    const mine = await createTeam();
    for (const address of ["1 First St", "2 Second St", "3 Third St"]) await gql(mine, CREATE, { input: { address } });
    const { data } = await gql(mine, `{ reports(limit: 2, offset: 0) { total limit offset items { address } } }`);
    expect(data.reports).toEqual({ total: 3, limit: 2, offset: 0, items: [{ address: "3 Third St" }, { address: "2 Second St" }] });
    const drafts = await gql(mine, `{ reports(status: published) { total } }`);
    expect(drafts.data.reports.total).toBe(0);
    const bad = await gql(mine, `{ reports(limit: 101) { total } }`);
    expect(bad.errors?.[0].message).toBe("limit must be at most 100");
  });
});

describe("showings", () => {
  it("creates, reads by id or unique key, updates and deletes; duplicate keys conflict", async () => {
    const { data } = await gql(team, CREATE, { input: { address: "8 Harbor Blvd" } });
    const reportId = data.createReport.id;
    const CREATE_SHOWING = `mutation($input: CreateShowingInput!) { createShowing(input: $input) { id serviceId eventType uniqueShowingKey reportId } }`;
    const created = await gql(team, CREATE_SHOWING, { input: { reportId, uniqueShowingKey: "ext-1", attendeeName: "Pat" } });
    expect(created.errors).toBeUndefined();
    expect(created.data.createShowing).toMatchObject({ eventType: "showing", uniqueShowingKey: "ext-1", reportId });
    expect(created.data.createShowing.serviceId).not.toBe(created.data.createShowing.id);

    const dup = await gql(team, CREATE_SHOWING, { input: { reportId, uniqueShowingKey: "ext-1" } });
    expect(dup.errors?.[0]).toMatchObject({ message: "Showing with unique_showing_key 'ext-1' already exists", extensions: { status: 409 } });

    const byKey = await gql(team, `{ showing(id: "ext-1") { id attendeeName report { address showingsCount } } }`);
    expect(byKey.data.showing).toMatchObject({ id: created.data.createShowing.id, report: { address: "8 Harbor Blvd", showingsCount: 1 } });

    const updated = await gql(team, `mutation { updateShowing(id: "ext-1", input: { rating: 5, eventType: open_house }) { rating eventType } }`);
    expect(updated.data.updateShowing).toEqual({ rating: 5, eventType: "open_house" });
    const badRating = await gql(team, `mutation { updateShowing(id: "ext-1", input: { rating: 6 }) { rating } }`);
    expect(badRating.errors?.[0].message).toBe("rating must be at most 5");

    const foreign = await gql(other, `{ showing(id: "ext-1") { id } }`);
    expect(foreign.errors?.[0].extensions.status).toBe(404);

    const deleted = await gql(team, `mutation { deleteShowing(id: "ext-1") }`);
    expect(deleted.data.deleteShowing).toBe(created.data.createShowing.id);
  });

  it("reads a showing by its id before another showing whose unique key is that same text", async () => {
    const { data } = await gql(team, CREATE, { input: { address: "3 Twin Way" } });
    const reportId = data.createReport.id;
    const ref = randomUUID();
    // The older showing carries the reference as its external key; the newer one has it as its id.
    const byKey = await gql(team, `mutation($r: ID!, $k: String!) { createShowing(input: { reportId: $r, uniqueShowingKey: $k }) { id } }`, { r: reportId, k: ref });
    await prisma.showing.create({ data: { id: ref, teamId: team.teamId, reportId, attendeeName: "By id" } });
    const res = await gql(team, `query($id: String!) { showing(id: $id) { id attendeeName } }`, { id: ref });
    expect(res.data.showing).toEqual({ id: ref, attendeeName: "By id" });
    const deleted = await gql(team, `mutation($id: String!) { deleteShowing(id: $id) }`, { id: ref });
    expect(deleted.data.deleteShowing).toBe(ref);
    const remaining = await gql(team, `query($id: String!) { showing(id: $id) { id } }`, { id: ref });
    expect(remaining.data.showing.id).toBe(byKey.data.createShowing.id);
  });

  it("refuses a showing for another team's report", async () => {
    const { data } = await gql(team, CREATE, { input: { address: "77 Elm Ct" } });
    const res = await gql(other, `mutation($r: ID!) { createShowing(input: { reportId: $r }) { id } }`, { r: data.createReport.id });
    expect(res.errors?.[0]).toMatchObject({ message: "Report not found", extensions: { status: 404 } });
  });
});
