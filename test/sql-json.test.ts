// The one-statement read path (src/schema/sql-json): reads of reports and their collections answered by one SQL
// statement whose JSON PostgreSQL builds. It must answer exactly what the resolvers answer — same fields, values,
// order, permissions and team scoping — and stay under the query limits. Each comparison runs the same selection
// twice: as it is (the one-statement path) and with `@include(if: true)` on the root field, which that path does
// not take (the resolvers answer).
import { createHash, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { config } from "../src/config";
import { prisma } from "../src/db";
import { parse, type GraphQLObjectType } from "graphql";
import { keyReadsCostAStatement } from "../src/auth/key-lookup";
import { TEAM_FULL_ACCESS } from "../src/auth/permissions";
import { tierLimit } from "../src/auth/tiers";
import type { Context } from "../src/context";
import { DETAIL_FRAGMENT, SUMMARY_FIELDS, toReportDetail, type ReportDetailResult } from "../src/rest/shapes";
import { schema } from "../src/schema";
import { execute } from "../src/schema/engine";
import { restOperations } from "../src/operations/run";
import { sqlJsonEntry, statementTextOf } from "../src/schema/sql-json/run";
import { addKey, countStatements, createTeam, errorOf, isHousekeeping, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { everyField, selectionAround, servedObject, servedRoots } from "./support/served";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
let reportIds: string[];

const isOneStatementRead = (sql: string) => sql.startsWith("SELECT (") && sql.includes("json_build_array(");
/** Counting a call: usage and last_used_at, written in the background. */
/** Statements of the request's own reading (not the key lookup, usage counting or last_used_at). */
const reads = (statements: string[]) => statements.filter((sql) => !isHousekeeping(sql) && !/FROM api_keys WHERE key_hash = ANY/.test(sql));

/**
 * Every field of Report and of its collections that the one-statement path serves (the computed ones included),
 * read from the schema (test/support/served.ts), with an alias and paging arguments.
 */
const EVERY_FIELD = `
  fragment AllReport on Report {
    ${everyField(servedObject(schema.getType("Report") as GraphQLObjectType))}
    j: address
    later: comparables(limit: 2, offset: 1) { id adjustedPrice }
  }`;

const page = (include: string) => `query($status: ReportStatusFilter!, $limit: Int!, $offset: Int!) {
  reports(status: $status, limit: $limit, offset: $offset) ${include} { __typename total limit offset items { ...AllReport } }
} ${EVERY_FIELD}`;
const one = (include: string) => `query($id: ID!) { report(id: $id) ${include} { ...AllReport } } ${EVERY_FIELD}`;

/** Runs a query both ways; returns both bodies and the statements of the first. */
async function bothWays(query: (include: string) => string, variables: Record<string, unknown>, auth = team.auth) {
  const { result: fast, statements } = await countStatements(() => request(t.app).post("/graphql").set(auth).send({ query: query(""), variables }));
  const slow = await request(t.app).post("/graphql").set(auth).send({ query: query("@include(if: true)"), variables });
  expect(fast.status).toBe(slow.status);
  return { fast: fast.body, slow: slow.body, statements: reads(statements) };
}

/**
 * A GraphQL answer without what its key had left to spend (extensions.cost.throttleStatus.currentlyAvailable, read
 * cost: src/schema/read-cost.ts). The two answers compared come from two requests of one key, each charged in turn,
 * so the second sees the first's points spent; every other value of the cost block (requested and actual cost, the
 * budget and its restore rate) stays and is compared. A copy through JSON keeps the key order.
 */
function withoutBudgetLeft(answer: unknown): unknown {
  const copy = answer === undefined ? answer : JSON.parse(JSON.stringify(answer));
  const throttle = copy?.extensions?.cost?.throttleStatus;
  if (throttle) delete throttle.currentlyAvailable;
  return copy;
}

/** Equal values (data, errors, the cost charged), and the same key order everywhere (JSON text compares both). */
function expectSame(fast: unknown, slow: unknown) {
  expect(withoutBudgetLeft(fast)).toEqual(withoutBudgetLeft(slow));
  expect(JSON.stringify(withoutBudgetLeft(fast))).toBe(JSON.stringify(withoutBudgetLeft(slow)));
}

const contextOf = (of: TestTeam): Context => ({
  viewer: { keyId: "test", keyPrefix: "prs_sk_live_test", teamId: of.teamId, permissions: TEAM_FULL_ACCESS, tier: "standard" },
  rateLimit: null,
});

// A page of reports with every field of every collection can answer hundreds of MiB when every text is at its bound:
// the size limit refuses it (test/response-size.test.ts). Here it is the two engines' answers that are compared.
const maxResponseBytes = config.MAX_RESPONSE_BYTES;

beforeAll(async () => {
  config.MAX_RESPONSE_BYTES = 2 ** 30;
  t = await startTestApp();
  team = await createTeam();
  other = await createTeam();
  reportIds = [];
  const values = [
    { address: `1 "Quoted" Way\\ \u00e9\u4e2d\ud83c\udfe0`, price: 350000.5, beds: 3, baths: 2.5, sqft: 1850, status: "published" as const, publishedAt: new Date("2026-01-02T03:04:05.006Z") },
    { address: "2 Null Street", description: "line\nbreak\ttab \u0001 control", lotSize: 0.1 + 0.2, primaryColor: "#ABC" },
    { address: "3 Big Numbers Rd", price: 123456789.125, sqft: 7, yearBuilt: 1600, customAgentEmail: "a@example.com", executiveSummary: "" },
  ];
  for (const [i, v] of values.entries()) {
    const key = v.address.toLowerCase();
    const report = await prisma.report.create({
      data: {
        ...v,
        teamId: team.teamId,
        addressKey: key,
        searchKey: key,
        listingAgent: "Agent",
        createdBy: "Seed",
        createdAt: new Date(Date.UTC(2026, 0, 10 + i, 0, 0, 0, i * 7)),
        comparables: {
          create: [
            { address: "9 Comp Ave", price: 300000, sqft: 1500, adjustments: { pool: -10000, garage: 5000 }, saleDate: new Date("2025-12-31T23:59:59.999Z"), latitude: 39.7817, longitude: -89.6501, distanceMiles: 0.4 },
            { address: "10 Comp Ave", price: 199999.99, sqft: 3, adjustments: { a: 1, b: 2.5 }, included: false, status: "active" },
            { address: "11 Comp Ave", price: null, sqft: 0, adjustments: {}, lotSize: 0.00005, baths: 1e-7 },
            { address: "12 Comp Ave", price: 1, sqft: 1000, adjustments: [] },
          ].map((c, j) => ({ ...c, createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, j)) })),
        },
        showings: {
          create: [
            { attendeeName: "Jordan", eventType: "open_house" as const, rating: 5, interested: true, showingDate: new Date("2026-05-01T14:00:00Z"), showingTimeStart: new Date("2026-05-01T14:00:00.123Z") },
            { feedback: "Liked the \"kitchen\"", uniqueShowingKey: `crm-${i}` },
          ],
        },
        socialMediaPosts: {
          create: [
            { platform: "instagram", externalId: "ig-1", likes: 9007199254740991n, reach: 0n, postedAt: new Date("2026-03-03T03:03:03.030Z") },
            { platform: "x", externalId: "x-1", caption: "\u2028 separators \u2029" },
          ],
        },
        agentInsights: { create: [{ author: "Dana", body: "Priced to sell", title: null, category: "pricing", source: "ai" }] },
      },
    });
    reportIds.push(report.id);
  }
  // Another team's report: never in this team's answers.
  await prisma.report.create({ data: { teamId: other.teamId, address: "Elsewhere", addressKey: "elsewhere", searchKey: "elsewhere", listingAgent: "A", createdBy: "B" } });
});
afterAll(async () => {
  config.MAX_RESPONSE_BYTES = maxResponseBytes;
  await t.close();
});

describe("GraphQL", () => {
  it("answers a page of reports with every field of every collection exactly as the resolvers do, in one statement", async () => {
    for (const variables of [
      { status: "all", limit: 50, offset: 0 },
      { status: "published", limit: 50, offset: 0 },
      { status: "draft", limit: 1, offset: 1 },
    ]) {
      const { fast, slow, statements } = await bothWays(page, variables);
      expect(slow.errors).toBeUndefined();
      expectSame(fast, slow);
      // Both carry the read cost, the one statement charged what the resolvers are (compared in expectSame too).
      expect(fast.extensions.cost.requestedQueryCost).toBe(slow.extensions.cost.requestedQueryCost);
      expect(fast.extensions.cost.actualQueryCost).toBe(slow.extensions.cost.actualQueryCost);
      expect(fast.extensions.cost.actualQueryCost).toBeGreaterThan(0);
      expect(statements).toHaveLength(1);
      expect(isOneStatementRead(statements[0])).toBe(true);
    }
    const { fast } = await bothWays(page, { status: "all", limit: 50, offset: 0 });
    expect(fast.data.reports.total).toBe(3);
    // (300,000 - 10,000 + 5,000) / 1,500 sq ft; no price; 1 / 1,000 rounds to 0.
    expect(fast.data.reports.items[2].comparables.map((c: { pricePerSqft: number | null }) => c.pricePerSqft)).toEqual([196.67, 66667.83, null, 0]);
  });

  it("answers one report the same way, and leaves unknown ids, other teams' reports and bad arguments to the resolvers", async () => {
    const { fast, slow, statements } = await bothWays(one, { id: reportIds[0] });
    expectSame(fast, slow);
    expect(fast.data.report.id).toBe(reportIds[0]);
    expect(statements.filter(isOneStatementRead)).toHaveLength(1);
    expect(statements).toHaveLength(1);

    const otherReport = await prisma.report.findFirstOrThrow({ where: { teamId: other.teamId } });
    for (const id of [otherReport.id, "00000000-0000-0000-0000-000000000000", "not-a-uuid"]) {
      const both = await bothWays(one, { id });
      expectSame(both.fast, both.slow);
      expect(both.fast.errors[0].extensions.code).toBe("NOT_FOUND");
    }
    const bad = await bothWays(page, { status: "all", limit: 101, offset: 0 });
    expectSame(bad.fast, bad.slow);
    expect(bad.fast.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(bad.statements.filter(isOneStatementRead)).toHaveLength(0);
    const nested = await bothWays(() => `{ reports { items { comparables(offset: -1) { id } } } }`, {});
    expect(nested.fast.errors[0].message).toMatch(/offset/);
    expect(nested.statements.filter(isOneStatementRead)).toHaveLength(0);
  });

  it("reads variables as the resolvers do: defaults, missing and null values, coercion, enums, fragments", async () => {
    const id = reportIds[0];
    const report = (variables: string) => (include: string) => `query(${variables}) { report(id: $id) ${include} { id } }`;
    const reports = (variables: string, argument: string) => (include: string) => `query(${variables}) { reports(${argument}) ${include} { total limit } }`;
    const fragment = (variables: string) => (include: string) =>
      `query(${variables}) { report(id: "${id}") ${include} { ...Comps } } fragment Comps on Report { comparables(limit: $l) { address } }`;
    // [case, query, variables, what the answer is: data of the one-statement path, or the first error's message]
    const cases: Array<[string, (include: string) => string, Record<string, unknown>, { answered: true } | { error: RegExp }]> = [
      ["a non-null variable left out takes its default", report(`$id: ID! = "${id}"`), {}, { answered: true }],
      ["a nullable variable left out takes its default", report(`$id: ID = "${id}"`), {}, { answered: true }],
      ["an enum variable left out takes its default", reports("$s: ReportStatusFilter! = draft", "status: $s"), {}, { answered: true }],
      ["a variable of a fragment left out takes its default", fragment("$l: Int! = 1"), {}, { answered: true }],
      ["a variable of a fragment", fragment("$l: Int! = 1"), { l: 3 }, { answered: true }],
      ["a required variable left out", report("$id: ID!"), {}, { error: /^id is required$/ }],
      ["null for a non-null variable", report("$id: ID!"), { id: null }, { error: /^id must not be null$/ }],
      ["null for a non-null variable with a default", report(`$id: ID! = "${id}"`), { id: null }, { error: /^id must not be null$/ }],
      ["a string for an Int", reports("$l: Int!", "limit: $l"), { l: "5" }, { error: /^l must be a number$/ }],
      ["a string for an Int in a fragment", fragment("$l: Int! = 1"), { l: "2" }, { error: /^l must be a number$/ }],
      ["an Int", reports("$l: Int!", "limit: $l"), { l: 5 }, { answered: true }],
      ["a fraction for an Int", reports("$l: Int!", "limit: $l"), { l: 5.5 }, { error: /^l must be an integer$/ }],
      ["an Int past 32 bits", reports("$l: Int!", "limit: $l"), { l: 2 ** 40 }, { error: /^l must be at most 2147483647$/ }],
      ["a number for an ID", report("$id: ID!"), { id: 5 }, { error: /^Report not found$/ }],
      ["a boolean for an ID", report("$id: ID!"), { id: true }, { error: /^id must be a string$/ }],
      ["a list for an ID", report("$id: ID!"), { id: [id] }, { error: /^id must be a string$/ }],
      ["an enum value", reports("$s: ReportStatusFilter!", "status: $s"), { s: "published" }, { answered: true }],
      ["an enum value in another case", reports("$s: ReportStatusFilter!", "status: $s"), { s: "PUBLISHED" }, { error: /^s must be one of: draft, published, all$/ }],
      ["a number for an enum", reports("$s: ReportStatusFilter!", "status: $s"), { s: 1 }, { error: /^s must be one of/ }],
      ["a nullable variable with a default, sent as null", reports("$l: Int = 5", "limit: $l"), { l: null }, { error: /"limit" of non-null type "Int!" must not be null/ }],
      ["a nullable variable with a default, left out", reports("$l: Int = 5", "limit: $l"), {}, { answered: true }],
      ["a nullable variable without a default, left out (the argument's default)", reports("$l: Int", "limit: $l"), {}, { answered: true }],
      ["a nullable variable with a default in a fragment, sent as null", fragment("$l: Int = 1"), { l: null }, { error: /"limit" of non-null type "Int!" must not be null/ }],
      ["a variable no operation declares", report(`$id: ID! = "${id}"`), { other: [1] }, { answered: true }],
    ];
    // (No argument the one-statement path reads is a list, so a single value for a list cannot reach it: GraphQL's
    // list coercion is the resolvers' alone; the REST tests refuse it before either runs.)
    for (const [name, query, variables, expected] of cases) {
      const { fast, slow, statements } = await bothWays(query, variables);
      try {
        expectSame(fast, slow);
        if ("answered" in expected) {
          expect(fast.errors).toBeUndefined();
          expect(statements.filter(isOneStatementRead)).toHaveLength(1);
        } else expect(fast.errors[0].message).toMatch(expected.error);
      } catch (err) {
        throw new Error(`${name}: ${(err as Error).message}`, { cause: err });
      }
    }
  });

  it("answers with the resolvers' error when the key lacks a collection's permission", async () => {
    const auth = await addKey(team.teamId, "reports:read,comparables:read");
    const { fast, slow, statements } = await bothWays(page, { status: "all", limit: 50, offset: 0 }, auth);
    expectSame(fast, slow);
    expect(fast.errors[0].extensions.code).toBe("FORBIDDEN");
    expect(statements.filter(isOneStatementRead)).toHaveLength(0);
  });

  it("keeps the query limits: an over-limit selection it could answer is refused before anything runs", async () => {
    const wide = `{ reports(limit: 100) { items { a: comparables { id } b: comparables { id } c: showings { id } d: showings { id } e: agentInsights { id } f: agentInsights { id } } } }`;
    const aliases = `{ report(id: "${reportIds[0]}") { ${Array.from({ length: 31 }, (_, i) => `a${i}: id`).join(" ")} } }`;
    // The same size given by a variable's default (applied on both paths): the limit sees the default too.
    const byDefault = `query($n: Int! = 100) { reports(limit: $n) { items { a: comparables(limit: $n) { id } b: comparables(limit: $n) { id } c: showings(limit: $n) { id } d: showings(limit: $n) { id } e: agentInsights(limit: $n) { id } f: agentInsights(limit: $n) { id } } } }`;
    for (const query of [wide, aliases, byDefault]) {
      const { result, statements } = await countStatements(() => request(t.app).post("/graphql").set(team.auth).send({ query }));
      expect(result.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
      expect(reads(statements)).toHaveLength(0);
    }
  });

  it("answers a small request while ten heavy pages are answered", async () => {
    const heavy = { query: page(""), variables: { status: "all", limit: 50, offset: 0 } };
    const finished: string[] = [];
    const pages = Array.from({ length: 10 }, () =>
      request(t.app)
        .post("/graphql")
        .set(team.auth)
        .send(heavy)
        .then((res) => {
          expect(res.body.data.reports.items).toHaveLength(3);
          finished.push("page");
        }),
    );
    const small = request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: "{ __typename }" })
      .then((res) => {
        expect(res.body.data).toEqual({ __typename: "Query" });
        finished.push("small");
      });
    await Promise.all([...pages, small]);
    // Not queued behind every page: answered before the last of them.
    expect(finished.indexOf("small")).toBeLessThan(finished.length - 1);
  });
});

describe("REST", () => {
  const detail = (include: string) => `query($id: ID!) { report(id: $id) ${include} { ...RestReportDetail } } ${DETAIL_FRAGMENT}`;

  it("GET /v1/reports/{id} is the one-statement answer, equal to the resolvers' detail", async () => {
    for (const id of reportIds) {
      const { result, statements } = await countStatements(() => request(t.app).get(`/v1/reports/${id}`).set(team.auth));
      expect(result.status).toBe(200);
      expect(result.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(reads(statements)).toHaveLength(1);
      expect(isOneStatementRead(reads(statements)[0])).toBe(true);
      // REST's document has more aliases than /graphql accepts: the resolvers' answer of it comes from the engine.
      const slow = await execute({ schema, document: parse(detail("@include(if: true)")), variableValues: { id }, contextValue: contextOf(team) });
      expect(slow.errors).toBeUndefined();
      const expected = { data: toReportDetail((slow.data as { report: ReportDetailResult }).report) };
      expectSame(result.body, expected);
      // Byte for byte what res.json writes (compact JSON, strings escaped as JavaScript escapes them; the service
      // writes the statement's values with JSON.stringify), JSON-typed values aside (their keys in jsonb's order).
      const respelled = (text: string) =>
        text.replace(/"adjustments":\{[^}]*\}/g, '"adjustments":…').replace(/-?\d+(\.\d+)?e[-+]?\d+/g, (n) => JSON.stringify(Number(n)));
      expect(respelled(result.text)).toBe(respelled(JSON.stringify(expected)));
    }
  });

  it("leaves out the collections a key may not read, as before", async () => {
    const auth = await addKey(team.teamId, "reports:read,showings:read");
    const { result, statements } = await countStatements(() => request(t.app).get(`/v1/reports/${reportIds[0]}`).set(auth));
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.data)).toContain("showing_events");
    for (const hidden of ["comparable_properties", "social_media_posts", "agent_insights"]) expect(result.body.data).not.toHaveProperty(hidden);
    expect(reads(statements).filter(isOneStatementRead)).toHaveLength(1);
  });

  it("answers a key this process has seen with one statement in all, its check included, and sees it change at once", async () => {
    const auth = await addKey(team.teamId, "reports:read,comparables:read");
    const path = `/v1/reports/${reportIds[0]}`;
    expect((await request(t.app).get(path).set(auth)).status).toBe(200);
    const whole = (statements: string[]) => statements.filter((sql) => !isHousekeeping(sql));
    const seen = await countStatements(() => request(t.app).get(path).set(auth));
    expect(seen.result.status).toBe(200);
    expect(whole(seen.statements)).toHaveLength(1);
    expect(Object.keys(seen.result.body.data)).toContain("comparable_properties");
    // Changed in the database behind the service's back: the next request answers for the key as it is now.
    const hash = createHash("sha256").update(auth.Authorization.slice(7)).digest("hex");
    await prisma.$executeRaw`UPDATE api_keys SET permissions = '{"reports": ["read"]}' WHERE key_hash = ${hash}`;
    const { result: narrowed, statements } = await countStatements(() => request(t.app).get(path).set(auth));
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data).not.toHaveProperty("comparable_properties");
    // On PostgreSQL its statement finds the row changed: the key is read, and the statement asked once more, no
    // handler run twice (the embedded database's key cache was told of the change as it committed).
    if (keyReadsCostAStatement()) {
      expect(whole(statements).filter(isOneStatementRead)).toHaveLength(2);
      expect(whole(statements).filter((sql) => /FROM api_keys WHERE key_hash = ANY/.test(sql))).toHaveLength(1);
    }
    expect((await request(t.app).get("/v1/reports?limit=1").set(auth)).body.data).toHaveLength(1);
    await prisma.$executeRaw`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE key_hash = ${hash}`;
    expect(errorOf(await request(t.app).get(path).set(auth))).toEqual({ status: 401, message: "Invalid API key" });
    await prisma.$executeRaw`UPDATE api_keys SET expires_at = NULL, permissions = '{"showings": ["read"]}' WHERE key_hash = ${hash}`;
    expect(errorOf(await request(t.app).get(path).set(auth))).toEqual({ status: 403, message: "Permission denied: reports:read" });
    await prisma.$executeRaw`UPDATE api_keys SET permissions = '{"reports": ["read"]}' WHERE key_hash = ${hash}`;
    expect((await request(t.app).get(path).set(auth)).status).toBe(200);
    await prisma.$executeRaw`UPDATE api_keys SET rate_limit_tier = 'free' WHERE key_hash = ${hash}`;
    expect((await request(t.app).get(path).set(auth)).headers["x-ratelimit-limit"]).toBe(String(tierLimit("free")));
    await prisma.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE key_hash = ${hash}`;
    for (const p of [path, "/v1/reports", "/v1/reports/not-an-id", "/v1/reports?limit=nope"]) {
      expect(errorOf(await request(t.app).get(p).set(auth))).toEqual({ status: 401, message: "Invalid API key" });
    }
  });

  it("counts every report read of a key this process knows once: answered, refused by the route, or answered after its key changed", async () => {
    const own = await createTeam({ permissions: "reports:read" });
    const calls = async () => (await request(t.app).get("/v1/users/me").set(own.auth)).body.data.subscription.api_usage.calls_this_month;
    expect((await request(t.app).get("/v1/reports").set(own.auth)).status).toBe(200);
    expect((await request(t.app).get("/v1/reports").set(own.auth)).status).toBe(200);
    expect(errorOf(await request(t.app).get(`/v1/reports/${randomUUID()}`).set(own.auth)).status).toBe(404);
    expect(errorOf(await request(t.app).get("/v1/reports?limit=nope").set(own.auth)).status).toBe(400);
    // A new version of the key's row, still valid: the read is answered for the key as it is now, and counted once.
    const hash = createHash("sha256").update(own.key).digest("hex");
    await prisma.$executeRaw`UPDATE api_keys SET description = 'changed' WHERE key_hash = ${hash}`;
    expect((await request(t.app).get("/v1/reports").set(own.auth)).status).toBe(200);
    expect(await calls()).toBe(6); // five reads and users/me itself
  });

  it("GET /v1/reports is the one-statement answer, equal to the resolvers' page", async () => {
    const { result, statements } = await countStatements(() => request(t.app).get("/v1/reports?limit=2&offset=1").set(team.auth));
    expect(reads(statements)).toHaveLength(1);
    const slow = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `{ reports(limit: 2, offset: 1) @include(if: true) { data: items { ${SUMMARY_FIELDS} } total limit offset } }` });
    expectSame(result.body, slow.body.data.reports);
    expect(Object.keys(result.body)).toEqual(["data", "total", "limit", "offset"]);
  });
});

describe("the statements, as a reviewer reads them", () => {
  // test/snapshots/sql-json-statements.sql holds the statement of each REST read the one-statement path answers and
  // of each GraphQL root it serves, selecting every field it serves (test/support/served.ts): a change to the planner
  // or to a field table shows there, in review, as the SQL it makes (as grafast's SQL snapshots do).
  const SNAPSHOT = path.join(__dirname, "snapshots", "sql-json-statements.sql");

  /** The text broken before each sub-select and clause (not extract's FROM), and wrapped at a comma past 100 characters. */
  function readable(sql: string): string {
    const broken = sql.replace(/(?<!epoch) (?=\(SELECT |FROM |WHERE |ORDER BY |LIMIT |OFFSET |UNION ALL |LEFT JOIN |CROSS JOIN )/g, "\n");
    return broken
      .split("\n")
      .flatMap((line) => {
        const out: string[] = [];
        let rest = line;
        while (rest.length > 120) {
          const at = rest.indexOf(", ", 100);
          if (at < 0) break;
          out.push(rest.slice(0, at + 1));
          rest = `    ${rest.slice(at + 2)}`;
        }
        return [...out, rest];
      })
      .join("\n");
  }

  function statements(): string {
    const blocks: string[] = [];
    for (const op of restOperations.filter((o) => o.kind === "query")) {
      const entry = sqlJsonEntry(schema, op.document, op.name);
      const text = entry && statementTextOf(entry);
      if (text) blocks.push(`-- REST: ${op.name}\n${readable(text)};`);
    }
    for (const root of servedRoots(schema)) {
      const args = root.kind === "one" ? `(id: "00000000-0000-4000-8000-000000000000")` : "";
      const document = parse(`query Every { ${root.field.name}${args} ${selectionAround(root, everyField(root.object))} }`);
      const entry = sqlJsonEntry(schema, document, "Every");
      const text = entry && statementTextOf(entry);
      if (!text) throw new Error(`the one-statement path serves ${root.field.name}, but no statement answers every field of it`);
      blocks.push(`-- GraphQL: ${root.field.name} with every field it serves\n${readable(text)};`);
    }
    const head = "-- Generated by test/sql-json.test.ts; UPDATE_SQL_SNAPSHOTS=1 npm run -s test:only -- test/sql-json.test.ts rewrites it.";
    return `${head}\n\n${blocks.join("\n\n")}\n`;
  }

  it("are those of test/snapshots/sql-json-statements.sql (UPDATE_SQL_SNAPSHOTS=1 rewrites it)", () => {
    const now = statements();
    if (process.env.UPDATE_SQL_SNAPSHOTS) writeFileSync(SNAPSHOT, now);
    expect(readFileSync(SNAPSHOT, "utf8")).toBe(now);
  });
});
