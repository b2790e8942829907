// The Relay connections (docs/api.md "Connections"): reportsConnection, showingsConnection, eventsConnection and
// webhookDeliveriesConnection page newest first on (created_at, id) with first/after and last/before, say where a
// page is (pageInfo, totalCount), never repeat or skip a row when rows are added between two page reads, never show
// another team's rows, and refuse bad counts and foreign or malformed cursors by name. reportsConnection is read both
// by the one-statement path and (with @include on the root) by the resolvers; each test runs on both.
import { randomUUID } from "node:crypto";
import { parse } from "graphql";
import request from "supertest";
import { TEAM_FULL_ACCESS } from "../src/auth/permissions";
import type { Context } from "../src/context";
import { prisma } from "../src/db";
import { schema } from "../src/schema";
import { execute } from "../src/schema/engine";
import { RawData } from "../src/schema/sql-json/raw";
import { addKey, countStatements, createTeam, isHousekeeping, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
/** This team's report ids, newest first (the list's order). */
let order: string[] = [];

// A day before the file started: within the 30 days webhook events are kept (a worker of another test file on a shared
// PostgreSQL database prunes older ones).
const BASE = Date.now() - 86_400_000;
const at = (ms: number) => new Date(BASE + ms);

const gql = (auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => request(t.app).post("/graphql").set(auth).send({ query, variables });

const seedReports = (teamId: string, n: number, createdAt: (i: number) => Date, name = "Keyset") =>
  prisma.report.createManyAndReturn({
    data: Array.from({ length: n }, (_, i) => ({
      teamId,
      address: `${i} ${name} Road`,
      addressKey: `${i} ${name} road`.toLowerCase(),
      searchKey: `${i} ${name} road`.toLowerCase(),
      listingAgent: "Agent",
      createdBy: "Seed",
      status: i % 2 ? ("draft" as const) : ("published" as const),
      createdAt: createdAt(i),
    })),
    select: { id: true },
  });

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  other = await createTeam();
  // 25 reports, three at a time created at the same moment (the id breaks the tie), and another team's newer ones.
  await seedReports(team.teamId, 25, (i) => at(Math.floor(i / 3) * 1000));
  await seedReports(other.teamId, 7, (i) => at(1_000_000 + i), "Other");
  order = (await prisma.report.findMany({ where: { teamId: team.teamId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } })).map((r) => r.id);
}, 60_000);
afterAll(() => t.close());

interface Page {
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const ENGINES = [
  ["the one-statement path", ""],
  ["the resolvers", "@include(if: true)"],
] as const;

describe.each(ENGINES)("reportsConnection, read by %s", (_name, directive) => {
  const REPORTS = `query($first: Int, $after: String, $last: Int, $before: String, $status: ReportStatusFilter) {
    reportsConnection(first: $first, after: $after, last: $last, before: $before, status: $status) ${directive} {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } }
    }
  }`;
  async function page(variables: Record<string, unknown>, auth = team.auth): Promise<Page> {
    const res = await gql(auth, REPORTS, variables);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.reportsConnection;
  }
  const ids = (p: Page) => p.edges.map((e) => e.node.id);

  it("pages forward with first/after through every report once, newest first, with pageInfo at both ends", async () => {
    const first = await page({ first: 10 });
    expect(ids(first)).toEqual(order.slice(0, 10));
    expect(first.totalCount).toBe(25);
    expect(first.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: first.edges[0].cursor, endCursor: first.edges[9].cursor });
    const second = await page({ first: 10, after: first.pageInfo.endCursor });
    expect(ids(second)).toEqual(order.slice(10, 20));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const last = await page({ first: 10, after: second.pageInfo.endCursor });
    expect(ids(last)).toEqual(order.slice(20));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, endCursor: last.edges[4].cursor });
    // Past the end: an empty page, no cursors.
    const beyond = await page({ first: 10, after: last.pageInfo.endCursor });
    expect(beyond.edges).toEqual([]);
    expect(beyond.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null });
    // Without first or last: the first 50.
    expect(ids(await page({}))).toEqual(order);
  });

  it("pages backward with last/before, each page still newest first", async () => {
    const oldest = await page({ last: 10 });
    expect(ids(oldest)).toEqual(order.slice(15));
    expect(oldest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: oldest.edges[0].cursor, endCursor: oldest.edges[9].cursor });
    const middle = await page({ last: 10, before: oldest.pageInfo.startCursor });
    expect(ids(middle)).toEqual(order.slice(5, 15));
    expect(middle.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const newest = await page({ last: 10, before: middle.pageInfo.startCursor });
    expect(ids(newest)).toEqual(order.slice(0, 5));
    expect(newest.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // Both cursors: the rows between them.
    const between = await page({ first: 100, after: newest.edges[1].cursor, before: oldest.edges[2].cursor });
    expect(ids(between)).toEqual(order.slice(2, 17));
  });

  it("keeps the filters of the list field, and totalCount counts the filtered list", async () => {
    const published = await page({ first: 100, status: "published" });
    const expected = (await prisma.report.findMany({ where: { teamId: team.teamId, status: "published" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } })).map((r) => r.id);
    expect(ids(published)).toEqual(expected);
    expect(published.totalCount).toBe(expected.length);
  });

  it("shows another team none of these rows, and its own only", async () => {
    const theirs = await page({ first: 100 }, other.auth);
    expect(theirs.totalCount).toBe(7);
    for (const id of ids(theirs)) expect(order).not.toContain(id);
  });

  it("answers counts out of bounds, first with last, and foreign or malformed cursors as errors naming the argument", async () => {
    const [mine] = (await page({ first: 1 })).edges;
    const [theirs] = (await page({ first: 1 }, other.auth)).edges;
    const showings = await gql(team.auth, `{ showingsConnection(first: 1) { edges { cursor } } }`);
    const showingCursor = showings.body.data.showingsConnection.edges[0]?.cursor ?? Buffer.from("showings:x:0:y").toString("base64url");
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ first: 0 }, /first must be at least 1/],
      [{ first: 101 }, /first must be at most 100/],
      [{ last: 0 }, /last must be at least 1/],
      [{ last: 101 }, /last must be at most 100/],
      [{ first: 1, last: 1 }, /Give first or last, not both/],
      [{ after: theirs.cursor }, /^after is not a cursor of this connection/],
      [{ before: theirs.cursor }, /^before is not a cursor of this connection/],
      [{ after: showingCursor }, /^after is not a cursor of this connection/],
      [{ after: "not a cursor" }, /^after is not a cursor of this connection/],
      [{ after: `${mine.cursor}=` }, /^after is not a cursor of this connection/],
      [{ before: Buffer.from(Buffer.from(mine.cursor, "base64url").toString().replace(/:[^:]+$/, ":x")).toString("base64url") }, /^before is not a cursor/],
      [{ after: "x".repeat(10_000) }, /^after is not a cursor of this connection/],
      // This team's and list's prefix with a time no row can hold (before year 1, past 9999).
      ...["-8000000000000000", "253402300800000"].map((ms): [Record<string, unknown>, RegExp] => [
        { after: Buffer.from(Buffer.from(mine.cursor, "base64url").toString().replace(/:(-?\d+):([^:]+)$/, `:${ms}:$2`)).toString("base64url") },
        /^after is not a cursor of this connection/,
      ]),
    ];
    for (const [variables, message] of cases) {
      const res = await gql(team.auth, REPORTS, variables);
      expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code: "BAD_USER_INPUT", status: 400 } });
      expect(res.body.data?.reportsConnection ?? null).toBeNull();
    }
  });
});

describe("rows added between two page reads", () => {
  it.each(ENGINES)("neither repeat nor are skipped (%s)", async (_name, directive) => {
    const fresh = await createTeam();
    await seedReports(fresh.teamId, 30, (i) => at(i * 1000));
    const expected = (await prisma.report.findMany({ where: { teamId: fresh.teamId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } })).map((r) => r.id);
    const query = `query($after: String) { reportsConnection(first: 10, after: $after) ${directive} { pageInfo { endCursor hasNextPage } edges { node { id } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let round = 0; round < 10; round++) {
      const res = await gql(fresh.auth, query, { after });
      const connection = res.body.data.reportsConnection;
      seen.push(...connection.edges.map((e: { node: { id: string } }) => e.node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
      // New reports (newest, through the API as clients add them) and one older than every seeded one.
      for (let i = 0; i < 3; i++) {
        const created = await gql(fresh.auth, `mutation { createReport(input: { address: "${round}-${i} New Lane", listingAgent: "A" }) { id } }`);
        expect(created.body.errors).toBeUndefined();
      }
      await seedReports(fresh.teamId, 1, () => at(-1_000_000 - round), `Old${round}`);
    }
    // Every row that was there at the first read, once, in order; the old ones added later come at the end.
    expect(seen.slice(0, 30)).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe("showings, events and delivery attempts", () => {
  let reportId: string;
  let endpointId: string;
  const eventIds: string[] = [];
  /** Event ids are the test's own: unique per run (a PostgreSQL database outlives a run). */
  const run = randomUUID().replaceAll("-", "").slice(0, 12);

  beforeAll(async () => {
    reportId = order[0];
    const otherReport = order[1];
    await prisma.showing.createMany({
      data: Array.from({ length: 12 }, (_, i) => ({ teamId: team.teamId, reportId: i % 3 ? reportId : otherReport, attendeeName: `S${i}`, createdAt: at(Math.floor(i / 2)) })),
    });
    const endpoint = await prisma.webhookEndpoint.create({ data: { teamId: team.teamId, url: "https://example.com/hook", events: ["*"], secret: "whsec_x", enabled: false } });
    endpointId = endpoint.id;
    for (let i = 0; i < 9; i++) {
      const event = await prisma.webhookEvent.create({
        data: { id: `evt_conn${run}${String(i).padStart(4, "0")}`, teamId: team.teamId, type: i % 2 ? "report.created" : "showing.created", data: { id: i }, createdAt: at(Math.floor(i / 2)) },
      });
      eventIds.push(event.id);
      await prisma.webhookDelivery.create({
        data: { teamId: team.teamId, eventId: event.id, endpointId, status: i % 3 ? "succeeded" : "failed", attempt: 1, createdAt: at(Math.floor(i / 2)) },
      });
    }
    // Another team's event with the same timestamps: never in this team's list.
    await prisma.webhookEvent.create({ data: { id: `evt_connother${run}`, teamId: other.teamId, type: "report.created", data: {}, createdAt: at(100) } });
  });

  /** Pages through a connection `size` at a time, forward then backward, and returns both walks' ids. */
  async function walk(field: string, args: string, size: number) {
    const q = (dir: string) =>
      `query($cursor: String) { ${field}(${args}${args ? ", " : ""}${dir}: ${size}, ${dir === "first" ? "after" : "before"}: $cursor) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`;
    const forward: string[] = [];
    const backward: string[] = [];
    let totalCount = 0;
    for (const [dir, into] of [
      ["first", forward],
      ["last", backward],
    ] as const) {
      let cursor: string | null = null;
      for (let i = 0; i < 20; i++) {
        const res = await gql(team.auth, q(dir), { cursor });
        expect(res.body.errors).toBeUndefined();
        const c = res.body.data[field];
        totalCount = c.totalCount;
        const ids = c.edges.map((e: { node: { id: string } }) => e.node.id);
        if (dir === "first") into.push(...ids);
        else into.unshift(...ids);
        const more = dir === "first" ? c.pageInfo.hasNextPage : c.pageInfo.hasPreviousPage;
        if (!more) break;
        cursor = dir === "first" ? c.pageInfo.endCursor : c.pageInfo.startCursor;
      }
    }
    return { forward, backward, totalCount };
  }

  it("showingsConnection pages a report's showings and the team's, newest first", async () => {
    const all = (await prisma.showing.findMany({ where: { teamId: team.teamId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true, reportId: true } })).map((s) => s);
    const team_ = await walk("showingsConnection", "", 5);
    expect(team_.forward).toEqual(all.map((s) => s.id));
    expect(team_.backward).toEqual(team_.forward);
    expect(team_.totalCount).toBe(12);
    const ofReport = await walk("showingsConnection", `reportId: "${reportId}"`, 3);
    expect(ofReport.forward).toEqual(all.filter((s) => s.reportId === reportId).map((s) => s.id));
    expect(ofReport.backward).toEqual(ofReport.forward);
  });

  it("eventsConnection pages the team's events (text ids), filtered by type", async () => {
    const all = (await prisma.webhookEvent.findMany({ where: { teamId: team.teamId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true, type: true } }));
    const events = await walk("eventsConnection", "", 2);
    expect(events.forward).toEqual(all.map((e) => e.id));
    expect(events.backward).toEqual(events.forward);
    expect(events.forward).not.toContain(`evt_connother${run}`);
    const created = await walk("eventsConnection", `type: "report.created"`, 2);
    expect(created.forward).toEqual(all.filter((e) => e.type === "report.created").map((e) => e.id));
    expect(created.totalCount).toBe(created.forward.length);
  });

  it("webhookDeliveriesConnection pages an endpoint's attempts, filtered by status and event type", async () => {
    const all = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true, status: true, event: { select: { type: true } } } });
    const deliveries = await walk("webhookDeliveriesConnection", `endpointId: "${endpointId}"`, 4);
    expect(deliveries.forward).toEqual(all.map((d) => d.id));
    expect(deliveries.backward).toEqual(deliveries.forward);
    expect(deliveries.totalCount).toBe(9);
    const failed = await walk("webhookDeliveriesConnection", `endpointId: "${endpointId}", status: "failed", eventType: "showing.created"`, 1);
    expect(failed.forward).toEqual(all.filter((d) => d.status === "failed" && d.event.type === "showing.created").map((d) => d.id));
    // Another team's key: the endpoint is not found.
    const res = await gql(other.auth, `{ webhookDeliveriesConnection(endpointId: "${endpointId}") { totalCount } }`);
    expect(res.body.errors[0].extensions.code).toBe("NOT_FOUND");
  });

  it("reads each node with what its selection asks for: relations and fields read through them", async () => {
    const res = await gql(
      team.auth,
      `{ showingsConnection(reportId: "${reportId}", first: 2) { edges { node { id attendeeName report { id address } } } }
         webhookDeliveriesConnection(endpointId: "${endpointId}", first: 3) { edges { node { id eventId eventType status } } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    const report = await prisma.report.findUniqueOrThrow({ where: { id: reportId }, select: { id: true, address: true } });
    for (const edge of res.body.data.showingsConnection.edges) expect(edge.node.report).toEqual(report);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { endpointId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: 3, select: { id: true, eventId: true, status: true, event: { select: { type: true } } } });
    expect(res.body.data.webhookDeliveriesConnection.edges.map((e: { node: unknown }) => e.node)).toEqual(
      deliveries.map((d) => ({ id: d.id, eventId: d.eventId, eventType: d.event.type, status: d.status })),
    );
  });

  it("refuses a cursor of another of these connections, or of another endpoint, by name", async () => {
    const events = await gql(team.auth, `{ eventsConnection(first: 1) { edges { cursor } } }`);
    const eventCursor = events.body.data.eventsConnection.edges[0].cursor;
    const deliveries = await gql(team.auth, `{ webhookDeliveriesConnection(endpointId: "${endpointId}", first: 1) { edges { cursor } } }`);
    const deliveryCursor = deliveries.body.data.webhookDeliveriesConnection.edges[0].cursor;
    const second = await prisma.webhookEndpoint.create({ data: { teamId: team.teamId, url: "https://example.com/two", events: ["*"], secret: "whsec_y", enabled: false } });
    for (const [query, arg] of [
      [`{ showingsConnection(after: "${eventCursor}") { totalCount } }`, "after"],
      [`{ eventsConnection(before: "${deliveryCursor}") { totalCount } }`, "before"],
      [`{ reportsConnection(after: "${eventCursor}") { totalCount } }`, "after"],
      [`{ webhookDeliveriesConnection(endpointId: "${second.id}", after: "${deliveryCursor}") { totalCount } }`, "after"],
    ]) {
      const res = await gql(team.auth, query);
      expect(res.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(new RegExp(`^${arg} is not a cursor of this connection`)), extensions: { code: "BAD_USER_INPUT" } });
    }
  });

  it("needs the permissions of the list fields", async () => {
    const reportsOnly = await addKey(team.teamId, "reports:read");
    for (const [query, permission] of [
      [`{ showingsConnection { totalCount } }`, "showings:read"],
      [`{ eventsConnection { totalCount } }`, "webhooks:read"],
      [`{ webhookDeliveriesConnection(endpointId: "${endpointId}") { totalCount } }`, "webhooks:read"],
    ]) {
      const res = await gql(reportsOnly, query);
      expect(res.body.errors?.[0]).toMatchObject({ message: `Permission denied: ${permission}`, extensions: { code: "FORBIDDEN" } });
    }
    const showingsOnly = await addKey(team.teamId, "showings:read");
    const res = await gql(showingsOnly, `{ reportsConnection { totalCount } }`);
    expect(res.body.errors?.[0]).toMatchObject({ message: "Permission denied: reports:read" });
  });
});

describe("reportsConnection with nested collections", () => {
  it("is answered by one SQL statement, nodes with their showings, as the resolvers answer it", async () => {
    const query = `{ reportsConnection(first: 3) { edges { cursor node { id address showings(limit: 5) { id attendeeName } } } pageInfo { endCursor } } }`;
    const contextValue: Context = { viewer: { keyId: "k", keyPrefix: "prs_sk_live_conn", teamId: team.teamId, permissions: TEAM_FULL_ACCESS, tier: "standard" }, rateLimit: null };
    const { result: fast, statements } = await countStatements(async () => execute({ schema, document: parse(query), contextValue }));
    expect(fast.data).toBeInstanceOf(RawData);
    expect(statements.filter((sql) => !isHousekeeping(sql))).toHaveLength(1);
    const slow = await execute({ schema, document: parse(query.replace("(first: 3)", "(first: 3) @include(if: true)")), contextValue });
    expect(slow.data).not.toBeInstanceOf(RawData);
    expect((fast.data as unknown as RawData).toJSON()).toEqual(JSON.parse(JSON.stringify(slow.data)));
    expect((slow.data as any).reportsConnection.edges[0].node.showings.length).toBeGreaterThan(0);
  });
});
