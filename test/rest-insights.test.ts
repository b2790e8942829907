// Agent insights (docs/api.md "Agent insights") against the real stack: REST routes with every response checked
// against the OpenAPI document, and the same operations in GraphQL.
import request from "supertest";
import { addKey, createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";

let t: TestApp, team: TestTeam, api: RestClient;
let reportId: string;
beforeAll(async () => {
  ({ t, team, api } = await teamApp());
  reportId = (await api.post("/v1/reports", { address: "1 Insight St" })).body.data.id;
});
afterAll(() => t.close());

const addInsight = async (body: Record<string, unknown>, report = reportId) => {
  const res = await api.post(`/v1/reports/${report}/insights`, { body: "Strong demand", ...body });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, any>;
};

describe("POST /v1/reports/{reportId}/insights", () => {
  it("adds an insight by an agent, authored by the team's admin unless named", async () => {
    const res = await api.post(`/v1/reports/${reportId}/insights`, { body: "Three offers expected", title: "Demand", source: "ai" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: "Insight created successfully",
      data: {
        id: expect.any(String),
        report_id: reportId,
        title: "Demand",
        body: "Three offers expected",
        category: "other",
        author: "Alex Admin",
        source: "agent",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(await addInsight({ author: "Dana Agent", category: "pricing", author_note: "ignored" })).toMatchObject({ author: "Dana Agent", category: "pricing" });
    expect(await addInsight({ author: null })).toMatchObject({ author: "Alex Admin" });
  });

  it.each([
    [{ body: undefined }, "body is required"],
    [{ body: "   " }, "body must not be empty"],
    [{ body: "x".repeat(20001) }, "body must be at most 20000 characters"],
    [{ body: 5 }, "body must be a string"],
    [{ title: "x".repeat(201) }, "title must be at most 200 characters"],
    [{ category: "gossip" }, "category must be one of: market, pricing, neighborhood, property, showing_feedback, marketing, other"],
    [{ author: "" }, "author must not be empty"],
    [{ body: "a\u0000b" }, "body contains invalid characters"],
  ])("refuses %j with 400", async (body, message) => {
    expect(errorOf(await api.post(`/v1/reports/${reportId}/insights`, { body: "ok", ...body }))).toEqual({ status: 400, message });
  });

  it("answers 404 Report not found for an unknown or other team's report", async () => {
    const theirs = (await restClient(t.app, (await createTeam()).auth).post("/v1/reports", { address: "2 Their St" })).body.data.id;
    for (const id of ["00000000-0000-4000-8000-000000000000", theirs, "x"]) {
      expect(errorOf(await api.post(`/v1/reports/${id}/insights`, { body: "b" }))).toEqual({ status: 404, message: "Report not found" });
      expect(errorOf(await api.get(`/v1/reports/${id}/insights`))).toEqual({ status: 404, message: "Report not found" });
    }
  });
});

describe("list, get, patch, delete", () => {
  it("lists oldest first in pages and embeds the same items in the report detail", async () => {
    const report = (await api.post("/v1/reports", { address: "3 List St" })).body.data.id;
    const first = await addInsight({ body: "first" }, report);
    const second = await addInsight({ body: "second" }, report);
    const list = await api.get(`/v1/reports/${report}/insights`);
    expect(list.body).toEqual({ data: [first, second], total: 2, limit: 50, offset: 0 });
    expect((await api.get(`/v1/reports/${report}/insights?limit=1&offset=1`)).body.data).toEqual([second]);
    expect((await api.get(`/v1/reports/${report}`)).body.data.agent_insights).toEqual([first, second]);
  });

  it("patches the given fields (null author is ignored, source is read-only) and deletes", async () => {
    const insight = await addInsight({ title: "Old" });
    const res = await api.patch(`/v1/insights/${insight.id}`, { title: null, category: "market", author: null, source: "ai" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Insight updated successfully");
    expect(res.body.data).toMatchObject({ title: null, category: "market", author: "Alex Admin", source: "agent", body: "Strong demand" });
    expect(errorOf(await api.patch(`/v1/insights/${insight.id}`, { body: null }))).toEqual({ status: 400, message: "body must not be null" });
    expect(errorOf(await api.patch(`/v1/insights/${insight.id}`, { category: null }))).toEqual({ status: 400, message: "category must not be null" });
    expect((await api.get(`/v1/insights/${insight.id}`)).body.data).toEqual(res.body.data);

    expect((await api.delete(`/v1/insights/${insight.id}`)).body).toEqual({ message: "Insight deleted successfully" });
    for (const r of [await api.get(`/v1/insights/${insight.id}`), await api.patch(`/v1/insights/${insight.id}`, { body: "x" }), await api.delete(`/v1/insights/${insight.id}`)]) {
      expect(errorOf(r)).toEqual({ status: 404, message: "Insight not found" });
    }
  });

  it("keeps teams apart", async () => {
    const insight = await addInsight({});
    const other = restClient(t.app, (await createTeam()).auth);
    for (const r of [await other.get(`/v1/insights/${insight.id}`), await other.patch(`/v1/insights/${insight.id}`, { body: "x" }), await other.delete(`/v1/insights/${insight.id}`)]) {
      expect(errorOf(r)).toEqual({ status: 404, message: "Insight not found" });
    }
    expect((await api.get(`/v1/insights/${insight.id}`)).body.data.body).toBe("Strong demand");
  });

  it("answers 403 naming the ai_insights permission of each action", async () => {
    const insight = await addInsight({});
    const reader = restClient(t.app, await addKey(team.teamId, "reports:read,comparables:*"));
    const cases: Array<[Promise<any>, string]> = [
      [reader.get(`/v1/reports/${reportId}/insights`), "read"],
      [reader.get(`/v1/insights/${insight.id}`), "read"],
      [reader.post(`/v1/reports/${reportId}/insights`, { body: "x" }), "create"],
      [reader.patch(`/v1/insights/${insight.id}`, { body: "x" }), "update"],
      [reader.delete(`/v1/insights/${insight.id}`), "delete"],
    ];
    for (const [res, action] of cases) expect(errorOf(await res)).toEqual({ status: 403, message: `Permission denied: ai_insights:${action}` });
    const detail = await reader.get(`/v1/reports/${reportId}`);
    expect(detail.body.data).not.toHaveProperty("agent_insights");
    expect(detail.body.data.comparable_properties).toEqual([]);
  });
});

it("works the same in GraphQL", async () => {
  const gql = (query: string, variables: Record<string, unknown>) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });
  const created = await gql(`mutation($r: ID!) { createAgentInsight(reportId: $r, input: { body: "From GraphQL", category: neighborhood }) { id author source category } }`, { r: reportId });
  expect(created.body.data.createAgentInsight).toMatchObject({ author: "Alex Admin", source: "agent", category: "neighborhood" });
  const page = await gql(`query($r: ID!) { agentInsights(reportId: $r, limit: 100) { total items { id } } }`, { r: reportId });
  expect(page.body.data.agentInsights.items.map((i: { id: string }) => i.id)).toContain(created.body.data.createAgentInsight.id);
  const bad = await gql(`mutation($r: ID!) { createAgentInsight(reportId: $r, input: { body: " " }) { id } }`, { r: reportId });
  expect(bad.body.errors[0]).toMatchObject({ message: "body must not be empty", extensions: { code: "BAD_USER_INPUT", field: "body" } });
});
