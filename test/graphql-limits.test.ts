// GraphQL limits (docs/api.md "GraphQL limits"): depth, aliases and the estimated result size are
// checked before execution; nested collections are capped at 100 items; REST documents stay within the limits.
import { complexityFromQuery } from "@pothos/plugin-complexity";
import request from "supertest";
import { restRouter } from "../src/rest";
import { parse, validate } from "graphql";
import { TEAM_FULL_ACCESS } from "../src/auth/permissions";
import { restOperations } from "../src/rest/graphql";
import { schema } from "../src/schema";
import { execute } from "../src/schema/engine";
import { MAX_READ_ROWS } from "../src/db/load-strategy";
import { LIMITS } from "../src/schema/limits";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

/** A file part as the multipart request gives it (a photo upload's variable). */
const UPLOADED = { size: 1, type: "image/png", name: "x.png", arrayBuffer: async () => new ArrayBuffer(1) };

let t: TestApp;
let team: TestTeam;
let reportId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  const report = await seedReport(team.teamId, "1 Deep St", {
    showings: { create: Array.from({ length: 130 }, (_, i) => ({ attendeeName: `Visitor ${i}` })) },
  });
  reportId = report.id;
});
afterAll(() => t.close());

// The GraphQL-over-HTTP media type, under which validation errors (these limits among them) answer 400.
const post = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  request(t.app).post("/graphql").set(team.auth).set("Accept", "application/graphql-response+json").send({ query, variables, operationName });
const get = (query: string, operationName?: string) =>
  request(t.app)
    .get("/graphql")
    .query({ query, ...(operationName ? { operationName } : {}) })
    .set(team.auth)
    .set("Accept", "application/graphql-response+json");

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

  it("checks the operation that runs (operationName), with the fragments it spreads, by POST and GET", async () => {
    // The refused query behind a harmless first operation: the limits are those of B, which is the one executed.
    const deepB = `query A { __typename } query B ${nested(6, 1)}`;
    expectTooComplex(await post(deepB, {}, "B"), /depth 14, the limit is 12/);
    expectTooComplex(await get(deepB, "B"), /depth 14, the limit is 12/);
    const big = `{ reports(limit: 40) { items { showings(limit: 40) { report { showings(limit: 40) { id } } } } } }`;
    expectTooComplex(await post(`query A { __typename } query B ${big}`, {}, "B"), /can return 67241 objects/);
    // Through a fragment only B spreads.
    const viaFragment = `query A { __typename } query B { ...F } fragment F on Query ${nested(6, 1)}`;
    expectTooComplex(await post(viaFragment, {}, "B"), /depth 14, the limit is 12/);
    // A harmless B behind a deep A runs: A is not executed.
    const harmlessB = await post(`query A ${nested(6, 1)} query B { __typename }`, {}, "B");
    expect(harmlessB.status).toBe(200);
    expect(harmlessB.body).toEqual({ data: { __typename: "Query" }, extensions: { cost: expect.anything() } });
  });

  it("estimates a document whose estimate an argument would fail (null for a non-null limit) instead of running it unchecked", async () => {
    const inner = nested(6, 1).slice(1, -1); // report → … depth 14, as a field of the operation
    const query = `query($n: Int) { first: report(id: "${reportId}") { showings(limit: $n) { id } } ${inner} }`;
    expectTooComplex(await post(query, { n: null }), /depth 14, the limit is 12/);
  });

  it("refuses an operationName the document does not define, and several operations without one (400)", async () => {
    for (const res of [
      await post(`query A { __typename } query B { __typename }`, {}, "C"),
      await get(`query A { __typename } query B { __typename }`, "C"),
      await request(t.app).post("/graphql").set(team.auth).send({ query: `query A { __typename }`, operationName: "C" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Unknown operation named "C".', extensions: expect.objectContaining({ code: "BAD_REQUEST" }) })]);
    }
    const unnamed = await post(`query A { __typename } query B { __typename }`);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors[0].message).toBe("Must provide operation name if query contains multiple operations.");
  });

  it("refuses a shape within the estimate whose read would build more rows than one read may, before it runs", async () => {
    // 100 showings → their report → 80 showings → their report → 2 showings: 32,200 objects (within the 50,000 of
    // the estimate), every one built by Prisma in the request's thread; answered, it held the event loop 3–7 s.
    const res = await post(`{ report(id: "${reportId}") { showings(limit: 100) { report { showings(limit: 80) { report { showings(limit: 2) { id } } } } } } }`);
    expectTooComplex(res, new RegExp(`one of its reads could build \\d+ rows, the limit is ${MAX_READ_ROWS}$`));
    expect((await request(t.app).get("/health")).status).toBe(200);
  });

  it("refuses a read that could build more than MAX_READ_ROWS rows, run without the limits: one QUERY_TOO_COMPLEX error", async () => {
    // Executed directly (no estimate before it), as a bug in the limits would let it run: one read nesting
    // 100 × 100 × 12 showings is refused before it runs. (test/system/graphql-memory.test.ts: the count of items built by
    // many smaller reads, and the heap at the largest size the limits allow.)
    const contextValue = { viewer: { keyId: "k", keyPrefix: "prs_sk_live_k", teamId: team.teamId, permissions: TEAM_FULL_ACCESS, tier: "standard" }, rateLimit: null };
    const document = parse(`{ report(id: "${reportId}") { showings(limit: 100) { report { showings(limit: 100) { report { showings(limit: 12) { id } } } } } } }`);
    const result = await execute({ schema, document, contextValue });
    expect(result.data).toBeUndefined();
    expect(result.errors?.map((e) => [e.message, e.extensions.code])).toEqual([[expect.stringMatching(/^Query too complex: one of its reads could build \d+ rows, the limit is \d+$/), "QUERY_TOO_COMPLEX"]]);
  });

  it("keeps every REST document valid against the schema and within depth and size", () => {
    restRouter(); // every REST module is loaded
    expect(restOperations.length).toBeGreaterThan(10);
    for (const op of restOperations) {
      expect(validate(schema, op.document).map((e) => `${op.name}: ${e.message}`)).toEqual([]);
      const input = /CreateShowing/.test(op.name)
        ? { reportId: "00000000-0000-4000-8000-000000000000" }
        : /CreateReport|CreateComparable/.test(op.name)
          ? { address: "x" }
          : /CreateAgentInsight/.test(op.name)
            ? { body: "x" }
            : /CreateWebhook/.test(op.name)
              ? { url: "x", events: ["*"] }
              : /CreateCrmDestination/.test(op.name)
                ? { kind: "json" }
                : {};
      const status = /Deliveries/.test(op.name) ? "failed" : "all";
      const variables = { limit: 100, offset: 0, status, id: "x", reportId: "00000000-0000-4000-8000-000000000000", address: "x", input, comparables: [], posts: [{}], atomic: false, deliveryId: "x", manifest: {}, first: 100, granularity: "HOUR", showingId: "x", format: "SVG", baseUrl: "https://reports.example.com", file: UPLOADED, alt: "x" };
      const { depth, complexity } = complexityFromQuery(op.document, { schema, variables });
      expect({ op: op.name, depth: depth <= LIMITS.depth, objects: complexity <= LIMITS.objects }).toEqual({ op: op.name, depth: true, objects: true });
    }
  });
});

describe("documents and variables nested past the bound", () => {
  const LEVELS = 2000;
  const deep = (open: string, middle: string, close: string, n = LEVELS) => open.repeat(n) + middle + close.repeat(n);
  const documents: Record<string, (n: number) => string> = {
    "lists in an argument": (n) => `{ report(id: ${deep("[", '"x"', "]", n)}) { id } }`,
    "nested selection sets": (n) => `{ report(id: "${reportId}") ${deep("{ showings ", "{ id }", " }", n)} }`,
    "object literals": (n) => `mutation { createReport(input: ${deep("{ a: ", "1", " }", n)}) { id } }`,
    "variable defaults": (n) => `query($v: ${deep("[", "String", "]", n)} = ${deep("[", '"x"', "]", n)}) { __typename }`,
  };

  function expectRefused(res: request.Response, words: RegExp) {
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toMatch(words);
    expect(res.body.errors[0].extensions).toMatchObject({ code: expect.any(String), status: 400 });
  }

  it.each(Object.entries(documents))("answers 400 for %s, by POST and GET", async (_, document) => {
    expectRefused(await post(document(LEVELS)), /nested more than 64 levels deep/);
    expectRefused(await request(t.app).post("/graphql").set(team.auth).send({ query: document(LEVELS) }), /nested more than 64 levels deep/);
    // A GET's URL is part of the request head (at most 16 KB): as deep as fits.
    if (!document(1).startsWith("mutation")) expectRefused(await get(document(500)), /nested more than 64 levels deep/);
    // 64 levels parse (and are then judged by the other limits).
    expect((await post(document(30))).body.errors?.[0]?.message ?? "").not.toMatch(/nested more than/);
  });

  it("answers 400 for a document of more than 10,000 tokens", async () => {
    const long = `{ ${"__typename ".repeat(10_000)} }`;
    expectRefused(await post(long), /more than 10000 tokens/);
  });

  it("answers 400 for variables nested deeper than 32 levels, even far deeper than the stack", async () => {
    const query = `mutation($posts: [JSON!]!) { importSocialMediaPosts(reportId: "${reportId}", posts: $posts) { created } }`;
    for (const levels of [32, 200_000]) {
      // The body as text: the test's own JSON.stringify would overflow on the deep one.
      const body = `{"query": ${JSON.stringify(query)}, "variables": {"posts": [${deep("[", "1", "]", levels)}]}}`;
      const res = await request(t.app).post("/graphql").set(team.auth).set("Content-Type", "application/json").set("Accept", "application/graphql-response+json").send(body);
      expectRefused(res, /variables are nested more than 32 levels deep/);
    }
    const getDeep = await request(t.app)
      .get("/graphql")
      .query({ query: "query($v: JSON) { __typename }", variables: JSON.stringify({ v: JSON.parse(deep("[", "1", "]", 2000)) }) })
      .set(team.auth);
    expectRefused(getDeep, /variables are nested more than 32 levels deep/);
  });

  it("answers 406 with the JSON error envelope for an Accept it cannot answer", async () => {
    const res = await request(t.app).post("/graphql").set(team.auth).set("Accept", "text/plain").send({ query: "{ __typename }" });
    expect(res.status).toBe(406);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.errors).toEqual([{ message: expect.stringMatching(/Accept/), extensions: { code: "NOT_ACCEPTABLE", status: 406 } }]);
    const viaGet = await request(t.app).get("/graphql").query({ query: "{ __typename }" }).set(team.auth).set("Accept", "image/png");
    expect(viaGet.status).toBe(406);
    expect(viaGet.body.errors[0].extensions.code).toBe("NOT_ACCEPTABLE");
  });
});
