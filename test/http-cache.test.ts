// HTTP caching: GraphQL GETs (by text or documentId) and REST reads answer an ETag with
// Cache-Control: private, no-cache; If-None-Match answers 304 without building the body while nothing the answer
// depends on changed — the team's data (a change commits a new team version), the key, its permissions, the request.
// A GraphQL GET answer is served from the response cache the next time, never after a change.
import { createHash } from "node:crypto";
import request from "supertest";
import { prisma } from "../src/db";
import { addKey, countStatements, createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;

const REPORTS = `query Page { reports(limit: 10) { total items { id address showings { id attendee_name: attendeeName } } } }`;
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ permissions: "reports:*,showings:*,api_keys:*,webhooks:*" });
  const report = await prisma.report.create({
    data: { teamId: team.teamId, address: "1 Cache Lane", addressKey: "1 cache lane", searchKey: "1 cache lane", listingAgent: "A", createdBy: "B" },
  });
  reportId = report.id;
});
afterAll(() => t.close());

const graphqlGet = (auth: Record<string, string>, params: Record<string, string>, etag?: string) => {
  const req = request(t.app).get("/graphql").query(params).set(auth).set("Accept", "application/graphql-response+json");
  return etag ? req.set("If-None-Match", etag) : req;
};
/** The SQL statements that read the team's data (not the key, the version or usage). */
const dataReads = (statements: string[]) => statements.filter((sql) => /\b(reports|showings)\b/.test(sql) && !/team_versions/.test(sql));

/** An answer without the budget left in its cost (which every request changes). */
const sameButBudget = (body: { extensions?: { cost?: { throttleStatus?: object } } }) => ({
  ...body,
  extensions: { ...body.extensions, cost: { ...body.extensions?.cost, throttleStatus: { ...body.extensions?.cost?.throttleStatus, currentlyAvailable: 0 } } },
});

describe("GraphQL over GET", () => {
  it("answers an ETag and Cache-Control: private, no-cache, then 304 without reading the data, rate-limit headers included", async () => {
    const first = await graphqlGet(team.auth, { query: REPORTS });
    expect(first.status).toBe(200);
    expect(first.body.data.reports.items[0].address).toBe("1 Cache Lane");
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    const etag = first.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    const { result: again, statements } = await countStatements(() => graphqlGet(team.auth, { query: REPORTS }, etag));
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["x-ratelimit-limit"]).toBeDefined();
    expect(Number(again.headers["x-ratelimit-remaining"])).toBe(Number(first.headers["x-ratelimit-remaining"]) - 1);
    expect(dataReads(statements)).toEqual([]);
  });

  it("answers the same body again from the response cache, without reading the data", async () => {
    const first = await graphqlGet(team.auth, { query: REPORTS, operationName: "Page" });
    const { result: again, statements } = await countStatements(() => graphqlGet(team.auth, { query: REPORTS, operationName: "Page" }));
    expect(again.status).toBe(200);
    // The same answer; only its cost's budget is of now (a kept answer is charged again: docs/api.md "Read cost").
    expect(sameButBudget(again.body)).toEqual(sameButBudget(first.body));
    const cost = first.body.extensions.cost;
    expect(again.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(cost.throttleStatus.currentlyAvailable - cost.requestedQueryCost);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(dataReads(statements)).toEqual([]);
  });

  it("answers 200 with the new data once a change committed (no 304, no cached answer)", async () => {
    const first = await graphqlGet(team.auth, { query: REPORTS });
    const created = await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId, attendee_name: "Pat Visitor", scheduled_at: "2027-01-01T10:00:00Z" });
    expect(created.status).toBe(201);
    const after = await graphqlGet(team.auth, { query: REPORTS }, first.headers.etag);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.body.data.reports.items[0].showings).toEqual([{ id: created.body.data.id, attendee_name: "Pat Visitor" }]);
    expect(sameButBudget((await graphqlGet(team.auth, { query: REPORTS })).body)).toEqual(sameButBudget(after.body));
  });

  it("runs a registered document by documentId with the same treatment", async () => {
    expect((await request(t.app).post("/v1/graphql/documents").set(team.auth).send({ [sha(REPORTS)]: REPORTS })).status).toBe(201);
    const params = { documentId: `sha256:${sha(REPORTS)}` };
    const first = await graphqlGet(team.auth, params);
    expect(first.status).toBe(200);
    expect(first.body.data.reports.total).toBe(1);
    expect((await graphqlGet(team.auth, params, first.headers.etag)).status).toBe(304);
    await prisma.report.update({ where: { id: reportId }, data: { city: "Springfield" } });
    expect((await graphqlGet(team.auth, params, first.headers.etag)).status).toBe(200);
  });

  it("never gives one key's ETag to another key, nor a 304 to a revoked key", async () => {
    const other = await addKey(team.teamId, "reports:read");
    const first = await graphqlGet(team.auth, { query: `{ reports { total } }` });
    const theirs = await graphqlGet(other, { query: `{ reports { total } }` }, first.headers.etag);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.etag).not.toBe(first.headers.etag);
    await prisma.apiKey.updateMany({ where: { keyHash: createHash("sha256").update(other.Authorization.slice(7)).digest("hex") }, data: { revokedAt: new Date() } });
    const revoked = await graphqlGet(other, { query: `{ reports { total } }` }, theirs.headers.etag);
    expect(revoked.status).toBe(401);
  });

  it("gives no ETag to answers that show counters (usage, rate limits) or to errors", async () => {
    const me = await graphqlGet(team.auth, { query: `{ me { rateLimit { remaining } } }` });
    expect(me.status).toBe(200);
    expect(me.headers.etag).toBeUndefined();
    expect(me.headers["cache-control"]).toBeUndefined();
    const unknown = await graphqlGet(team.auth, { query: `{ reports { nope } }` });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.etag).toBeUndefined();
  });
});

describe("REST reads", () => {
  it("answer an ETag, 304 while nothing changed, 200 after a change", async () => {
    const path = `/v1/reports/${reportId}`;
    const first = await request(t.app).get(path).set(team.auth);
    expect(first.status).toBe(200);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    const { result: again, statements } = await countStatements(() => request(t.app).get(path).set(team.auth).set("If-None-Match", first.headers.etag));
    expect(again.status).toBe(304);
    expect(again.headers["x-ratelimit-remaining"]).toBeDefined();
    expect(dataReads(statements)).toEqual([]);
    expect((await request(t.app).patch(path).set(team.auth).send({ city: "Shelbyville" })).status).toBe(200);
    const after = await request(t.app).get(path).set(team.auth).set("If-None-Match", first.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data.city).toBe("Shelbyville");
  });

  it("see a change written straight to the database (an endpoint created as psql would): the triggers bump the version", async () => {
    const first = await request(t.app).get("/v1/webhooks").set(team.auth);
    expect(first.status).toBe(200);
    await prisma.webhookEndpoint.create({ data: { teamId: team.teamId, url: "https://example.com/hook", events: ["*"], secret: "whsec_test" } });
    const after = await request(t.app).get("/v1/webhooks").set(team.auth).set("If-None-Match", first.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.total).toBe(first.body.total + 1);
  });

  it("never answer 304 to a revoked key, though this process knows its row (the report reads' key check)", async () => {
    const reader = await addKey(team.teamId, "reports:read");
    const path = `/v1/reports/${reportId}`;
    const first = await request(t.app).get(path).set(reader);
    expect((await request(t.app).get(path).set(reader).set("If-None-Match", first.headers.etag)).status).toBe(304);
    const hash = createHash("sha256").update(reader.Authorization.slice(7)).digest("hex");
    const { id } = await prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hash } });
    const revoked = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, variables: { id } });
    expect(revoked.body.data.revokeApiKey.revokedAt).toBeTruthy();
    const after = await request(t.app).get(path).set(reader).set("If-None-Match", first.headers.etag);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toBe("Invalid API key");
  });

  it("answer no ETag of ours for an error", async () => {
    const missing = await request(t.app).get(`/v1/reports/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`).set(team.auth);
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).toBeUndefined();
  });
});
