// The server as a real process, started twice on one database: the first start on an empty embedded database
// creates a team and prints a key with every permission once; the monthly call counter is buffered in memory,
// written at graceful shutdown (SIGTERM and SIGINT both exit 0), and still there after the restart. With
// DATABASE_URL set (the PostgreSQL pass), the counter is checked on PostgreSQL too, with a key made by the CLI.
import { randomUUID } from "node:crypto";
import path from "node:path";
import net from "node:net";
import { childEnv, cliTeamAndKey, sharedDatabase, startServer, startServerExpectingExit, tempDir, type ServerProcess } from "../support/server";

const KEY = /prs_sk_live_[A-Za-z0-9]{32}/g;

let server: ServerProcess | null = null;
afterEach(async () => {
  await server?.stop("SIGKILL");
  server = null;
});

async function usersMe(url: string, key: string) {
  const res = await fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return { headers: res.headers, data: ((await res.json()) as { data: any }).data };
}

/** Three calls on a running server: the count includes calls not yet written. */
async function threeCalls(url: string, key: string, teamId?: string) {
  const first = await usersMe(url, key);
  if (teamId) expect(first.data.team.id).toBe(teamId);
  expect(first.data.subscription.api_usage.calls_this_month).toBe(1);
  await fetch(`${url}/v1/reports`, { headers: { Authorization: `Bearer ${key}` } });
  const third = await usersMe(url, key);
  expect(third.data.subscription.api_usage.calls_this_month).toBe(3);
  expect(third.data.rate_limit.remaining).toBe(Number(third.headers.get("x-ratelimit-remaining")));
  expect(third.data.api_key.last_used_at).not.toBeNull();
  return first.data;
}

it("refuses a setting it cannot use in one line naming the setting, with exit 1 and no stack trace", async () => {
  const env: NodeJS.ProcessEnv = { ...childEnv(path.join(tempDir("bad-config"), "db")) };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const port = await startServerExpectingExit(env, "abc");
  const cluster = await startServerExpectingExit({ ...env, WEB_CONCURRENCY: "2" }, 0);
  for (const [refused, setting] of [[port, "PORT"], [cluster, "WEB_CONCURRENCY"]] as const) {
    expect(refused.code).toBe(1);
    expect(refused.output.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^Invalid configuration: .*${setting}`))]);
  }
  expect(port.output).toContain('(got "abc")');
});

it("creates the first team and a key with every permission on the first start only, and keeps the call count across a graceful restart", async () => {
  // An empty embedded database (what `npm start` uses), whatever the suite's own database is. A flush interval
  // longer than the test: what survives the restart was written by the shutdown flush.
  const dir = path.join(tempDir("first-start"), "db");
  const env: NodeJS.ProcessEnv = { ...childEnv(dir), PGLITE_DATA_DIR: dir, USAGE_FLUSH_MS: "600000" };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;

  // A taken port: a clear message and exit 1, before the first-start key is made (so it is not lost).
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as net.AddressInfo).port;
  const refused = await startServerExpectingExit(env, port);
  taken.close();
  expect(refused.code).toBe(1);
  expect(refused.output).toContain(`Cannot listen: port ${port} is in use; set PORT to another port`);
  expect(refused.output.match(KEY)).toBeNull();

  server = await startServer(env);
  // A second start on the same embedded database: one line saying why (like the port's), no stack, exit 1.
  const second = await startServerExpectingExit(env, 0);
  expect(second.code).toBe(1);
  expect(second.output).toMatch(/^Cannot start: The server \(pid \d+\) has the embedded database .* open, and PGlite serves one process at a time/m);
  expect(second.output).not.toMatch(/"stack"|\n\s+at /);
  // The key banner goes to stderr, the "listening" line to stdout: two pipes, so the banner may still be on its way.
  for (let i = 0; i < 50 && !KEY.test(server.output()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  KEY.lastIndex = 0;
  const keys: string[] = server.output().match(KEY) ?? [];
  expect(keys).toHaveLength(1);
  // Where everything is, in the listening line.
  expect(server.output()).toMatch(/"docs":"http:\/\/127\.0\.0\.1:\d+\/docs"/);
  const me = await threeCalls(server.url, keys[0]);
  // One access-log line per request, with the request id, the key's prefix and the team, never the key itself.
  const accessLines = () =>
    server!
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{") && JSON.parse(line).msg === "request")
      .map((line) => JSON.parse(line));
  // The last line may still be on its way through the pipe.
  for (let i = 0; i < 50 && accessLines().length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const requests = accessLines();
  expect(requests).toHaveLength(3);
  expect(requests[1]).toMatchObject({
    level: "info",
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    requestId: expect.any(String),
    req: { method: "GET", path: "/v1/reports" },
    res: { status: 200 },
    durationMs: expect.any(Number),
    keyPrefix: keys[0].slice(0, 16),
    teamId: me.team.id,
  });
  expect(server.output().match(KEY)).toHaveLength(1); // the banner only
  expect(server.output()).not.toMatch(/authorization/i);
  expect(me.team.name).toBe("My Team");
  expect(Object.keys(me.api_key.permissions).sort()).toEqual(
    ["ai_insights", "api_keys", "attendees", "audit_log", "comparables", "reports", "showings", "social_media", "team", "webhooks"],
  );
  expect(await server.stop("SIGTERM")).toBe(0);
  expect(server.output()).toContain('"msg":"stopped"');

  server = await startServer(env);
  expect(server.output().match(KEY)).toBeNull();
  const again = await usersMe(server.url, keys[0]);
  expect(again.data.subscription.api_usage.calls_this_month).toBe(4);
  expect(await server.stop("SIGINT")).toBe(0);
  server = null;
}, 180_000);

(sharedDatabase ? it : it.skip)("keeps the call count across a graceful restart on PostgreSQL", async () => {
  const env = childEnv("", { USAGE_FLUSH_MS: "600000", REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });
  const { teamId, key } = await cliTeamAndKey(env);
  server = await startServer(env);
  await threeCalls(server.url, key, teamId);
  expect(await server.stop("SIGTERM")).toBe(0);
  server = await startServer(env);
  expect((await usersMe(server.url, key)).data.subscription.api_usage.calls_this_month).toBe(4);
  expect(await server.stop("SIGINT")).toBe(0);
  server = null;
}, 180_000);
