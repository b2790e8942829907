// A client that goes away in the middle of its request body: it is the client's doing, logged
// as such at info level, never as a database failure (no 503, no alert), and the server goes on answering.
import type { IncomingMessage } from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import pino from "pino";
import request from "supertest";
import { createAppServer } from "../src/http/server";
import { logger } from "../src/logger";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let server: ReturnType<typeof createAppServer>["server"];
let port: number;

/** The log lines the service writes (pino's destination swapped for this array), parsed. */
const logged: Array<Record<string, unknown>> = [];
type Streamed = Record<symbol, unknown>;
let destination: unknown;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  destination = (logger as unknown as Streamed)[pino.symbols.streamSym];
  (logger as unknown as Streamed)[pino.symbols.streamSym] = { write: (line: string) => void logged.push(JSON.parse(line)) };
  logger.level = "info";
  ({ server } = createAppServer(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  logger.level = "silent";
  (logger as unknown as Streamed)[pino.symbols.streamSym] = destination;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

/** Resolves once `found` holds, checking every 10 ms (for at most 5 s). */
async function until(found: () => boolean): Promise<void> {
  for (let waited = 0; !found() && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The access log's lines (`req.path`) for requests to `path`. */
const accessLines = (path: string) => logged.filter((line) => (line.req as { path?: string } | undefined)?.path === path);

/**
 * Sends a head announcing 2,000 bytes and half of them, and destroys the socket once the server reads the body (its
 * body parser listens for the abort); resolves when the error handler has logged about it (its lines carry the url).
 */
async function abortMidBody(path: string, headers: Record<string, string> = {}): Promise<void> {
  const body = JSON.stringify({ address: `1 Abort Lane ${"x".repeat(2000)}` }).slice(0, 1000);
  const received = new Promise<IncomingMessage>((resolve) => server.once("request", resolve));
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  const head = { Host: "localhost", "Content-Type": "application/json", "Content-Length": "2000", ...team.auth, ...headers };
  socket.write(`POST ${path} HTTP/1.1\r\n${Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`);
  const req = await received;
  await until(() => req.listenerCount("aborted") > 0);
  socket.destroy();
  await until(() => logged.some((line) => line.url === path));
}

it.each([
  ["REST", "/v1/reports", {}],
  ["REST with an Idempotency-Key", "/v1/reports", { "Idempotency-Key": "abort-1" }],
  ["GraphQL", "/graphql", {}],
])("%s: an upload cut off mid-body is logged as the client's abort, not a database failure", async (_name, path, headers) => {
  logged.length = 0;
  await abortMidBody(path, headers);
  const lines = logged.map(({ level, msg, status, err }) => ({ level, msg, status, err }));
  expect(lines).not.toContainEqual(expect.objectContaining({ msg: "database failure" }));
  expect(lines.filter(({ level }) => level === "error" || level === "warn" || level === "fatal")).toEqual([]);
  expect(lines).toContainEqual(expect.objectContaining({ level: "info", msg: "client closed the connection before its request body was read" }));
  // The access log's line says the answer never reached the client, not that a request was answered.
  await until(() => accessLines(path).length > 0);
  expect(accessLines(path).map(({ msg, aborted }) => ({ msg, aborted }))).toEqual([{ msg: "request aborted", aborted: true }]);

  // The same server goes on answering, and nothing was stored.
  const res = await request(`http://127.0.0.1:${port}`).get("/v1/reports").set(team.auth);
  expect([res.status, res.body.total]).toEqual([200, 0]);
});
