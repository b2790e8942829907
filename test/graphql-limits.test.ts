// GraphQL limits (DECISIONS "GraphQL limits", issue 12 finding 1): depth, aliases and the estimated result size are
// checked before execution; nested collections are capped at 100 items; REST documents stay within the limits.
import { complexityFromQuery } from "@pothos/plugin-complexity";
import request from "supertest";
import { prisma } from "../src/db";
import { restRouter } from "../src/rest";
import { restOperations } from "../src/rest/graphql";
import { schema } from "../src/schema";
import { LIMITS } from "../src/schema/limits";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  const report = await prisma.report.create({
    data: {
      teamId: team.teamId,
      address: "1 Deep St",
      addressKey: "1 deep st",
      searchKey: "1 deep st",
      listingAgent: "A",
      createdBy: "B",
      showings: { create: Array.from({ length: 130 }, (_, i) => ({ attendeeName: `Visitor ${i}` })) },
    },
  });
  reportId = report.id;
});
afterAll(() => t.close());

// The GraphQL-over-HTTP media type, under which validation errors (these limits among them) answer 400.
const post = (query: string, variables: Record<string, unknown> = {}) =>
  request(t.app).post("/graphql").set(team.auth).set("Accept", "application/graphql-response+json").send({ query, variables });

/** report → showings → report → … `levels` times, each list at `limit`. */
function nested(levels: number, limit?: number): string {
  const args = limit === undefined ? "" : `(limit: ${limit})`;
  let inner = "id";
  for (let i = 0; i < levels; i++) inner = `showings${args} { report { ${inner} } }`;
  return `{ report(id: "${reportId}") { ${inner} } }`;
}

function expectTooComplex(res: request.Response, words: RegExp) {
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
  expect(res.body.errors[0].message).toMatch(words);
}

describe("GraphQL limits", () => {
  it("refuses the 140-byte amplification query before it runs, while a normal request beside it answers", async () => {
    const attack = `{ reports { items { showings { report { showings { report { showings { report { showings { id } } } } } } } } } }`;
    const [refused, normal] = await Promise.all([post(attack), post(`{ report(id: "${reportId}") { address showingsCount } }`)]);
    expectTooComplex(refused, /can return \d+ objects, the limit is 50000/);
    expect(normal.status).toBe(200);
    expect(normal.body.data.report).toEqual({ address: "1 Deep St", showingsCount: 130 });
  });

  it("counts depth from 1 at a top-level field: 12 passes, 13 is refused and says by how much", async () => {
    // report (1) + 5 × (showings, report) (10) + id (1) = depth 12; one more level = 14. The report has 130 showings:
    // lists below lists load level by level (src/db/load-strategy.ts), so depth 12 answers at once instead of never.
    expect((await post(nested(5, 1))).body.errors).toBeUndefined();
    expectTooComplex(await post(nested(6, 1)), /depth 14, the limit is 12/);
  });

  it("answers like any other validation error under either media type", async () => {
    const legacy = (query: string) => request(t.app).post("/graphql").set(team.auth).set("Accept", "application/json").send({ query });
    const invalid = await legacy("{ nosuchfield }");
    const tooDeep = await legacy(nested(6, 1));
    expect(tooDeep.status).toBe(invalid.status);
    expect(tooDeep.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
  });

  it("refuses more than 30 aliases", async () => {
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: report(id: "${reportId}") { id }`).join(" ")} }`;
    expect((await post(aliases(30))).body.errors).toBeUndefined();
    expectTooComplex(await post(aliases(31)), /31 aliases, the limit is 30/);
  });

  it("multiplies each list's limit down the nesting (its maximum, 100, when none is given)", async () => {
    const query = (limit: number) => `{ reports(limit: ${limit}) { items { showings(limit: ${limit}) { report { showings(limit: ${limit}) { id } } } } } }`;
    expect((await post(query(20))).body.errors).toBeUndefined(); // 1 + 20 × (1 + 20 × (1 + 1 + 20)) = 8,821
    expectTooComplex(await post(query(40)), /can return 67241 objects/);
    // With variables the estimate uses their values.
    const withVariables = `query($n: Int!) { reports(limit: $n) { items { showings(limit: $n) { report { showings(limit: $n) { id } } } } } }`;
    expectTooComplex(await post(withVariables, { n: 40 }), /can return 67241 objects/);
  });

  it("caps nested collections at 100 items: GraphQL by default and by the limit rule, REST detail too", async () => {
    const { body } = await post(`{ report(id: "${reportId}") { showings { id } more: showings(offset: 100) { id } } }`);
    expect(body.data.report.showings).toHaveLength(100);
    expect(body.data.report.more).toHaveLength(30);
    const over = await post(`{ report(id: "${reportId}") { showings(limit: 101) { id } } }`);
    expect(over.body.errors[0].message).toBe("limit must be at most 100");
    const detail = await request(t.app).get(`/v1/reports/${reportId}`).set(team.auth);
    expect(detail.status).toBe(200);
    expect(detail.body.data.showing_events).toHaveLength(100);
    expect(detail.body.data.showings_count).toBe(130);
  });

  it("keeps every REST document within depth and size", () => {
    restRouter(); // every REST module is loaded
    expect(restOperations.length).toBeGreaterThan(10);
    for (const op of restOperations) {
      const input = /CreateShowing/.test(op.name)
        ? { reportId: "00000000-0000-4000-8000-000000000000" }
        : /CreateReport|CreateComparable/.test(op.name)
          ? { address: "x" }
          : /CreateAgentInsight/.test(op.name)
            ? { body: "x" }
            : /CreateWebhook/.test(op.name)
              ? { url: "x", events: ["*"] }
              : {};
      const variables = { limit: 100, offset: 0, status: "all", id: "x", reportId: "00000000-0000-4000-8000-000000000000", address: "x", input, comparables: [], posts: [{}], atomic: false, deliveryId: "x" };
      const { depth, complexity } = complexityFromQuery(op.document, { schema, variables });
      expect({ op: op.name, depth: depth <= LIMITS.depth, objects: complexity <= LIMITS.objects }).toEqual({ op: op.name, depth: true, objects: true });
    }
  });
});
