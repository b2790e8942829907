// The monthly call counter of real server processes: buffered in memory, written at graceful shutdown, and
// still there after a restart. Runs on an on-disk PGlite directory, or on DATABASE_URL when set.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { childEnv, cliTeamAndKey, startServer, tempDir, type ServerProcess } from "./support/server";

let server: ServerProcess | null = null;
afterAll(async () => void (await server?.stop()));

async function usersMe(url: string, key: string) {
  const res = await fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return { headers: res.headers, data: ((await res.json()) as { data: any }).data };
}

it("counts calls this month and keeps them across a graceful restart", async () => {
  // A flush interval longer than the test: what survives the restart was written by the shutdown flush.
  const env = childEnv(path.join(tempDir("usage"), "db"), { USAGE_FLUSH_MS: "600000", REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });
  const { teamId, key } = await cliTeamAndKey(env);

  server = await startServer(env);
  const first = await usersMe(server.url, key);
  expect(first.data.team.id).toBe(teamId);
  expect(first.data.subscription.api_usage.calls_this_month).toBe(1);
  await fetch(`${server.url}/v1/reports`, { headers: { Authorization: `Bearer ${key}` } });
  const third = await usersMe(server.url, key);
  expect(third.data.subscription.api_usage.calls_this_month).toBe(3);
  expect(third.data.rate_limit.remaining).toBe(Number(third.headers.get("x-ratelimit-remaining")));
  expect(third.data.api_key.last_used_at).not.toBeNull();

  expect(await server.stop("SIGTERM")).toBe(0);
  expect(server.output()).toContain('"msg":"stopped"');

  server = await startServer(env);
  const afterRestart = await usersMe(server.url, key);
  expect(afterRestart.data.subscription.api_usage.calls_this_month).toBe(4);
  expect(await server.stop("SIGINT")).toBe(0);
  server = null;
}, 180_000);
