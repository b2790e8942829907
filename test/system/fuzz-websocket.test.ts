// The fuzz suite's pass over GraphQL over WebSocket at /graphql (docs/api.md "WebSocket transport"), in a file of its
// own beside fuzz.test.ts: same harness and settings (test/fuzz/README.md). A case opens a socket and sends 1 to 8
// messages drawn from: connection_init with the fuzz key, another key, none, or a payload that is not an object;
// subscribe messages (valid queries and subscriptions, malformed payloads, ids reused, hostile variables, documents
// nested past the bound, persisted-query hashes), complete, ping, pong, unknown types, text that is not JSON, binary
// frames, and a message over the 1 MiB bound — in any order, before connection_init too. Every message the server
// sends must be a graphql-transport-ws message (connection_ack, next, error, complete, ping, pong), no `next` or
// `error` before connection_ack, no error of the server's own (INTERNAL_SERVER_ERROR, a stack, 4500 or 1011); a
// close must carry one of the protocol's codes for what was sent. After every case the server still answers a query
// on a new socket and every stream the case opened has given its place back.
import { fuzzDatabase } from "../fuzz/env";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import WebSocket from "ws";
import { liveStreams } from "../../src/live/streams";
import { attachWebSockets, MAX_MESSAGE_BYTES } from "../../src/yoga/websocket";
import { FUZZ_RUNS, SEED, World } from "../fuzz/harness";

jest.setTimeout(30 * 60_000);

let world: World;
let url: string;

beforeAll(async () => {
  await fuzzDatabase?.create();
  world = await World.open();
  attachWebSockets(world.client.server, world.t.app);
  url = `ws://127.0.0.1:${(world.client.server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  await (world?.t.app.locals as { webSockets?: { close(): Promise<void> } } | undefined)?.webSockets?.close();
  await world?.close();
  await fuzzDatabase?.drop();
});

type Frame = { kind: "text"; text: string } | { kind: "binary" } | { kind: "oversized" };

const QUERIES = [
  "{ __typename }",
  "query { reports(limit: 2) { total items { id address } } }",
  "subscription { teamEvents { id type } }",
  'subscription { reportEvents(reportId: "00000000-0000-4000-8000-000000000000") { id } }',
  "subscription($t: [String!]) { teamEvents(types: $t) { id } }",
  'mutation { createReport(input: { address: "1 Socket Fuzz Way" }) { id } }',
  "{ nope }",
  "{",
  `{ ${"a { ".repeat(80)}${"} ".repeat(80)}}`,
  "",
];

const hostile = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constant("\u0000"),
  fc.constant("\ud800"),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(JSON.parse(`${"[".repeat(40)}1${"]".repeat(40)}`)),
);

const frameArb = (key: string): fc.Arbitrary<Frame> => {
  const text = (value: unknown): Frame => ({ kind: "text", text: JSON.stringify(value) });
  const id = fc.oneof(fc.constantFrom("1", "2", "a"), fc.string({ maxLength: 8 }), hostile);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(key, "prs_sk_live_" + "x".repeat(40), "nope").map((k) => text({ type: "connection_init", payload: { authorization: `Bearer ${k}` } })) },
    { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), hostile).map((payload) => text({ type: "connection_init", payload })) },
    {
      weight: 6,
      arbitrary: fc
        .record({ id, query: fc.oneof(fc.constantFrom(...QUERIES), hostile), variables: fc.oneof(fc.constant(undefined), fc.dictionary(fc.constantFrom("t", "id"), hostile)), ext: fc.oneof(fc.constant(undefined), hostile, fc.record({ persistedQuery: fc.record({ version: fc.constantFrom(1, 2), sha256Hash: fc.oneof(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }), hostile) }) }), fc.record({ lastEventId: hostile })) })
        .map(({ id, query, variables, ext }) => text({ type: "subscribe", id, payload: { query, variables, extensions: ext } })),
    },
    { weight: 1, arbitrary: hostile.map((payload) => text({ type: "subscribe", id: "1", payload })) },
    { weight: 2, arbitrary: id.map((i) => text({ type: "complete", id: i })) },
    { weight: 1, arbitrary: fc.constantFrom("ping", "pong", "connection_ack", "next", "error", "nonsense").map((type) => text({ type })) },
    { weight: 1, arbitrary: fc.constantFrom("not json", "{", "[]", "null", '{"type":1}', "\u0000").map((t): Frame => ({ kind: "text", text: t })) },
    { weight: 1, arbitrary: fc.constant<Frame>({ kind: "binary" }) },
    { weight: 1, arbitrary: fc.constant<Frame>({ kind: "oversized" }) },
  );
};

/** Close codes a client may cause (graphql-ws's and ours); 4500 and 1011 are the server's own failures. */
const CLIENT_CAUSED = new Set([1000, 1001, 1005, 1006, 1009, 4400, 4401, 4403, 4406, 4408, 4409, 4429]);
const SERVER_TYPES = new Set(["connection_ack", "next", "error", "complete", "ping", "pong"]);

async function runCase(frames: Frame[]): Promise<string[]> {
  const problems: string[] = [];
  const before = liveStreams().size;
  const ws = new WebSocket(url, "graphql-transport-ws");
  let acked = false;
  // A socket the server never closes after our close is a problem, not a hang: 10 s at most.
  const closed = new Promise<number>((resolve) => {
    ws.on("close", (code) => resolve(code));
    setTimeout(() => resolve(-1), 10_000).unref();
  });
  ws.on("error", () => undefined);
  ws.on("message", (data) => {
    let message: { type?: string; payload?: unknown };
    try {
      message = JSON.parse(String(data));
    } catch {
      return void problems.push(`not JSON: ${String(data).slice(0, 200)}`);
    }
    if (!SERVER_TYPES.has(String(message.type))) problems.push(`unknown message type ${String(message.type)}`);
    if (message.type === "connection_ack") acked = true;
    if ((message.type === "next" || message.type === "error") && !acked) problems.push(`${message.type} before connection_ack`);
    const text = JSON.stringify(message.payload ?? null);
    if (/INTERNAL_SERVER_ERROR|\bat .*\.(ts|js):\d+/.test(text)) problems.push(`server error: ${text.slice(0, 300)}`);
  });
  await new Promise<void>((resolve) => (ws.readyState === ws.OPEN ? resolve() : ws.once("open", () => resolve()).once("close", () => resolve())));
  for (const frame of frames) {
    if (ws.readyState !== ws.OPEN) break;
    if (frame.kind === "binary") ws.send(Buffer.from([0, 1, 2, 255]));
    else if (frame.kind === "oversized") ws.send(JSON.stringify({ type: "ping", payload: { pad: "x".repeat(MAX_MESSAGE_BYTES) } }));
    else ws.send(frame.text);
  }
  // Answers to what was sent come before the answer to this ping (one socket, in order), unless the socket closed.
  await new Promise<void>((resolve) => {
    if (ws.readyState !== ws.OPEN) return resolve();
    const timer = setTimeout(resolve, 2000);
    ws.on("message", (data) => String(data).includes('"pong"') && (clearTimeout(timer), resolve()));
    ws.send(JSON.stringify({ type: "ping" }));
  });
  if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(1000);
  const code = await closed;
  if (!CLIENT_CAUSED.has(code)) problems.push(`closed ${code}`);
  // Every stream the case opened gives its place back once its socket is gone.
  for (let i = 0; i < 100 && liveStreams().size > before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (liveStreams().size > before) problems.push(`${liveStreams().size - before} streams still open after the socket closed`);
  return problems;
}

/**
 * The server still answers on a new socket: the query's answer, or a refusal that is itself an answer (the key's
 * hourly budget spent, an error message; the address's bad keys past their limit, close 4429 — a long run sends
 * hundreds of bad keys). Nothing within 10 s, or another close, is no answer.
 */
async function stillAnswers(): Promise<boolean> {
  const ws = new WebSocket(url, "graphql-transport-ws");
  return new Promise<boolean>((resolve) => {
    const done = (answered: boolean) => {
      clearTimeout(timer);
      if (ws.readyState === ws.OPEN) ws.close(1000);
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), 10_000);
    ws.on("error", () => done(false));
    ws.on("close", (code) => done(code === 4429));
    ws.on("open", () => ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${world.own.key}` } })));
    ws.on("message", (data) => {
      const message = JSON.parse(String(data));
      if (message.type === "connection_ack") ws.send(JSON.stringify({ type: "subscribe", id: "q", payload: { query: "{ __typename }" } }));
      if (message.type === "next") done(message.payload?.data?.__typename === "Query");
      if (message.type === "error") done(JSON.stringify(message.payload ?? null).includes("RATE_LIMITED"));
    });
  });
}

it("answers every sequence of WebSocket messages with the protocol's messages and close codes, never a server error", async () => {
  const failures: string[] = [];
  await fc.assert(
    fc.asyncProperty(fc.array(frameArb(world.own.key), { minLength: 1, maxLength: 8 }), async (frames) => {
      const problems = await runCase(frames);
      if (!(await stillAnswers())) problems.push("the server no longer answers a query over a new socket");
      if (problems.length) failures.push(`${JSON.stringify(frames).slice(0, 600)}\n  → ${problems.join("; ")}`);
      return problems.length === 0;
    }),
    // About 2 s a case (each waits for the answer to a ping): 50 cases in CI, 30 otherwise.
    { numRuns: Math.max(30, Math.round(FUZZ_RUNS / 40)), seed: SEED + 7, verbose: 0, endOnFailure: true },
  );
  expect(failures).toEqual([]);
});
