// OpenTelemetry traces of a real server process, received over OTLP/HTTP (JSON) by a local collector: a request
// carrying a W3C traceparent is continued (its spans share that trace id): the HTTP request, the GraphQL execution
// and, on PostgreSQL, each SQL statement (Prisma's adapter and the direct hot-path query); the request's log line
// carries the trace id; a webhook delivery attempt gets a span and its request a traceparent.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { receiver } from "../support/receiver";
import { childEnv, cliTeamAndKey, DELIVERING, startServer, tempDir, type ServerProcess } from "../support/server";
import { ownDatabaseForFile } from "../support/own-database";

/** On PostgreSQL a database of this file's own: its server delivers webhooks (test/support/own-database.ts). */
const own = ownDatabaseForFile("traces");

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** A local OTLP/HTTP collector: keeps the spans of every POST /v1/traces (JSON). */
async function collector() {
  const spans: Span[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces") {
        const sent = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }> };
        for (const r of sent.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    /** The spans of `traceId` once `done` holds for them (fails after 20 s with what arrived). */
    async trace(traceId: string, done: (spans: Span[]) => boolean): Promise<Span[]> {
      for (let i = 0; i < 200; i++) {
        const of = spans.filter((s) => s.traceId === traceId);
        if (done(of)) return of;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`trace ${traceId}: ${JSON.stringify(spans.filter((s) => s.traceId === traceId).map((s) => [s.name, s.kind, s.spanId, s.parentSpanId, process.env.SHOW_SPANS ? s.attributes : ""]))}`);
    },
    close: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())),
  };
}

const attribute = (span: Span, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};
const isSql = (s: Span) => attribute(s, "db.system") === "postgresql" || attribute(s, "db.system.name") === "postgresql";
const newTrace = () => ({ traceId: randomBytes(16).toString("hex"), parentId: randomBytes(8).toString("hex") });
const traceparent = (t: { traceId: string; parentId: string }) => `00-${t.traceId}-${t.parentId}-01`;
const onPostgres = Boolean(process.env.DATABASE_URL);

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

it("continues an incoming traceparent through the request, the GraphQL execution, the SQL statements and the log line; deliveries carry one", async () => {
  const otlp = await collector();
  const hook = await receiver();
  try {
    const env = childEnv(path.join(tempDir("traces"), "db"), {
      ...DELIVERING,
      ...own,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
    });
    const { key } = await cliTeamAndKey(env);
    server = await startServer(env);
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };

    // GraphQL: the HTTP request's span continues the caller's, the execution's is inside it.
    const graphqlTrace = newTrace();
    const res = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { ...headers, traceparent: traceparent(graphqlTrace) },
      body: JSON.stringify({ query: "query Traced { reports(limit: 5) { total items { id address } } }" }),
    });
    expect(res.status).toBe(200);
    const spans = await otlp.trace(graphqlTrace.traceId, (of) => of.some((s) => s.name === "query Traced") && of.some((s) => s.kind === 2) && (!onPostgres || of.some(isSql)));
    const request = spans.find((s) => s.kind === 2)!; // SERVER
    expect(request.parentSpanId).toBe(graphqlTrace.parentId);
    const execution = spans.find((s) => s.name === "query Traced")!;
    expect({ type: attribute(execution, "graphql.operation.type"), name: attribute(execution, "graphql.operation.name") }).toEqual({ type: "query", name: "Traced" });
    const ancestors = (s: Span): string[] => {
      const parent = spans.find((p) => p.spanId === s.parentSpanId);
      return parent ? [parent.spanId, ...ancestors(parent)] : [];
    };
    expect(ancestors(execution)).toContain(request.spanId);
    // On PostgreSQL, the statements it ran (the key's lookup before it belongs to the request only).
    if (onPostgres) expect(spans.filter((s) => isSql(s) && ancestors(s).includes(execution.spanId))).not.toHaveLength(0);

    // Its access-log line carries the trace id and the request span's id.
    const logged = () =>
      server!
        .output()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l))
        .find((l) => l.msg === "request" && l.req?.path === "/graphql");
    for (let i = 0; i < 50 && !logged(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged()).toMatchObject({ traceId: graphqlTrace.traceId, spanId: request.spanId });

    // REST: a write through Prisma (its adapter's statements) and the detail read by the direct hot-path statement.
    expect((await fetch(`${server.url}/v1/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: hook.url, events: ["report.created"] }) })).status).toBe(201);
    const writeTrace = newTrace();
    const created = await fetch(`${server.url}/v1/reports`, { method: "POST", headers: { ...headers, traceparent: traceparent(writeTrace) }, body: JSON.stringify({ address: "1 Trace Lane" }) });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { data: { id: string } }).data;
    const readTrace = newTrace();
    expect((await fetch(`${server.url}/v1/reports/${id}`, { headers: { ...headers, traceparent: traceparent(readTrace) } })).status).toBe(200);
    for (const t of [writeTrace, readTrace]) {
      const of = await otlp.trace(t.traceId, (s) => s.some((x) => x.kind === 2) && (!onPostgres || s.some(isSql)));
      expect(of.find((s) => s.kind === 2)).toMatchObject({ parentSpanId: t.parentId, name: expect.stringContaining("/v1/reports") });
    }

    // A share link's page: its token is in no span, as in no log line (the route's template stands for it).
    const link = await fetch(`${server.url}/v1/reports/${id}/share-links`, { method: "POST", headers, body: "{}" });
    const { token } = ((await link.json()) as { data: { token: string } }).data;
    const pageTrace = newTrace();
    expect((await fetch(`${server.url}/r/${token}`, { headers: { traceparent: traceparent(pageTrace) } })).status).toBe(200);
    const pageSpans = await otlp.trace(pageTrace.traceId, (of) => of.some((s) => s.kind === 2));
    expect(JSON.stringify(pageSpans)).not.toContain(token);
    expect(JSON.stringify(pageSpans)).toContain("/r/{token}");

    // The event's delivery: a span of its own, and the receiver gets the traceparent of that trace.
    const [delivery] = await hook.count(1, 20_000);
    const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(delivery.headers.traceparent));
    expect(sent).not.toBeNull();
    const deliverySpans = await otlp.trace(sent![1], (of) => of.some((s) => s.name === "webhook delivery"));
    expect(attribute(deliverySpans.find((s) => s.name === "webhook delivery")!, "webhook.event.type")).toBe("report.created");
  } finally {
    await hook.close();
    await otlp.close();
  }
}, 120_000);
