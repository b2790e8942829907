// The real stack for tests: the Express app over the test file's database, and helpers to make teams and keys.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { createApiKey } from "../../src/auth/api-keys";
import { parsePermissions, TEAM_FULL_ACCESS } from "../../src/auth/permissions";
import { createRateLimiter, type RateLimiter } from "../../src/auth/rate-limit";
import { flushUsage } from "../../src/auth/usage";
import { buildApp } from "../../src/app";
import { database, prisma } from "../../src/db";
import type { Prisma } from "../../src/generated/prisma/client";
import { closeResponseCache } from "../../src/yoga/response-cache";
import { closeLiveBus } from "../../src/live/bus";
import { closeLiveStreams } from "../../src/live/streams";
import { attachWebSockets } from "../../src/yoga/websocket";
import { closeApqStore } from "../../src/graphql-documents/apq-store";

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  rateLimiter: RateLimiter;
  close(): Promise<void>;
}

/** The app as `npm start` builds it. Rate-limit counters get a fresh prefix so test files never share budgets. */
export async function startTestApp(): Promise<TestApp> {
  await database.migrate();
  const rateLimiter = createRateLimiter({ redisUrl: process.env.REDIS_URL, keyPrefix: `prs:test:${randomUUID()}` });
  return {
    app: buildApp({ rateLimiter }),
    rateLimiter,
    close: async () => {
      await flushUsage();
      await rateLimiter.close();
      await closeResponseCache();
      await closeLiveStreams();
      await closeApqStore();
      await closeLiveBus();
      await database.close();
    },
  };
}

export interface TestTeam {
  teamId: string;
  key: string;
  auth: { Authorization: string };
}

/** A new team with one key (full team access unless `permissions` lists others, e.g. "reports:read"). */
export async function createTeam(options: { name?: string; permissions?: string; tier?: string } = {}): Promise<TestTeam> {
  const team = await prisma.team.create({ data: { name: options.name ?? `Team ${randomUUID().slice(0, 8)}`, adminName: "Alex Admin" } });
  const { key } = await createApiKey({
    teamId: team.id,
    name: "test key",
    permissions: options.permissions === undefined ? TEAM_FULL_ACCESS : parsePermissions(options.permissions),
    tier: options.tier,
  });
  return { teamId: team.id, key, auth: { Authorization: `Bearer ${key}` } };
}

/** A second key of an existing team with the given permissions (e.g. "comparables:read,comparables:create"). */
export async function addKey(teamId: string, permissions: string): Promise<{ Authorization: string }> {
  const { key } = await createApiKey({ teamId, name: `key ${permissions}`, permissions: parsePermissions(permissions) });
  return { Authorization: `Bearer ${key}` };
}

/**
 * Whether a statement is the service's bookkeeping of calls rather than a request's own work: usage counts flushed on
 * a timer (team_usage, api_key_hourly_usage, api_key_route_usage) and a key's once-a-minute last use. Either may land in any counted window.
 */
export const isHousekeeping = (sql: string) => /team_usage|api_key_hourly_usage|api_key_route_usage|^\s*UPDATE .*api_keys/s.test(sql);

/** Counts the SQL statements run while `fn` runs (the test environment turns Prisma query events on). */
export async function countStatements<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  let recording = true;
  database.onStatement((sql) => {
    if (recording) statements.push(sql);
  });
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    recording = false;
  }
}

/** A REST error answer as its status and message (the JSON envelope's error.message). */
export const errorOf = (res: { status: number; body: any }) => ({ status: res.status, message: res.body.error?.message as string | undefined });

/**
 * A report stored straight in the database, for shapes the API would take many requests to build (99 showings, a
 * 20,000-character description): `address` and whatever else `data` gives.
 */
export function seedReport(teamId: string, address: string, data: Partial<Prisma.ReportUncheckedCreateInput> = {}) {
  const key = address.toLowerCase();
  return prisma.report.create({ data: { teamId, address, addressKey: key, searchKey: key, listingAgent: "A", createdBy: "B", ...data } });
}

/**
 * The app on a loopback port, for clients that need a real socket (server-sent events, WebSocket at /graphql,
 * browsers); close() ends it.
 */
export async function listening(app: TestApp["app"]): Promise<{ server: http.Server; base: string; close(): Promise<void> }> {
  const server = http.createServer(app);
  const sockets = attachWebSockets(server, app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = async () => {
    await sockets?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

export interface ListeningTeamApp {
  t: TestApp;
  /** `http://127.0.0.1:<port>` */
  base: string;
  team: TestTeam;
  /** A GraphQL request over supertest with `auth`, expected to answer without errors: its `data`. */
  gql(auth: Record<string, string>, query: string, variables?: Record<string, unknown>): Promise<any>;
  /** Ends the listener, then the app. */
  close(): Promise<void>;
}

/** The app on a loopback port (`listening`) with a team whose key holds `permissions`: the prelude of live-stream tests. */
export async function listeningTeamApp(permissions: string): Promise<ListeningTeamApp> {
  const t = await startTestApp();
  const server = await listening(t.app);
  const team = await createTeam({ permissions });
  const gql = async (auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => {
    const res = await request(t.app).post("/graphql").set(auth).send({ query, variables });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const close = async () => {
    await server.close();
    await t.close();
  };
  return { t, base: server.base, team, gql, close };
}
