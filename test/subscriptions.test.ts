// Live updates (docs/api.md "Live updates"): GraphQL subscriptions over server-sent events at
// /graphql, on a real HTTP listener. reportEvents and teamEvents send each committed change with its object as its
// query answers it; the key's permissions are checked when subscribing and for every event; Last-Event-ID resumes
// without gaps or duplicates; a key holds at most 20 streams; a revoked key's streams end. PGlite, or PostgreSQL with
// Redis (the streams are fed through Redis pub/sub then).
import { createHash } from "node:crypto";
import request from "supertest";
import { createClient } from "graphql-sse";
import { prisma } from "../src/db";
import { liveStreams, MAX_STREAMS_PER_KEY } from "../src/live/streams";
import { addKey, countStatements, createTeam, listeningTeamApp, type ListeningTeamApp, type TestApp, type TestTeam } from "./support/app";
import { openLiveStream, type LiveStream } from "./support/sse";

let t: TestApp;
let base: string;
let team: TestTeam;
let gql: ListeningTeamApp["gql"];
let close: () => Promise<void>;
const open: LiveStream[] = [];

beforeAll(async () => {
  ({ t, base, team, gql, close } = await listeningTeamApp("reports:*,showings:*,comparables:*,ai_insights:*,social_media:*,api_keys:*,webhooks:read"));
});
afterEach(() => open.splice(0).forEach((stream) => stream.close()));
afterAll(() => close());

const newReport = async (auth = team.auth, address = "1 Live Street") =>
  (await gql(auth, `mutation($a: String!) { createReport(input: { address: $a, listingAgent: "Ann" }) { id } }`, { a: address })).createReport.id as string;

const EVENT = `id type timestamp report { id address executiveSummary } showing { id reportId attendeeName } comparable { id address adjustedPrice } insight { id body } socialPost { id }`;
const REPORT_EVENTS = `subscription($id: ID!) { reportEvents(reportId: $id) { ${EVENT} } }`;
const TEAM_EVENTS = `subscription($types: [String!]) { teamEvents(types: $types) { ${EVENT} } }`;

async function subscribe(query: string, variables: Record<string, unknown>, headers: Record<string, string> = team.auth, get = false): Promise<LiveStream> {
  const stream = await openLiveStream(base, { query, variables, headers, get });
  open.push(stream);
  return stream;
}

describe("reportEvents", () => {
  it("sends each change of the report with its object as its query answers it, and ends after report.deleted", async () => {
    const reportId = await newReport();
    const other = await newReport(team.auth, "2 Other Street");
    const stream = await subscribe(REPORT_EVENTS, { id: reportId });
    expect([stream.status, stream.body]).toEqual([200, undefined]);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");

    const showing = (await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Bo" }) { id } }`, { r: reportId })).createShowing.id;
    await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Not this report" }) { id } }`, { r: other });
    const event = (await stream.next()).data.reportEvents;
    expect(event).toMatchObject({ type: "showing.created", showing: { id: showing, reportId, attendeeName: "Bo" }, report: null, comparable: null, insight: null, socialPost: null });
    expect(event.id).toMatch(/^evt_/);
    expect(new Date(event.timestamp).getTime()).not.toBeNaN();
    expect(stream.events.at(-1)!.id).toBe(event.id); // the SSE id a client resumes after

    await gql(team.auth, `mutation($s: String!) { updateShowing(id: $s, input: { attendeeName: "Bea" }) { id } }`, { s: showing });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "showing.updated", showing: { attendeeName: "Bea" } });
    await gql(team.auth, `mutation($s: String!) { deleteShowing(id: $s) }`, { s: showing });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "showing.deleted", showing: null });

    const comparable = (await gql(team.auth, `mutation($r: ID!) { createComparable(reportId: $r, input: { address: "3 Comp Road", price: 200000, adjustments: { deck: 5000 } }) { id } }`, { r: reportId })).createComparable.id;
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "comparable.created", comparable: { id: comparable, address: "3 Comp Road", adjustedPrice: 205000 } });

    const insight = (await gql(team.auth, `mutation($r: ID!) { createAgentInsight(reportId: $r, input: { body: "Quiet street" }) { id } }`, { r: reportId })).createAgentInsight.id;
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "insight.created", insight: { id: insight, body: "Quiet street" } });

    await gql(team.auth, `mutation($r: ID!, $p: [JSON!]!) { importSocialMediaPosts(reportId: $r, posts: $p) { created } }`, { r: reportId, p: [{ platform: "youtube", external_id: "yt-1", views: 10 }] });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "social_posts.imported", report: { id: reportId }, socialPost: null });

    await gql(team.auth, `mutation($r: ID!) { generateSummary(reportId: $r) { saved } }`, { r: reportId });
    const summary = (await stream.next()).data.reportEvents;
    expect(summary).toMatchObject({ type: "summary.generated", report: { id: reportId } });
    expect(summary.report.executiveSummary).toEqual(expect.any(String));
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { id: reportId } });

    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { address: "1 Live Street, Unit 2" }) { id } }`, { r: reportId });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { address: "1 Live Street, Unit 2" } });
    await gql(team.auth, `mutation($r: ID!) { deleteReport(id: $r) }`, { r: reportId });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "report.deleted", report: null });
    await stream.ended;
    expect(stream.events.at(-1)!.event).toBe("complete");
  });

  it("answers over GET too (as EventSource asks)", async () => {
    const reportId = await newReport();
    const stream = await subscribe(REPORT_EVENTS, { id: reportId }, team.auth, true);
    expect(stream.status).toBe(200);
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "Cy" }) { id } }`, { r: reportId });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { id: reportId } });
  });

  it("refuses, as JSON with its status, a report of another team (not found), a bad id, a key without reports:read, and a plain POST", async () => {
    const stranger = await createTeam();
    const theirs = await newReport(stranger.auth);
    for (const [variables, headers, status, message] of [
      [{ id: theirs }, team.auth, 404, "Report not found"],
      [{ id: "not-a-uuid" }, team.auth, 404, "Report not found"],
      [{ id: theirs }, await addKey(team.teamId, "showings:read"), 403, "Permission denied: reports:read"],
      [{ id: theirs }, { Authorization: "Bearer prs_sk_live_nope" }, 401, "Invalid API key"],
    ] as const) {
      const stream = await subscribe(REPORT_EVENTS, variables, headers);
      expect({ status: stream.status, message: stream.body.errors?.[0]?.message ?? stream.body.error?.message }).toEqual({ status, message });
    }
    const missing = await subscribe(REPORT_EVENTS, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ message: "id is required", extensions: { code: "BAD_USER_INPUT" } });

    const plain = await request(t.app).post("/graphql").set(team.auth).set("Accept", "application/json").send({ query: REPORT_EVENTS, variables: { id: await newReport() } });
    expect(plain.status).toBe(406);
    expect(plain.body.errors[0].message).toBe("Subscriptions are answered as server-sent events: send the request with Accept: text/event-stream");
  });
});

it("works with graphql-sse's client (distinct connections mode)", async () => {
  const reportId = await newReport();
  const client = createClient({ url: `${base}/graphql`, headers: () => team.auth, retryAttempts: 0 });
  const before = liveStreams().size;
  const events = client.iterate<{ reportEvents: { type: string; showing: { attendeeName: string } | null } }>({ query: REPORT_EVENTS, variables: { id: reportId } });
  const first = events.next();
  while (liveStreams().size === before) await new Promise((resolve) => setTimeout(resolve, 20)); // the stream is open
  await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Via graphql-sse" }) { id } }`, { r: reportId });
  expect((await first).value.data.reportEvents).toMatchObject({ type: "showing.created", showing: { attendeeName: "Via graphql-sse" } });
  await events.return?.();
  client.dispose();
});

describe("teamEvents", () => {
  it("sends the team's events of the asked types only, never another team's", async () => {
    const stranger = await createTeam();
    const stream = await subscribe(TEAM_EVENTS, { types: ["report.created", "comparable.created"] });
    await newReport(stranger.auth, "9 Elsewhere");
    const reportId = await newReport(team.auth, "4 Team Street");
    await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r }) { id } }`, { r: reportId });
    await gql(team.auth, `mutation($r: ID!) { createComparable(reportId: $r, input: { address: "5 Comp Road", price: 100000 }) { id } }`, { r: reportId });
    expect((await stream.next()).data.teamEvents).toMatchObject({ type: "report.created", report: { id: reportId, address: "4 Team Street" } });
    expect((await stream.next()).data.teamEvents).toMatchObject({ type: "comparable.created", comparable: { address: "5 Comp Road" } });
  });

  it("leaves out events the key may not read, and refuses types it may not read or that do not exist", async () => {
    const reader = await addKey(team.teamId, "reports:read");
    const stream = await subscribe(TEAM_EVENTS, {}, reader);
    const reportId = await newReport();
    await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r }) { id } }`, { r: reportId });
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "Di" }) { id } }`, { r: reportId });
    expect((await stream.next()).data.teamEvents.type).toBe("report.created");
    expect((await stream.next()).data.teamEvents.type).toBe("report.updated"); // showing.created was not sent
    for (const [types, status, message] of [
      [["showing.created"], 403, "Permission denied: showings:read"],
      [["report.nope"], 400, "types[0] must be an event type a stream sends"],
      [[], 400, "types must name at least one event type (leave it out for all)"],
      [["webhook.test"], 400, "types[0] must be an event type a stream sends"],
    ] as const) {
      const refused = await subscribe(TEAM_EVENTS, { types }, reader);
      expect(refused.status).toBe(status);
      expect(refused.body.errors[0].message).toContain(message);
    }
  });
});

describe("Last-Event-ID", () => {
  it("resumes after the event it names, without a gap or a duplicate", async () => {
    const reportId = await newReport();
    const first = await subscribe(REPORT_EVENTS, { id: reportId });
    const agents = ["A1", "A2", "A3", "A4", "A5"];
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "A0" }) { id } }`, { r: reportId });
    const seen = (await first.next()).data.reportEvents.id as string;
    first.close();
    for (const agent of agents) await gql(team.auth, `mutation($r: ID!, $a: String!) { updateReport(id: $r, input: { listingAgent: $a }) { id } }`, { r: reportId, a: agent });
    const resumed = await subscribe(REPORT_EVENTS, { id: reportId }, { ...team.auth, "Last-Event-ID": seen });
    const ids: string[] = [];
    for (let i = 0; i < agents.length; i++) ids.push((await resumed.next()).data.reportEvents.id);
    // One more live change: it follows the missed ones, once.
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "A6" }) { id } }`, { r: reportId });
    ids.push((await resumed.next()).data.reportEvents.id);
    const events = (await request(t.app).get("/v1/events").query({ limit: 100 }).set(team.auth)).body.data as Array<{ id: string; type: string; data: { id: string } }>;
    const expected = events.filter((e) => e.type === "report.updated" && e.data.id === reportId).map((e) => e.id).reverse();
    expect(ids).toEqual(expected.slice(expected.indexOf(seen) + 1));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("resumes in number order where the event numbers gain a digit (…98, …99, 100…)", async () => {
    // The events after the one named are read a page at a time in their numbers' order: numbers, not their text
    // ("100" sorts before "99" as text, and the stream would drop 99 as already sent).
    const [{ last }] = await prisma.$queryRawUnsafe<Array<{ last: string }>>("SELECT last_value::text AS last FROM webhook_events_seq");
    let power = 10n;
    while (power - 5n <= BigInt(last)) power *= 10n;
    await prisma.$queryRawUnsafe(`SELECT setval('webhook_events_seq', ${power - 5n})`);
    const reportId = await newReport();
    const first = await subscribe(REPORT_EVENTS, { id: reportId });
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "B0" }) { id } }`, { r: reportId });
    const seen = (await first.next()).data.reportEvents.id as string;
    first.close();
    const agents = ["B1", "B2", "B3", "B4", "B5"];
    for (const agent of agents) await gql(team.auth, `mutation($r: ID!, $a: String!) { updateReport(id: $r, input: { listingAgent: $a }) { id } }`, { r: reportId, a: agent });
    const resumed = await subscribe(REPORT_EVENTS, { id: reportId }, { ...team.auth, "Last-Event-ID": seen });
    const got: string[] = [];
    for (let i = 0; i < agents.length; i++) got.push(await resumed.next(10_000).then((e) => e.data.reportEvents.id as string, (e: Error) => `(${e.message})`));
    const events = (await request(t.app).get("/v1/events").query({ limit: 100 }).set(team.auth)).body.data as Array<{ id: string; type: string; data: { id: string } }>;
    const expected = events.filter((e) => e.type === "report.updated" && e.data.id === reportId).map((e) => e.id).reverse();
    expect(got).toEqual(expected.slice(expected.indexOf(seen) + 1));
  });

  it("refuses an id that is not an event of the team", async () => {
    const reportId = await newReport();
    for (const id of ["evt_unknownunknownunknown", "not an id"]) {
      const stream = await subscribe(REPORT_EVENTS, { id: reportId }, { ...team.auth, "Last-Event-ID": id });
      expect(stream.status).toBe(400);
      expect(stream.body.errors[0].message).toMatch(/^Last-Event-ID /);
    }
  });
});

describe("the key's streams", () => {
  it(`holds at most ${MAX_STREAMS_PER_KEY} open streams per key: the next is 429 until one closes`, async () => {
    const key = await addKey(team.teamId, "reports:read");
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) streams.push(await subscribe(TEAM_EVENTS, {}, key));
    expect(streams.every((s) => s.status === 200)).toBe(true);
    const refused = await subscribe(TEAM_EVENTS, {}, key);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0]).toMatchObject({ message: `Too many open streams: a key holds at most ${MAX_STREAMS_PER_KEY}; close one first`, extensions: { code: "RATE_LIMITED" } });
    // Another key of the team is not affected.
    expect((await subscribe(TEAM_EVENTS, {}, team.auth)).status).toBe(200);
    streams[0].close();
    await streams[0].ended;
    let again: LiveStream;
    // The server sees the close once the connection ends: until then the place may still be held.
    do again = await subscribe(TEAM_EVENTS, {}, key);
    while (again.status === 429 && (await new Promise((r) => setTimeout(r, 50)), true));
    expect(again.status).toBe(200);
  });

  it("ends the streams of a key when it is revoked, with an error event first", async () => {
    const admin = await addKey(team.teamId, "api_keys:*,reports:read");
    const created = await gql(admin, `mutation { createApiKey(input: { name: "streams", permissions: ["reports:read"] }) { key apiKey { id } } }`);
    const auth = { Authorization: `Bearer ${created.createApiKey.key}` };
    const streams = [await subscribe(TEAM_EVENTS, {}, auth), await subscribe(REPORT_EVENTS, { id: await newReport() }, auth)];
    await gql(admin, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: created.createApiKey.apiKey.id });
    for (const stream of streams) {
      await stream.ended;
      const [error, complete] = stream.events.slice(-2);
      expect(JSON.parse(error.data).errors[0]).toMatchObject({ message: "Invalid API key", extensions: { code: "UNAUTHENTICATED" } });
      expect(complete.event).toBe("complete");
    }
  });
});

it("ends the streams of a key rolled with no overlap (it stops at once), not those of its successor", async () => {
  const admin = await addKey(team.teamId, "api_keys:*,reports:read");
  const created = await gql(admin, `mutation { createApiKey(input: { name: "to roll", permissions: ["reports:read"] }) { key apiKey { id } } }`);
  const old = { Authorization: `Bearer ${created.createApiKey.key}` };
  const stream = await subscribe(TEAM_EVENTS, {}, old);
  expect(stream.status).toBe(200);
  const rolled = await gql(admin, `mutation($id: ID!) { rollApiKey(id: $id, overlap: NONE) { key } }`, { id: created.createApiKey.apiKey.id });
  await stream.ended;
  expect(JSON.parse(stream.events.at(-2)!.data).errors[0].message).toBe("Invalid API key");
  const successor = await subscribe(TEAM_EVENTS, {}, { Authorization: `Bearer ${rolled.rollApiKey.key}` });
  expect(successor.status).toBe(200);
});

describe("one answer per event for the streams that ask the same", () => {
  const SHARED = `subscription($id: ID!) { reportEvents(reportId: $id) { id type report { address showings { attendeeName } } } }`;

  /** Opens `n` streams of SHARED for `reportId`, updates the report once, and reads the event on each stream. */
  async function oneEvent(reportId: string, keys: Array<Record<string, string>>, address: string) {
    const streams = await Promise.all(keys.map((key) => subscribe(SHARED, { id: reportId }, key)));
    expect(streams.map((s) => s.status)).toEqual(keys.map(() => 200));
    const { statements } = await countStatements(async () => {
      await gql(team.auth, `mutation($r: ID!, $a: String!) { updateReport(id: $r, input: { address: $a }) { id } }`, { r: reportId, a: address });
      await Promise.all(streams.map((s) => s.next()));
    });
    streams.forEach((s) => s.close());
    const reads = statements.filter((sql) => /^\s*SELECT/i.test(sql) && /"showings"/.test(sql));
    return { reads: reads.length, data: streams.map((s) => s.events.at(-1)!.data) };
  }

  it("builds the event once for ten streams of one selection and permissions, and writes them the same bytes", async () => {
    const reportId = await newReport(team.auth, "11 Shared Street");
    await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Once" }) { id } }`, { r: reportId });
    const one = await oneEvent(reportId, [team.auth], "11 Shared Street, A");
    const ten = await oneEvent(reportId, Array.from({ length: 10 }, () => team.auth), "11 Shared Street, B");
    // The statements reading the event's report and its showings: as many for ten streams as for one.
    expect(one.reads).toBeGreaterThan(0);
    expect(ten.reads).toBe(one.reads);
    expect(new Set(ten.data).size).toBe(1);
    expect(JSON.parse(ten.data[0]).data.reportEvents.report).toEqual({ address: "11 Shared Street, B", showings: [{ attendeeName: "Once" }] });
  });

  it("answers keys with other permissions on their own: a key without showings:read never gets another key's showings", async () => {
    const reportId = await newReport(team.auth, "12 Apart Street");
    await gql(team.auth, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Hidden" }) { id } }`, { r: reportId });
    const reader = await addKey(team.teamId, "reports:read");
    const { data } = await oneEvent(reportId, [team.auth, reader, team.auth, reader], "12 Apart Street, A");
    const [full, limited] = [JSON.parse(data[0]), JSON.parse(data[1])];
    expect(full.data.reportEvents.report.showings).toEqual([{ attendeeName: "Hidden" }]);
    expect(limited.errors[0].message).toBe("Permission denied: showings:read");
    expect(JSON.stringify(limited)).not.toContain("Hidden");
    expect([data[2], data[3]]).toEqual([data[0], data[1]]);
  });
});

describe("beside the other rules of /graphql", () => {
  it("checks the GraphQL limits on a subscription before it opens", async () => {
    const deep = `subscription($id: ID!) { reportEvents(reportId: $id) { report { ${"showings { report { ".repeat(6)} id ${"} } ".repeat(6)} } } }`;
    const stream = await subscribe(deep, { id: await newReport() });
    expect(stream.status).toBe(400);
    expect(stream.body.errors[0]).toMatchObject({ extensions: { code: "QUERY_TOO_COMPLEX" } });
    expect(stream.body.errors[0].message).toMatch(/depth/);
  });

  it("runs a registered document by documentId for a key limited to registered documents", async () => {
    const text = `subscription Live($id: ID!) { reportEvents(reportId: $id) { id type showing { id } } }`;
    const hash = createHash("sha256").update(text).digest("hex");
    await gql(team.auth, `mutation($m: JSON!) { registerGraphQLDocuments(manifest: $m) { registered } }`, { m: { [hash]: text } });
    const created = await gql(team.auth, `mutation { createApiKey(input: { name: "browser", permissions: ["reports:read", "showings:read"], trustedDocumentsOnly: true }) { key } }`);
    const browser = { Authorization: `Bearer ${created.createApiKey.key}` };
    const reportId = await newReport();
    const res = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { ...browser, Accept: "text/event-stream", "Content-Type": "application/json" },
      body: JSON.stringify({ documentId: `sha256:${hash}`, variables: { id: reportId } }),
    });
    expect(res.status).toBe(200);
    res.body?.cancel();
    const text2 = await subscribe(REPORT_EVENTS, { id: reportId }, browser);
    expect(text2.status).toBe(403);
    expect(text2.body.errors[0].message).toBe("Permission denied: this key runs registered documents only");
  });

  it("is never labelled for HTTP caching (no ETag over GET)", async () => {
    const stream = await subscribe(REPORT_EVENTS, { id: await newReport() }, team.auth, true);
    expect(stream.status).toBe(200);
    expect(stream.headers.get("etag")).toBeNull();
    expect(stream.headers.get("cache-control")).toBe("no-cache");
  });
});
