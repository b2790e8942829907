// Live updates across processes (docs/api.md "Live updates"): two real server processes on one
// PostgreSQL and one Redis. A change committed through one reaches a subscriber of the other; the per-key cap counts
// the streams of both; revoking a key through one ends its streams on the other; a process told to stop ends its
// streams and exits instead of waiting for them. Needs both services.
import { randomUUID } from "node:crypto";
import { MAX_STREAMS_PER_KEY, MAX_STREAMS_PER_TEAM } from "../../src/live/streams";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../support/server";
import { openLiveStream, type LiveStream } from "../support/sse";

const ready = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!ready) {
  console.warn("test/system/subscriptions-multiprocess.test.ts skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) set, as .ci/run's second pass does.");
}

const REPORT_EVENTS = `subscription($id: ID!) { reportEvents(reportId: $id) { id type showing { attendeeName } report { address } } }`;
const TEAM_EVENTS = `subscription { teamEvents { id type } }`;

(ready ? describe : describe.skip)("live updates with two server processes on one PostgreSQL and one Redis", () => {
  const env = childEnv("", { REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });
  let a: ServerProcess;
  let b: ServerProcess;
  let admin: { Authorization: string };
  const open: LiveStream[] = [];

  beforeAll(async () => {
    const { key } = await cliTeamAndKey(env, ["--permissions", "reports:*,showings:*,api_keys:*"]);
    admin = { Authorization: `Bearer ${key}` };
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    [a, b] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined!));
    for (const s of started) if (s.status === "rejected") throw s.reason;
  }, 180_000);
  afterEach(() => open.splice(0).forEach((stream) => stream.close()));
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const gql = async (server: ServerProcess, auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${server.url}/graphql`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data: any; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const subscribe = async (server: ServerProcess, query: string, variables: Record<string, unknown>, auth: Record<string, string> = admin) => {
    const stream = await openLiveStream(server.url, { query, variables, headers: auth });
    open.push(stream);
    return stream;
  };
  const newKey = async () => {
    const created = await gql(a, admin, `mutation { createApiKey(input: { name: "streams ${randomUUID().slice(0, 8)}", permissions: ["reports:read"] }) { key apiKey { id } } }`);
    return { id: created.createApiKey.apiKey.id as string, auth: { Authorization: `Bearer ${created.createApiKey.key}` } };
  };

  it("a change committed through A reaches a subscriber of B, in order", async () => {
    const reportId = (await gql(a, admin, `mutation { createReport(input: { address: "7 Pubsub Lane", listingAgent: "Ann" }) { id } }`)).createReport.id;
    const stream = await subscribe(b, REPORT_EVENTS, { id: reportId });
    expect(stream.status).toBe(200);
    await gql(a, admin, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Seen On B" }) { id } }`, { r: reportId });
    await gql(b, admin, `mutation($r: ID!) { updateReport(id: $r, input: { address: "7 Pubsub Lane, Rear" }) { id } }`, { r: reportId });
    await gql(a, admin, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Again On B" }) { id } }`, { r: reportId });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "showing.created", showing: { attendeeName: "Seen On B" } });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { address: "7 Pubsub Lane, Rear" } });
    expect((await stream.next()).data.reportEvents).toMatchObject({ type: "showing.created", showing: { attendeeName: "Again On B" } });
  }, 60_000);

  it(`counts a key's streams on both processes together (at most ${MAX_STREAMS_PER_KEY})`, async () => {
    const { auth } = await newKey();
    for (let i = 0; i < MAX_STREAMS_PER_KEY; i++) expect((await subscribe(i % 2 ? a : b, TEAM_EVENTS, {}, auth)).status).toBe(200);
    for (const server of [a, b]) {
      const refused = await subscribe(server, TEAM_EVENTS, {}, auth);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions.code).toBe("RATE_LIMITED");
    }
  }, 60_000);

  it(`counts a team's streams on both processes together (at most ${MAX_STREAMS_PER_TEAM} across its keys)`, async () => {
    // A team of its own: no stream of another test still counts for it.
    const owner = { Authorization: `Bearer ${(await cliTeamAndKey(env, ["--permissions", "reports:read,api_keys:*"])).key}` };
    const keys = [];
    for (let k = 0; k <= MAX_STREAMS_PER_TEAM / MAX_STREAMS_PER_KEY; k++) {
      const created = await gql(a, owner, `mutation { createApiKey(input: { name: "team cap ${k}", permissions: ["reports:read"] }) { key } }`);
      keys.push({ Authorization: `Bearer ${created.createApiKey.key}` });
    }
    for (let i = 0; i < MAX_STREAMS_PER_TEAM; i++) {
      const stream = await subscribe(i % 2 ? a : b, TEAM_EVENTS, {}, keys[Math.floor(i / MAX_STREAMS_PER_KEY)]);
      expect(stream.status).toBe(200);
    }
    for (const server of [a, b]) {
      const refused = await subscribe(server, TEAM_EVENTS, {}, keys.at(-1)!);
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions).toMatchObject({ code: "RATE_LIMITED", cap: "team" });
    }
  }, 120_000);

  it("revoking a key through A ends its streams on B at once", async () => {
    const { id, auth } = await newKey();
    const streams = [await subscribe(b, TEAM_EVENTS, {}, auth), await subscribe(b, TEAM_EVENTS, {}, auth)];
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    await gql(a, admin, `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, { id });
    for (const stream of streams) {
      await stream.ended;
      expect(JSON.parse(stream.events.at(-2)!.data).errors[0].message).toBe("Invalid API key");
      expect(stream.events.at(-1)!.event).toBe("complete");
    }
  }, 60_000);

  // Twelve trials, alternating which process committed the missed events and which one resumes, while the team is
  // written through both. The fault these trials found (a page of missed events sorted by its numbers' text, so a page
  // crossing 99 → 100 lost its first rows) has a test of its own in test/subscriptions.test.ts.
  it("a stream resumed with Last-Event-ID on either process sends every later event exactly once, under load (12 trials)", async () => {
    const reportId = (await gql(a, admin, `mutation { createReport(input: { address: "9 Resume Row", listingAgent: "Ann" }) { id } }`)).createReport.id;
    const busy = (await gql(b, admin, `mutation { createReport(input: { address: "10 Busy Row", listingAgent: "Ann" }) { id } }`)).createReport.id;
    const show = (server: ServerProcess, r: string, name: string) =>
      gql(server, admin, `mutation($r: ID!, $n: String!) { createShowing(input: { reportId: $r, attendeeName: $n }) { id } }`, { r, n: name });
    // Load: the team's other report is written through both processes all along (its events move both feeds on).
    let loading = true;
    const load = (async () => {
      for (let i = 0; loading; i++) await show(i % 2 ? a : b, busy, `busy ${i}`);
    })();
    const missed: string[] = [];
    try {
      for (let trial = 0; trial < 12; trial++) {
        const [first, second] = trial % 2 ? [a, b] : [b, a];
        const stream = await subscribe(first, REPORT_EVENTS, { id: reportId });
        await show(second, reportId, `t${trial} seen`);
        const seen = (await stream.next().catch((e) => { throw new Error(`trial ${trial}, first stream: ${e.message}`); })).data.reportEvents.id as string;
        stream.close();
        const names = [1, 2, 3].map((n) => `t${trial} missed ${n}`);
        for (const name of names) await show(second, reportId, name);
        const resumed = await subscribe(second, REPORT_EVENTS, { id: reportId }, { ...admin, "Last-Event-ID": seen });
        await show(first, reportId, `t${trial} live`);
        const got: string[] = [];
        for (let i = 0; i < 4; i++) got.push(await resumed.next(5_000).then((e) => e.data.reportEvents.showing.attendeeName, (e) => `(${e.message})`));
        resumed.close();
        if (got.join() !== [...names, `t${trial} live`].join()) missed.push(`trial ${trial}: ${got.join(", ")}`);
      }
    } finally {
      loading = false;
      await load;
    }
    expect(missed).toEqual([]);
  }, 300_000);

  it("a process told to stop ends its open streams and exits (the client resumes elsewhere with Last-Event-ID)", async () => {
    const c = await startServer(env);
    const reportId = (await gql(a, admin, `mutation { createReport(input: { address: "8 Shutdown Way", listingAgent: "Ann" }) { id } }`)).createReport.id;
    const stream = await subscribe(c, REPORT_EVENTS, { id: reportId });
    await gql(a, admin, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "Before Stop" }) { id } }`, { r: reportId });
    const seen = (await stream.next()).data.reportEvents.id as string;
    expect(await c.stop("SIGTERM")).toBe(0);
    await stream.ended;
    expect(stream.events.at(-1)!.event).toBe("complete");
    expect(c.output()).not.toContain("requests still in progress were cut off");
    await gql(a, admin, `mutation($r: ID!) { createShowing(input: { reportId: $r, attendeeName: "After Stop" }) { id } }`, { r: reportId });
    const resumed = await openLiveStream(b.url, { query: REPORT_EVENTS, variables: { id: reportId }, headers: { ...admin, "Last-Event-ID": seen } });
    open.push(resumed);
    expect((await resumed.next()).data.reportEvents).toMatchObject({ type: "showing.created", showing: { attendeeName: "After Stop" } });
  }, 120_000);
});
