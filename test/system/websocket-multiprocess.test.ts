// GraphQL over WebSocket across processes (docs/api.md "WebSocket transport"): two real server processes on one
// PostgreSQL and one Redis. A mutation sent over a socket to A reaches a subscription on a socket to B; a key's
// streams are counted on both processes and both transports together; revoking the key through A closes B's socket
// 4403. Needs both services.
import { randomBytes, randomUUID } from "node:crypto";
import { createClient, type Client, type ExecutionResult } from "graphql-ws";
import WebSocket from "ws";
import { MAX_STREAMS_PER_KEY } from "../../src/live/streams";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../support/server";
import { openLiveStream } from "../support/sse";

const ready = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!ready) {
  console.warn("test/system/websocket-multiprocess.test.ts skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) set, as .ci/run's second pass does.");
}

const REPORT_EVENTS = `subscription($id: ID!) { reportEvents(reportId: $id) { id type report { address } } }`;

(ready ? describe : describe.skip)("GraphQL over WebSocket with two server processes on one PostgreSQL and one Redis", () => {
  // A data key of its own: the processes and the CLI then log no warning about a development key.
  const env = childEnv("", { REDIS_KEY_PREFIX: `prs:test:${randomUUID()}`, DATA_ENCRYPTION_KEY: randomBytes(32).toString("base64") });
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ key } = await cliTeamAndKey(env, ["--permissions", "reports:*,api_keys:*"]));
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    [a, b] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined!));
    for (const s of started) if (s.status === "rejected") throw s.reason;
  }, 180_000);
  afterEach(async () => void (await Promise.all(clients.splice(0).map((c) => c.dispose()))));
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const client = (server: ServerProcess, apiKey = key, onClosed?: (code: number) => void) => {
    const c = createClient({
      url: `${server.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${apiKey}` },
      on: { closed: (event) => onClosed?.((event as { code: number }).code) },
    });
    clients.push(c);
    return c;
  };
  const run = (c: Client, query: string, variables: Record<string, unknown> = {}) =>
    new Promise<ExecutionResult<any>>((resolve, reject) => {
      let result: ExecutionResult<any>;
      c.subscribe({ query, variables }, { next: (v) => (result = v as ExecutionResult<any>), error: reject, complete: () => resolve(result) });
    });
  /** A subscription's events, waited for one by one. */
  const listen = (c: Client, query: string, variables: Record<string, unknown>) => {
    const events: ExecutionResult<any>[] = [];
    const waiters: Array<() => void> = [];
    const wake = () => waiters.splice(0).forEach((w) => w());
    // An operation refused with an error message (or a closed socket) is an event too, so no wait outlives it.
    const failed = (e: unknown) => (events.push({ errors: Array.isArray(e) ? e : [e] } as ExecutionResult<any>), wake());
    c.subscribe({ query, variables }, { next: (v) => (events.push(v as ExecutionResult<any>), wake()), error: failed, complete: wake });
    return {
      events,
      /** Whether an event is waiting, or comes within `ms` (none is taken). */
      arrives: async (ms: number) => {
        if (!events.length) await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, ms))]);
        return events.length > 0;
      },
      next: async () => {
        while (!events.length) await new Promise<void>((r) => waiters.push(r));
        return events.shift()!;
      },
    };
  };
  /** Changes the report through `via` until the subscription has one of its changes (graphql-ws says nothing when a stream opened). */
  const opened = async (via: Client, sub: ReturnType<typeof listen>, reportId: string) => {
    for (let attempt = 1; ; attempt++) {
      await run(via, `mutation($r: ID!) { updateReport(id: $r, input: { listingAgent: "Open ${attempt}" }) { id } }`, { r: reportId });
      if (await sub.arrives(1000 * attempt)) return sub.next();
    }
  };

  it("a mutation sent over a socket to A reaches a subscription on a socket to B, in order", async () => {
    const onA = client(a);
    const onB = client(b);
    const reportId = (await run(onA, `mutation { createReport(input: { address: "9 Socket Lane", listingAgent: "Ann" }) { id } }`)).data.createReport.id;
    const sub = listen(onB, REPORT_EVENTS, { id: reportId });
    await opened(onA, sub, reportId);
    for (const address of ["9 Socket Lane, Rear", "9 Socket Lane, Front"]) {
      await run(onA, `mutation($r: ID!, $a: String!) { updateReport(id: $r, input: { address: $a }) { id } }`, { r: reportId, a: address });
    }
    expect((await sub.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { address: "9 Socket Lane, Rear" } });
    expect((await sub.next()).data.reportEvents).toMatchObject({ type: "report.updated", report: { address: "9 Socket Lane, Front" } });
  }, 60_000);

  it(`counts a key's WebSocket and SSE streams on both processes together (at most ${MAX_STREAMS_PER_KEY})`, async () => {
    const created = await run(client(a), `mutation { createApiKey(input: { name: "ws cap", permissions: ["reports:read"] }) { key } }`);
    const capped = created.data.createApiKey.key as string;
    const [onA, onB] = [client(a, capped), client(b, capped)];
    const subs = Array.from({ length: MAX_STREAMS_PER_KEY - 2 }, (_, i) => listen(i % 2 ? onA : onB, `subscription { teamEvents { id } }`, {}));
    // Every stream is counted once it has had an event (graphql-ws says nothing when a stream opened): changes go on
    // until each has one, so the streams below are never counted before these.
    for (let attempt = 1; !subs.every((sub) => sub.events.length > 0); attempt++) {
      await run(client(a), `mutation { createReport(input: { address: "${attempt} Cap Lane", listingAgent: "Ann" }) { id } }`);
      await Promise.all(subs.map((sub) => sub.arrives(1000 * attempt)));
    }
    const sse = await Promise.all([a, b].map((server) => openLiveStream(server.url, { query: `subscription { teamEvents { id } }`, variables: {}, headers: { Authorization: `Bearer ${capped}` } })));
    try {
      expect(sse.map((s) => s.status)).toEqual([200, 200]);
      const refused = await listen(onB, `subscription { teamEvents { id } }`, {}).next();
      expect(refused.errors?.[0]).toMatchObject({ extensions: { code: "RATE_LIMITED", cap: "key" } });
    } finally {
      sse.forEach((s) => s.close());
    }
  }, 60_000);

  it("revoking the key through A closes B's socket 4403", async () => {
    const created = await run(client(a), `mutation { createApiKey(input: { name: "ws revoke", permissions: ["reports:read"] }) { key apiKey { id } } }`);
    let onClose!: (code: number) => void;
    const closed = new Promise<number>((resolve) => (onClose = resolve));
    const onB = client(b, created.data.createApiKey.key, (code) => onClose(code));
    const reportId = (await run(client(a), `mutation { createReport(input: { address: "10 Socket Lane", listingAgent: "Ann" }) { id } }`)).data.createReport.id;
    const sub = listen(onB, REPORT_EVENTS, { id: reportId });
    await opened(client(a), sub, reportId);
    await run(client(a), `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: created.data.createApiKey.apiKey.id });
    expect(await closed).toBe(4403);
  }, 60_000);
});
