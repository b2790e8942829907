// Live streams under a fan-out attack (docs/api.md "Live updates"; RELIABILITY.md reports the figures this prints):
// one team opens 100 streams (its cap) on one report through five keys, each selecting 29 aliases of its
// 20,000-character description (~580 KB an event), and changes the report three times; every stream receives the
// three events while another team's requests keep answering within a second (p99). One answer is built per event
// and selection and its bytes written to each stream. System tier: it times answers. A real server process.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { MAX_STREAMS_PER_KEY, MAX_STREAMS_PER_TEAM } from "../../src/live/streams";
import { childEnv, cliTeamAndKey, startServer, tempDir, type ServerProcess } from "../support/server";

let server: ServerProcess;
let admin: Record<string, string>;
let other: Record<string, string>;
const env = childEnv(tempDir("streams-load"), { REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });

beforeAll(async () => {
  // Teams first: on PGlite the CLI cannot open the database while the server holds it.
  admin = { Authorization: `Bearer ${(await cliTeamAndKey(env, ["--permissions", "reports:*,api_keys:*"])).key}` };
  other = { Authorization: `Bearer ${(await cliTeamAndKey(env, ["--permissions", "reports:*"])).key}` };
  server = await startServer(env);
}, 120_000);
afterAll(() => server?.stop());

/** A stream read without parsing: its status, the bytes and the `event: next` events received. */
interface RawStream {
  status: number;
  events: number;
  bytes: number;
  close(): void;
}

/** Over node:http, counting bytes natively: the client's own reading must not slow the timed requests down. */
function rawStream(query: string, variables: object, auth: Record<string, string>): Promise<RawStream> {
  const marker = Buffer.from("\nevent: next\n");
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/graphql`, { method: "POST", headers: { ...auth, Accept: "text/event-stream", "Content-Type": "application/json" } }, (res) => {
      const stream: RawStream = { status: res.statusCode ?? 0, events: 0, bytes: 0, close: () => req.destroy() };
      let tail = Buffer.alloc(0);
      res.on("data", (chunk: Buffer) => {
        stream.bytes += chunk.length;
        // A marker split between two chunks is found in the few bytes around the boundary; no chunk is copied.
        if (tail.length && Buffer.concat([tail, chunk.subarray(0, marker.length - 1)]).includes(marker)) stream.events++;
        for (let at = chunk.indexOf(marker); at >= 0; at = chunk.indexOf(marker, at + marker.length)) stream.events++;
        tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - marker.length + 1)));
      });
      res.on("error", () => undefined);
      resolve(stream);
    });
    req.on("error", (err) => (err.message === "socket hang up" ? undefined : reject(err)));
    req.end(JSON.stringify({ query, variables }));
  });
}

const percentile = (values: number[], p: number) => [...values].sort((x, y) => x - y)[Math.ceil((p / 100) * values.length) - 1];

it("100 streams of a 580 KB selection on one report, three changes: another team's p99 stays under a second", async () => {
  const gql = async (auth: Record<string, string>, query: string, variables: object = {}) => {
    const res = await fetch(`${server.url}/graphql`, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data: any; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const keys = [admin];
  while (keys.length < MAX_STREAMS_PER_TEAM / MAX_STREAMS_PER_KEY) {
    const created = await gql(admin, `mutation { createApiKey(input: { name: "reader ${keys.length}", permissions: ["reports:read"] }) { key } }`);
    keys.push({ Authorization: `Bearer ${created.createApiKey.key}` });
  }
  const reportId = (await gql(admin, `mutation { createReport(input: { address: "1 Fan Out Way", listingAgent: "Ann" }) { id } }`)).createReport.id;
  const patch = (i: number) =>
    fetch(`${server.url}/v1/reports/${reportId}`, { method: "PATCH", headers: { ...admin, "Content-Type": "application/json" }, body: JSON.stringify({ description: String(i).repeat(20_000) }) });
  expect((await patch(0)).status).toBe(200);

  const read = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/reports?limit=5`, { headers: other });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    return performance.now() - started;
  };
  const quiet: number[] = [];
  for (let i = 0; i < 20; i++) quiet.push(await read());

  const aliases = Array.from({ length: 29 }, (_, i) => `d${i}: description`).join(" ");
  const query = `subscription($id: ID!) { reportEvents(reportId: $id) { id report { ${aliases} } } }`;
  const streams: RawStream[] = [];
  for (const key of keys) streams.push(...(await Promise.all(Array.from({ length: MAX_STREAMS_PER_KEY }, () => rawStream(query, { id: reportId }, key)))));
  try {
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    const times: number[] = [];
    let writing = true;
    const writes = (async () => {
      for (let i = 1; i <= 3; i++) expect((await patch(i)).status).toBe(200);
    })().finally(() => (writing = false));
    // Another team reads while the events go out (and a little after).
    const deadline = Date.now() + 60_000;
    while ((writing || streams.some((s) => s.events < 3)) && Date.now() < deadline) {
      times.push(await read());
    }
    await writes;
    const received = streams.map((s) => s.events);
    const megabytes = streams.reduce((n, s) => n + s.bytes, 0) / 2 ** 20;
    console.log(`streams-load: ${streams.length} streams, ${megabytes.toFixed(0)} MiB sent, another team's ${times.length} requests p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (before the streams: p50 ${percentile(quiet, 50).toFixed(0)} ms, p99 ${percentile(quiet, 99).toFixed(0)} ms)`);
    expect(received).toEqual(streams.map(() => 3));
    // The target is a p99 under a second (RELIABILITY.md has each run's figure; before shared rendering another team
    // waited up to 15 s). The test allows 3 s: in CI it shares the machine's 2 cores with another test file.
    expect(percentile(times, 99)).toBeLessThan(3000);
  } finally {
    streams.forEach((s) => s.close());
  }
}, 180_000);
