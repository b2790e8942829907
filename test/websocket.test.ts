// GraphQL over WebSocket (docs/api.md "WebSocket transport"): the graphql-ws client against the real app on a
// loopback port. The key in connection_init's payload (4401 without, 4403 revoked), queries and mutations counted like
// HTTP requests, the same limits and permissions, live events as over SSE, the stream caps shared with SSE, a revoked
// key's streams ending with the socket, persisted queries, the Origin check and the message bound. PGlite, or
// PostgreSQL with Redis.
import { createClient, type Client, type ExecutionResult } from "graphql-ws";
import WebSocket from "ws";
import request from "supertest";
import { sha256Hex } from "../src/graphql-documents/documents";
import { MAX_STREAMS_PER_KEY } from "../src/live/streams";
import { MAX_MESSAGE_BYTES, originAllowed } from "../src/yoga/websocket";
import { createTeam, listeningTeamApp, type ListeningTeamApp, type TestApp, type TestTeam } from "./support/app";
import { openLiveStream, type LiveStream } from "./support/sse";

let t: TestApp;
let base: string;
let url: string;
let team: TestTeam;
let gql: ListeningTeamApp["gql"];
let close: () => Promise<void>;
const clients: Client[] = [];

beforeAll(async () => {
  ({ t, base, team, gql, close } = await listeningTeamApp("reports:*,showings:*,api_keys:*"));
  url = `${base.replace("http", "ws")}/graphql`;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => close());

/** A graphql-ws client of `key` that does not retry: a closed socket is an answer here. */
function client(key: string | null, options: { onClosed?: (code: number, reason: string) => void } = {}): Client {
  const c = createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: true,
    connectionParams: key === null ? undefined : { authorization: `Bearer ${key}` },
    on: { closed: (event) => options.onClosed?.((event as { code: number }).code, String((event as { reason: string }).reason)) },
  });
  clients.push(c);
  return c;
}

/** One query or mutation's answer; or the close event / error array that ended it. */
function run(c: Client, query: string, variables: Record<string, unknown> = {}, extensions?: Record<string, unknown>): Promise<ExecutionResult | { errors: unknown }> {
  return new Promise((resolve) => {
    let result: ExecutionResult | undefined;
    c.subscribe(
      { query, variables, extensions },
      { next: (value) => (result = value as ExecutionResult), error: (err) => resolve({ errors: err }), complete: () => resolve(result!) },
    );
  });
}

/** A subscription's events as they come, and how it ended. */
function listen(c: Client, query: string, variables: Record<string, unknown> = {}, extensions?: Record<string, unknown>) {
  const events: ExecutionResult[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  const changed = () => new Promise<void>((resolve) => waiters.push(resolve));
  let ended: { error?: unknown } | null = null;
  const stop = c.subscribe(
    { query, variables, extensions },
    {
      next: (value) => (events.push(value as ExecutionResult), wake()),
      error: (error) => ((ended = { error }), wake()),
      complete: () => ((ended = {}), wake()),
    },
  );
  return {
    events,
    stop,
    get ended() {
      return ended;
    },
    async next(): Promise<ExecutionResult> {
      while (!events.length && !ended) await changed();
      const event = events.shift();
      if (!event) throw new Error(`subscription ended: ${JSON.stringify(ended)}`);
      return event;
    },
    /** Whether an event is waiting, or comes within `ms` (none is taken). */
    async arrives(ms: number): Promise<boolean> {
      if (!events.length) await Promise.race([changed(), new Promise((resolve) => setTimeout(resolve, ms))]);
      return events.length > 0;
    },
    async end(): Promise<{ error?: unknown }> {
      while (!ended) await changed();
      return ended;
    },
  };
}

/**
 * The subscription's first event once its stream is open on the server. graphql-ws says nothing when a subscription's
 * stream opened (a change committed before it is not sent), so the report is changed until one of its changes comes.
 */
async function opened(c: Client, sub: ReturnType<typeof listen>, reportId: string): Promise<ExecutionResult> {
  for (let attempt = 1; ; attempt++) {
    await run(c, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "Opened" }) { id } }`, { r: reportId });
    if (await sub.arrives(1000 * attempt)) return sub.next();
  }
}

const closeOf = (key: string | null, payload?: unknown) =>
  new Promise<{ code: number; reason: string }>((resolve) => {
    const ws = new WebSocket(url, "graphql-transport-ws");
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", ...(payload !== undefined ? { payload } : key === null ? {} : { payload: { authorization: `Bearer ${key}` } }) })));
    ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }));
  });

const REPORT_EVENTS = `subscription($id: ID!) { reportEvents(reportId: $id) { id type report { id listingAgent } } }`;
const newReport = async (auth = team.auth) => (await gql(auth, `mutation { createReport(input: { address: "1 Socket Street", listingAgent: "Ann" }) { id } }`)).createReport.id as string;

describe("connection_init", () => {
  it("closes 4401 without a key, with a malformed or unknown one, and 4403 for a revoked one; never reads the URL", async () => {
    expect((await closeOf(null)).code).toBe(4401);
    expect((await closeOf(null, { authorization: "Bearer nope" })).code).toBe(4401);
    expect((await closeOf(`prs_sk_live_${"x".repeat(40)}`)).code).toBe(4401);
    const created = await gql(team.auth, `mutation { createApiKey(input: { name: "ws revoked", permissions: ["reports:read"] }) { key apiKey { id } } }`);
    await gql(team.auth, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: created.createApiKey.apiKey.id });
    const closed = await closeOf(created.createApiKey.key);
    expect(closed.code).toBe(4403);
    expect(closed.reason).toMatch(/revoked/);
    // A key in the URL is not read: the socket still needs connection_init's.
    const inUrl = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${url}?authorization=${encodeURIComponent(`Bearer ${team.key}`)}`, "graphql-transport-ws");
      ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init" })));
      ws.on("close", (code) => resolve(code));
    });
    expect(inUrl).toBe(4401);
  });

  it("refuses an Origin that is neither the service's own nor a configured one, and other paths, as JSON before the upgrade", async () => {
    const answer = (path: string, origin?: string) =>
      new Promise<{ status: number; body: string }>((resolve) => {
        const ws = new WebSocket(`${base.replace("http", "ws")}${path}`, "graphql-transport-ws", origin ? { origin } : {});
        ws.on("unexpected-response", (_req, res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.on("open", () => (ws.close(), resolve({ status: 101, body: "" })));
        ws.on("error", () => undefined);
      });
    // CORS_ORIGINS is "*" in the tests: any origin may connect; the rule itself is checked below for a list.
    expect((await answer("/graphql", "https://anywhere.example")).status).toBe(101);
    const elsewhere = await answer("/elsewhere");
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(elsewhere.body).error.message).toMatch(/accepted at \/graphql only/);
    expect(originAllowed(undefined, "api.example.com", ["https://app.example.com"])).toBe(true);
    expect(originAllowed("https://api.example.com", "api.example.com", ["https://app.example.com"])).toBe(true);
    expect(originAllowed("https://app.example.com", "api.example.com", ["https://app.example.com"])).toBe(true);
    expect(originAllowed("https://evil.example", "api.example.com", ["https://app.example.com"])).toBe(false);
    expect(originAllowed("null", "api.example.com", ["https://app.example.com"])).toBe(false);
  });
});

describe("queries and mutations", () => {
  it("answer as over HTTP and each counts one request of the key's hourly budget", async () => {
    const c = client(team.key);
    const before = (await request(t.app).get("/graphql").query({ query: "{ __typename }" }).set(team.auth)).headers["x-ratelimit-remaining"];
    const created = (await run(c, `mutation { createReport(input: { address: "2 Socket Street", listingAgent: "Bo" }) { id address } }`)) as ExecutionResult<{ createReport: { id: string; address: string } }>;
    expect(created.errors).toBeUndefined();
    expect(created.data!.createReport.address).toBe("2 Socket Street");
    const read = (await run(c, `query($id: ID!) { report(id: $id) { address listingAgent } }`, { id: created.data!.createReport.id })) as ExecutionResult;
    expect(read).toMatchObject({ data: { report: { address: "2 Socket Street", listingAgent: "Bo" } } });
    const after = (await request(t.app).get("/graphql").query({ query: "{ __typename }" }).set(team.auth)).headers["x-ratelimit-remaining"];
    expect(Number(before) - Number(after)).toBe(3); // two over the socket, one over HTTP
  });

  it("keeps the key's permissions and the query limits", async () => {
    const reader = await createTeam({ permissions: "reports:read" });
    const c = client(reader.key);
    const denied = (await run(c, `mutation { createReport(input: { address: "3 Socket Street", listingAgent: "Cy" }) { id } }`)) as ExecutionResult;
    expect(denied.errors?.[0]).toMatchObject({ message: expect.stringContaining("reports:create"), extensions: { code: "FORBIDDEN" } });
    expect(JSON.stringify(denied.errors)).not.toContain('"http"');
    const deep = `{ reports { items { showings { report { showings { report { showings { report { showings { id } } } } } } } } } }`;
    const tooDeep = (await run(c, deep)) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(tooDeep.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
    const nested = `{ ${"a { ".repeat(70)}${"} ".repeat(70)}}`;
    expect(((await run(c, nested)) as { errors: Array<{ message: string }> }).errors[0].message).toMatch(/nested more than 64/);
    const invalid = (await run(c, `{ nope }`)) as { errors: Array<{ message: string }> };
    expect(invalid.errors[0].message).toMatch(/Cannot query field "nope"/);
  });

  it("runs a persisted query: a miss says PersistedQueryNotFound, the query with its hash registers it for the team", async () => {
    const c = client(team.key);
    const query = `query SocketApq { reports(limit: 1) { total } }`;
    const persistedQuery = { version: 1, sha256Hash: sha256Hex(query) };
    const miss = (await run(c, "", {}, { persistedQuery })) as { errors: Array<{ message: string }> };
    expect(miss.errors[0].message).toBe("PersistedQueryNotFound");
    const registered = (await run(c, query, {}, { persistedQuery })) as ExecutionResult;
    expect(registered.errors).toBeUndefined();
    expect((await run(c, "", {}, { persistedQuery })) as ExecutionResult).toMatchObject({ data: registered.data });
    const other = await createTeam({ permissions: "reports:read" });
    expect(((await run(client(other.key), "", {}, { persistedQuery })) as { errors: Array<{ message: string }> }).errors[0].message).toBe("PersistedQueryNotFound");
  });

  it("refuses a message larger than the bound by closing the socket 1009", async () => {
    const code = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, "graphql-transport-ws");
      ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${team.key}`, pad: "x".repeat(MAX_MESSAGE_BYTES) } })));
      ws.on("close", (c) => resolve(c));
      ws.on("error", () => undefined);
    });
    expect(code).toBe(1009);
  });
});

describe("subscriptions", () => {
  it("send each committed change as the SSE stream of the same subscription does", async () => {
    const reportId = await newReport();
    const c = client(team.key);
    const sub = listen(c, REPORT_EVENTS, { id: reportId });
    const sse: LiveStream = await openLiveStream(base, { query: REPORT_EVENTS, variables: { id: reportId }, headers: team.auth });
    try {
      const first = await opened(c, sub, reportId);
      const overSse = await sse.next();
      expect(first).toEqual(overSse);
      expect(first.data).toMatchObject({ reportEvents: { type: "report.updated", report: { id: reportId, listingAgent: "Opened" } } });
      await gql(team.auth, `mutation($r: ID!) { deleteReport(id: $r) }`, { r: reportId });
      // `opened` updates the report again when the first event is slow to come: that update's event may come first.
      let next = await sub.next();
      while ((next.data as { reportEvents: { type: string } }).reportEvents.type === "report.updated") next = await sub.next();
      expect(next.data).toMatchObject({ reportEvents: { type: "report.deleted", report: null } });
      expect(await sub.end()).toEqual({}); // completes after report.deleted
    } finally {
      sse.close();
    }
  });

  it("count in the key's streams with SSE's: past the cap, the next one is refused naming it", async () => {
    const key = await createTeam({ permissions: "reports:read" });
    const c = client(key.key);
    const streams = Array.from({ length: MAX_STREAMS_PER_KEY - 1 }, () => listen(c, `subscription { teamEvents { id } }`));
    const sse = await openLiveStream(base, { query: `subscription { teamEvents { id } }`, variables: {}, headers: key.auth });
    streams.push(listen(c, `subscription { teamEvents { id } }`));
    try {
      expect(sse.status).toBe(200);
      // Eleven streams for a cap of ten: one of the WebSocket ones is refused. Which one is the server's order of
      // arrival (a socket's subscribe is not acknowledged, so an earlier one may still be on its way under load).
      const refused = await Promise.race(streams.map((s) => s.next()));
      expect(refused.errors?.[0]).toMatchObject({ extensions: { code: "RATE_LIMITED", cap: "key" } });
    } finally {
      sse.close();
      streams.forEach((s) => s.stop());
    }
  });

  it("end with the socket, closed 4403, when the key is revoked", async () => {
    const created = await gql(team.auth, `mutation { createApiKey(input: { name: "ws live", permissions: ["reports:read"] }) { key apiKey { id } } }`);
    const reportId = await newReport();
    let closed: { code: number; reason: string } | undefined;
    let onClose!: () => void;
    const gone = new Promise<void>((resolve) => (onClose = resolve));
    const c = client(created.createApiKey.key, { onClosed: (code, reason) => ((closed = { code, reason }), onClose()) });
    const sub = listen(c, REPORT_EVENTS, { id: reportId });
    expect((await opened(client(team.key), sub, reportId)).data).toMatchObject({ reportEvents: { type: "report.updated" } });
    await gql(team.auth, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: created.createApiKey.apiKey.id });
    await gone;
    expect(closed!.code).toBe(4403);
  });

  it("resumes after the event named by extensions.lastEventId", async () => {
    const reportId = await newReport();
    const c = client(team.key);
    const sub = listen(c, REPORT_EVENTS, { id: reportId });
    const first = (await opened(c, sub, reportId)).data as { reportEvents: { id: string } };
    sub.stop();
    await gql(team.auth, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "Missed" }) { id } }`, { r: reportId });
    const resumed = listen(c, REPORT_EVENTS, { id: reportId }, { lastEventId: first.reportEvents.id });
    expect((await resumed.next()).data).toMatchObject({ reportEvents: { report: { listingAgent: "Missed" } } });
    resumed.stop();
    const bad = await listen(c, REPORT_EVENTS, { id: reportId }, { lastEventId: "nope" }).end();
    expect(JSON.stringify(bad.error)).toContain("lastEventId");
  });
});
