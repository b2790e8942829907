// Two real server processes on one PostgreSQL database and one Redis: they share a key's hourly budget (a rolled key's
// with its successor), see a revocation made through either of them (or the CLI) on the very next request, refuse a
// rolled key at the end of its overlap, and deliver each webhook event once between them. Needs both services.
import { randomUUID } from "node:crypto";
import { Client } from "pg";
import { hashApiKey } from "../../src/auth/keys";
import { ownDatabase } from "../support/own-database";
import { receiver } from "../support/receiver";
import { childEnv, cli, cliTeamAndKey, DELIVERING, startServer, type ServerProcess } from "../support/server";

const ready = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!ready) {
  console.warn("test/system/multiprocess.test.ts skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) set, as .ci/run's second pass does.");
}

(ready ? describe : describe.skip)("two server processes on one PostgreSQL and one Redis", () => {
  // A database of its own: its servers deliver webhooks (test/support/own-database.ts). Dropped after they stop.
  const own = ownDatabase("multiprocess");
  const env = childEnv("", {
    ...own?.env,
    RATE_LIMIT_FREE: "6",
    REDIS_KEY_PREFIX: `prs:test:${randomUUID()}`,
    ...DELIVERING,
    WEBHOOK_POLL_MS: "20",
  });
  let a: ServerProcess;
  let b: ServerProcess;
  let teamId: string;
  let admin: string;

  beforeAll(async () => {
    await own?.create();
    ({ teamId, key: admin } = await cliTeamAndKey(env, ["--permissions", "api_keys:*,reports:read"]));
    // Both at once; one that started is still stopped by afterAll when the other fails.
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    [a, b] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined!));
    for (const s of started) if (s.status === "rejected") throw s.reason;
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await own?.drop();
  });

  const get = (server: ServerProcess, key: string) => fetch(`${server.url}/v1/users/me`, { headers: { Authorization: `Bearer ${key}` } });
  const newKey = async (...args: string[]) => (await cli(["key", "create", "--team", teamId, "--name", "shared", ...args], env)).at(-1)!;

  it("share one key's budget: requests alternated between them hit 429 at the combined limit", async () => {
    const key = await newKey("--tier", "free");
    const seen: Array<[number, string | null]> = [];
    for (let i = 0; i < 8; i++) {
      const res = await get(i % 2 ? b : a, key);
      seen.push([res.status, res.headers.get("x-ratelimit-remaining")]);
      expect(res.headers.get("x-ratelimit-limit")).toBe("6");
      if (res.status === 429) {
        expect(await res.json()).toEqual({ error: { message: "Rate limit exceeded. Please try again later.", status: 429 } });
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    }
    expect(seen).toEqual([
      [200, "5"],
      [200, "4"],
      [200, "3"],
      [200, "2"],
      [200, "1"],
      [200, "0"],
      [429, "0"],
      [429, "0"],
    ]);
  }, 60_000);

  it("see a revocation made through the other process on the next request", async () => {
    const key = await newKey("--permissions", "reports:read");
    expect((await get(a, key)).status).toBe(200);
    expect((await get(b, key)).status).toBe(200);
    const prefix = ((await (await get(b, key)).json()) as { data: { api_key: { prefix: string } } }).data.api_key.prefix;
    const list = await fetch(`${a.url}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: `{ apiKeys { id prefix } }` }),
    });
    const keyId = ((await list.json()) as { data: { apiKeys: Array<{ id: string; prefix: string }> } }).data.apiKeys.find((k) => k.prefix === prefix)!.id;
    const revoke = await fetch(`${a.url}/graphql`, {
      method: "POST",
      headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" },
      body: JSON.stringify({ query: `mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }`, variables: { id: keyId } }),
    });
    expect(((await revoke.json()) as { data: { revokeApiKey: { revokedAt: string } } }).data.revokeApiKey.revokedAt).toBeTruthy();
    for (const server of [b, a]) {
      const res = await get(server, key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { message: "Invalid API key", status: 401 } });
    }
  }, 60_000);

  it("see a revocation made by the CLI on the next request", async () => {
    const key = await newKey();
    expect((await get(a, key)).status).toBe(200);
    expect((await get(b, key)).status).toBe(200);
    await cli(["key", "revoke", key], env);
    expect((await get(b, key)).status).toBe(401);
    expect((await get(a, key)).status).toBe(401);
  }, 60_000);

  it("share a rolled key's budget with its successor, and refuse the old key on both at the instant its overlap ends", async () => {
    const old = await newKey("--tier", "free", "--permissions", "reports:read");
    const remaining = async (server: ServerProcess, key: string) => {
      const res = await fetch(`${server.url}/v1/reports`, { headers: { Authorization: `Bearer ${key}` } });
      return res.status === 200 ? Number(res.headers.get("x-ratelimit-remaining")) : res.status;
    };
    expect([await remaining(a, old), await remaining(b, old)]).toEqual([5, 4]);
    const rolled = (await cli(["key", "roll", old, "--overlap", "1h"], env)).at(-1)!;
    // One budget for both keys on both processes, carried on from the old key's.
    expect([await remaining(b, rolled), await remaining(a, old), await remaining(a, rolled), await remaining(b, old), await remaining(a, rolled)]).toEqual([3, 2, 1, 0, 429]);

    // A short overlap for the test: its end is the old key's stored expiry. Both processes read the key (and hold its
    // row) before it passes; nothing changes in the database after.
    const other = await newKey("--permissions", "reports:read");
    const next = (await cli(["key", "roll", other, "--overlap", "1h"], env)).at(-1)!;
    const db = new Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      await db.query(`UPDATE api_keys SET expires_at = now() + interval '2 seconds' WHERE key_hash = $1`, [hashApiKey(other)]);
    } finally {
      await db.end();
    }
    for (const server of [a, b]) {
      expect(await remaining(server, other)).not.toBe(401);
      expect((await get(server, other)).status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 2300));
    for (const server of [a, b]) {
      expect(await remaining(server, other)).toBe(401);
      const res = await get(server, other);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { message: "Invalid API key", status: 401 } });
      expect((await get(server, next)).status).toBe(200);
    }
  }, 60_000);

  it("deliver each webhook event exactly once to a healthy receiver, whichever claims it", async () => {
    const key = await newKey("--permissions", "webhooks:*,reports:*");
    const r = await receiver();
    const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const post = (server: ServerProcess, path: string, body: object) => fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    try {
      expect((await post(a, "/v1/webhooks", { url: r.url, events: ["report.created"] })).status).toBe(201);
      // Writes through both at once: each process wakes its own worker on commit and polls for the other's events
      // every 20 ms, so both claim from the same due deliveries all along.
      const writes = Array.from({ length: 60 }, (_, i) => post(i % 2 ? b : a, "/v1/reports", { address: `${i} Twin Street` }));
      const ids = await Promise.all(writes.map(async (w) => ((await (await w).json()) as { data: { id: string } }).data.id));
      await r.count(60, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1000)); // no second copy comes late
      const events = r.received.map((d) => d.headers["webhook-id"]);
      expect(r.received).toHaveLength(60);
      expect(new Set(events).size).toBe(60);
      expect(new Set(r.received.map((d) => d.json.data.id))).toEqual(new Set(ids));
    } finally {
      await r.close();
    }
  }, 90_000);
});
