// Authentication, permissions, rate limits and usage on both interfaces, against the real in-process stack.
// Tier budgets are read from the configuration when src modules load: small ones are set before the imports.
const previousEnv = { free: process.env.RATE_LIMIT_FREE, anonymous: process.env.RATE_LIMIT_ANONYMOUS };
process.env.RATE_LIMIT_FREE = "5";
process.env.RATE_LIMIT_ANONYMOUS = "40";

import { connect, type AddressInfo, type Socket } from "node:net";
import request, { type Response } from "supertest";
import { createApiKey } from "../src/auth/api-keys";
import { parsePermissions } from "../src/auth/permissions";
import { database, prisma } from "../src/db";
import { countStatements, createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ name: "Keystone Realty" });
});
afterAll(async () => {
  await t.close();
  process.env.RATE_LIMIT_FREE = previousEnv.free;
  process.env.RATE_LIMIT_ANONYMOUS = previousEnv.anonymous;
  for (const [k, v] of [["RATE_LIMIT_FREE", previousEnv.free], ["RATE_LIMIT_ANONYMOUS", previousEnv.anonymous]] as const) {
    if (v === undefined) delete process.env[k];
  }
});

const ME_QUERY = `{ me { team { id } } }`;
const gql = (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
  request(t.app).post("/graphql").set(headers).send({ query, variables });
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function expectRateLimitHeaders(res: Response, limit?: number) {
  expect(res.headers["x-ratelimit-limit"]).toMatch(/^\d+$/);
  expect(res.headers["x-ratelimit-remaining"]).toMatch(/^\d+$/);
  expect(Number(res.headers["x-ratelimit-reset"])).toBeGreaterThan(Date.now() / 1000);
  expect(Number(res.headers["x-ratelimit-reset"]) % 3600).toBe(0); // the next UTC clock hour
  if (limit !== undefined) expect(res.headers["x-ratelimit-limit"]).toBe(String(limit));
}

async function keyFor(teamId: string, options: { permissions?: string; tier?: string; expiresAt?: Date } = {}) {
  const { key, id } = await createApiKey({
    teamId,
    name: "extra",
    permissions: options.permissions === undefined ? undefined : parsePermissions(options.permissions),
    tier: options.tier,
    expiresAt: options.expiresAt,
  });
  return { key, id };
}

describe("401 Invalid API key", () => {
  const cases: Array<[string, () => Promise<Record<string, string>>]> = [
    ["no Authorization header", async () => ({})],
    ["a scheme other than Bearer", async () => ({ Authorization: `Basic ${team.key}` })],
    ["a bare key without a scheme", async () => ({ Authorization: team.key })],
    ["a malformed key", async () => bearer("prs_sk_live_tooShort")],
    ["a key of another format", async () => bearer("sk_live_" + "a".repeat(32))],
    ["an unknown key", async () => bearer("prs_sk_live_" + "Q".repeat(32))],
    ["an expired key", async () => bearer((await keyFor(team.teamId, { expiresAt: new Date(Date.now() - 1000) })).key)],
    [
      "a revoked key",
      async () => {
        const { key, id } = await keyFor(team.teamId);
        await prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
        return bearer(key);
      },
    ],
  ];

  it.each(cases)("REST and GraphQL answer %s with 401, their error shapes and rate-limit headers", async (_name, headers) => {
    const h = await headers();
    for (const res of [await request(t.app).get("/v1/users/me").set(h), await request(t.app).get("/v1/reports").set(h)]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: { message: "Invalid API key", status: 401 } });
      expectRateLimitHeaders(res, 40);
    }
    const graphql = await gql(h, ME_QUERY);
    expect(graphql.status).toBe(401);
    expect(graphql.body).toEqual({ errors: [{ message: "Invalid API key", extensions: { code: "UNAUTHENTICATED", status: 401 } }] });
    expectRateLimitHeaders(graphql, 40);
  });

  it("a key that expires later still works", async () => {
    const { key } = await keyFor(team.teamId, { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await request(t.app).get("/v1/users/me").set(bearer(key))).status).toBe(200);
  });
});

describe("a key changed in the database takes effect on its next request", () => {
  // Written straight to the database (as an operator or a migration would), after the key has been used, so any
  // copy of it held by the service would be stale.
  const changes: Array<[string, (id: string, teamId: string) => Promise<unknown>, number]> = [
    ["revoked", (id) => prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }), 401],
    ["expired", (id) => prisma.$executeRaw`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = ${id}::uuid`, 401],
    ["narrowed to reports:create", (id) => prisma.apiKey.update({ where: { id }, data: { permissions: ["reports:create"] } }), 403],
    ["deleted", (id) => prisma.apiKey.delete({ where: { id } }), 401],
    ["deleted with its team", (_id, teamId) => prisma.team.delete({ where: { id: teamId } }), 401],
  ];

  it.each(changes)("%s", async (_name, change, status) => {
    const owner = await createTeam();
    const { key, id } = await keyFor(owner.teamId);
    for (let i = 0; i < 2; i++) expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(200);
    await change(id, owner.teamId);
    expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(status);
    const graphql = await gql(bearer(key), `{ reports { total } }`);
    // GraphQL answers an unauthenticated request with 401, a forbidden field with an error in a 200.
    expect(graphql.status === 401 ? 401 : graphql.body.errors?.[0]?.extensions?.status).toBe(status);
  });
});

/** Sends raw HTTP/1.1 requests on connections opened beforehand, all in one go, so the server reads them together. */
async function sendTogether(port: number, requests: string[]): Promise<Array<{ status: number; body: string }>> {
  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(socket)).once("error", reject);
    });
  const sockets = await Promise.all(requests.map(open));
  await new Promise((resolve) => setTimeout(resolve, 50)); // the server accepts every connection first
  const answers = sockets.map(
    (socket) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        let raw = "";
        socket.on("data", (chunk) => (raw += chunk)).once("error", reject);
        socket.on("end", () => resolve({ status: Number(raw.split(" ")[1]), body: raw.slice(raw.indexOf("\r\n\r\n") + 4) }));
      }),
  );
  sockets.forEach((socket, i) => socket.write(requests[i]));
  return Promise.all(answers);
}

it("answers requests that arrive together each for its own key, reading their keys in one statement", async () => {
  const other = await createTeam({ name: "Other Realty" });
  const revoked = await keyFor(team.teamId);
  await prisma.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
  const unknown = "prs_sk_live_" + "Z".repeat(32);
  const callers: Array<[string, number, string | undefined]> = [
    [team.key, 200, team.teamId],
    [other.key, 200, other.teamId],
    [revoked.key, 401, undefined],
    [team.key, 200, team.teamId],
    [unknown, 401, undefined],
    [other.key, 200, other.teamId],
  ];
  const server = t.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const raw = callers.map(([key]) => `GET /v1/users/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`);
    const { result, statements } = await countStatements(() => sendTogether(port, raw));
    const answers = result.map(({ status, body }) => [status, (JSON.parse(body) as { data?: { team: { id: string } } }).data?.team.id]);
    expect(answers).toEqual(callers.map(([, status, teamId]) => [status, teamId]));
    // PostgreSQL reads every request's key (PGlite caches them): here in one statement for all six.
    const lookups = statements.filter((sql) => /FROM api_keys WHERE key_hash/.test(sql)).length;
    if (database.kind === "postgresql") expect(lookups).toBe(1);
  } finally {
    server.close();
  }
});

describe("permissions", () => {
  let reportId: string;
  let showingId: string;
  let none: string; // a key of the team with no permission at all

  beforeAll(async () => {
    const created = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "12 Permission Pl" });
    reportId = created.body.data.id;
    const showing = await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId, attendee_name: "Pat" });
    showingId = showing.body.data.id;
    none = (await keyFor(team.teamId, { permissions: "" })).key;
  });

  const rest: Array<[string, string, () => [string, string, object?]]> = [
    ["reports:read", "GET /v1/reports", () => ["get", "/v1/reports"]],
    ["reports:read", "GET /v1/reports/:id", () => ["get", `/v1/reports/${reportId}`]],
    ["reports:create", "POST /v1/reports", () => ["post", "/v1/reports", { address: "1 New St" }]],
    ["reports:update", "PATCH /v1/reports/:id", () => ["patch", `/v1/reports/${reportId}`, { city: "Austin" }]],
    ["reports:delete", "DELETE /v1/reports/:id", () => ["delete", `/v1/reports/${reportId}`]],
    ["showings:read", "GET /v1/showings", () => ["get", "/v1/showings"]],
    ["showings:read", "GET /v1/showings/:id", () => ["get", `/v1/showings/${showingId}`]],
    ["showings:create", "POST /v1/showings", () => ["post", "/v1/showings", { report_id: reportId }]],
    ["showings:update", "PATCH /v1/showings/:id", () => ["patch", `/v1/showings/${showingId}`, { rating: 4 }]],
    ["showings:delete", "DELETE /v1/showings/:id", () => ["delete", `/v1/showings/${showingId}`]],
  ];

  const send = (key: string, [method, path, body]: [string, string, object?]) => {
    const req = (request(t.app) as unknown as Record<string, (p: string) => request.Test>)[method](path).set(bearer(key));
    return body ? req.send(body) : req;
  };

  it.each(rest)("REST needs %s for %s", async (permission, _route, route) => {
    const denied = await send(none, route());
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: { message: `Permission denied: ${permission}`, status: 403 } });
    expectRateLimitHeaders(denied);
    // A key holding just that permission (and read access to what the route returns) passes the check.
    const [resource] = permission.split(":");
    const { key } = await keyFor(team.teamId, { permissions: `${permission},${resource}:read,reports:read` });
    const allowed = await send(key, route());
    expect(allowed.status).not.toBe(403);
    expect(allowed.status).toBeLessThan(300);
    if (route()[0] === "delete") {
      // Put back what the allowed delete removed, for the next cases.
      const again = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "12 Permission Pl" });
      reportId = again.body.data.id;
      showingId = (await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId })).body.data.id;
    }
  });

  const graphql: Array<[string, () => string]> = [
    ["reports:read", () => `{ reports { total } }`],
    ["reports:read", () => `{ report(id: "${reportId}") { id } }`],
    ["reports:create", () => `mutation { createReport(input: { address: "9 Gql Way" }) { id } }`],
    ["reports:update", () => `mutation { updateReport(id: "${reportId}", input: { city: "Reno" }) { id } }`],
    ["reports:delete", () => `mutation { deleteReport(id: "00000000-0000-4000-8000-000000000000") }`],
    ["showings:read", () => `{ showings { total } }`],
    ["showings:create", () => `mutation { createShowing(input: { reportId: "${reportId}" }) { id } }`],
    ["showings:update", () => `mutation { updateShowing(id: "${showingId}", input: { rating: 2 }) { id } }`],
    ["showings:delete", () => `mutation { deleteShowing(id: "no-such-showing") }`],
    ["api_keys:read", () => `{ apiKeys { id } }`],
    ["api_keys:read", () => `{ apiKeyUsage { keyId count } }`],
    ["api_keys:read", () => `{ me { apiKey { quota { remaining } } } }`],
    ["api_keys:create", () => `mutation { createApiKey(input: { name: "x", permissions: ["reports:read"] }) { key } }`],
    ["api_keys:delete", () => `mutation { revokeApiKey(id: "00000000-0000-4000-8000-000000000000") { id } }`],
  ];

  it.each(graphql)("GraphQL needs %s", async (permission, query) => {
    const denied = await gql(bearer(none), query());
    expect(denied.body.errors[0]).toMatchObject({ message: `Permission denied: ${permission}`, extensions: { code: "FORBIDDEN", status: 403 } });
    expectRateLimitHeaders(denied);
    const { key } = await keyFor(team.teamId, { permissions: `${permission},reports:read` });
    const allowed = await gql(bearer(key), query());
    expect(String(allowed.body.errors?.[0]?.message)).not.toMatch(/^Permission denied/);
  });

  it("a key with reports:read only cannot create a report", async () => {
    const { key } = await keyFor(team.teamId, { permissions: "reports:read" });
    const res = await request(t.app).post("/v1/reports").set(bearer(key)).send({ address: "4 Read Only Rd" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { message: "Permission denied: reports:create", status: 403 } });
    const viaGraphql = await gql(bearer(key), `mutation { createReport(input: { address: "4 Read Only Rd" }) { id } }`);
    expect(viaGraphql.body.errors[0].message).toBe("Permission denied: reports:create");
    expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(200);
  });

  it("publishing needs reports:publish besides reports:update", async () => {
    const { key: updateOnly } = await keyFor(team.teamId, { permissions: "reports:read,reports:update" });
    const rest = await request(t.app).patch(`/v1/reports/${reportId}`).set(bearer(updateOnly)).send({ status: "published" });
    expect(rest.status).toBe(403);
    expect(rest.body.error.message).toBe("Permission denied: reports:publish");
    const viaGraphql = await gql(bearer(updateOnly), `mutation { updateReport(id: "${reportId}", input: { isDraft: false }) { status } }`);
    expect(viaGraphql.body.errors[0].message).toBe("Permission denied: reports:publish");
    expect((await request(t.app).patch(`/v1/reports/${reportId}`).set(bearer(updateOnly)).send({ city: "Boise" })).status).toBe(200);

    const { key: publisher } = await keyFor(team.teamId, { permissions: "reports:read,reports:update,reports:publish" });
    const published = await request(t.app).patch(`/v1/reports/${reportId}`).set(bearer(publisher)).send({ status: "published" });
    expect(published.status).toBe(200);
    expect((await request(t.app).get(`/v1/reports/${reportId}`).set(team.auth)).body.data).toMatchObject({ status: "published", is_published: true });
  });

  it("GET /v1/users/me needs only a valid key", async () => {
    const res = await request(t.app).get("/v1/users/me").set(bearer(none));
    expect(res.status).toBe(200);
    expect(res.body.data.api_key.permissions).toEqual({});
  });
});

describe("key management through GraphQL", () => {
  const CREATE = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id prefix permissions rateLimitTier } } }`;
  let admin: string;

  beforeAll(async () => {
    admin = (await keyFor(team.teamId, { permissions: "api_keys:*,reports:read,reports:create,showings:read" })).key;
  });

  it("creates a key that works at once, with the permissions asked for, shown in full only once", async () => {
    const res = await gql(bearer(admin), CREATE, { input: { name: "Reader", permissions: ["reports:read"] } });
    expect(res.body.errors).toBeUndefined();
    const { key, apiKey } = res.body.data.createApiKey;
    expect(key).toMatch(/^prs_sk_live_[A-Za-z0-9]{32}$/);
    expect(apiKey).toMatchObject({ prefix: key.slice(0, 16), permissions: { reports: ["read"] }, rateLimitTier: "standard" });
    const me = await request(t.app).get("/v1/users/me").set(bearer(key));
    expect(me.status).toBe(200);
    expect(me.body.data.api_key).toMatchObject({ name: "Reader", prefix: key.slice(0, 16), permissions: { reports: ["read"] } });
    expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(200);
    expect((await request(t.app).post("/v1/reports").set(bearer(key)).send({ address: "1 A St" })).status).toBe(403);

    const list = await gql(bearer(admin), `{ apiKeys { id prefix name } }`);
    expect(list.body.data.apiKeys).toContainEqual({ id: apiKey.id, prefix: key.slice(0, 16), name: "Reader" });
    expect(JSON.stringify(list.body)).not.toContain(key.slice(16));
    expect((await gql(bearer(admin), `{ apiKeys { key } }`)).body.errors[0].message).toMatch(/Cannot query field "key"/);
  });

  it("cannot grant more than the creator holds", async () => {
    const more = await gql(bearer(admin), CREATE, { input: { name: "Escalate", permissions: ["reports:read", "reports:delete"] } });
    expect(more.body.errors[0]).toMatchObject({ message: "Permission denied: reports:delete", extensions: { status: 403 } });
    // Without a list a key would get full team access, which this creator does not hold.
    const full = await gql(bearer(admin), CREATE, { input: { name: "Everything" } });
    expect(full.body.errors[0].extensions.status).toBe(403);
    const tier = await gql(bearer(admin), CREATE, { input: { name: "Fast", permissions: ["reports:read"], rateLimitTier: "enterprise" } });
    expect(tier.body.errors[0]).toMatchObject({ extensions: { status: 403 } });
    expect(tier.body.errors[0].message).toContain("enterprise");
    const before = await prisma.apiKey.count({ where: { teamId: team.teamId, name: { in: ["Escalate", "Everything", "Fast"] } } });
    expect(before).toBe(0);
  });

  it("refuses unknown permissions and past expiry dates with 400", async () => {
    const unknown = await gql(bearer(admin), CREATE, { input: { name: "Bad", permissions: ["houses:read"] } });
    expect(unknown.body.errors[0]).toMatchObject({ extensions: { status: 400 } });
    expect(unknown.body.errors[0].message).toContain("houses:read");
    const past = await gql(bearer(admin), CREATE, { input: { name: "Old", permissions: ["reports:read"], expiresAt: "2001-01-01T00:00:00Z" } });
    expect(past.body.errors[0]).toMatchObject({ message: "expiresAt must be in the future", extensions: { status: 400 } });
  });

  it("revokeApiKey stops the key on its next request, on both interfaces", async () => {
    const created = await gql(bearer(admin), CREATE, { input: { name: "Temp", permissions: ["reports:read"] } });
    const { key, apiKey } = created.body.data.createApiKey;
    expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(200);
    const revoked = await gql(bearer(admin), `mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`, { id: apiKey.id });
    expect(revoked.body.data.revokeApiKey.revokedAt).not.toBeNull();
    expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(401);
    expect((await gql(bearer(key), `{ reports { total } }`)).status).toBe(401);
  });

  it("cannot see or revoke another team's keys", async () => {
    const other = await createTeam({ name: "Rival Realty" });
    const otherKeyId = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: other.teamId } })).id;
    const res = await gql(bearer(admin), `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: otherKeyId });
    expect(res.body.errors[0]).toMatchObject({ message: "API key not found", extensions: { status: 404 } });
    expect((await request(t.app).get("/v1/users/me").set(other.auth)).status).toBe(200);
    const list = await gql(bearer(admin), `{ apiKeys { id } }`);
    expect(list.body.data.apiKeys.map((k: { id: string }) => k.id)).not.toContain(otherKeyId);
  });
});

describe("rate limits", () => {
  it("answers 429 after the tier's budget, on either interface, with headers and the spec's message", async () => {
    const { key } = await keyFor(team.teamId, { tier: "free" });
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = i % 2 ? await gql(bearer(key), ME_QUERY) : await request(t.app).get("/v1/users/me").set(bearer(key));
      expect(res.status).toBe(200);
      expectRateLimitHeaders(res, 5);
      remaining.push(res.headers["x-ratelimit-remaining"]);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    for (const [res, body] of [
      [await request(t.app).get("/v1/users/me").set(bearer(key)), { error: { message: "Rate limit exceeded. Please try again later.", status: 429 } }],
      [await gql(bearer(key), ME_QUERY), { errors: [{ message: "Rate limit exceeded. Please try again later.", extensions: { code: "RATE_LIMITED", status: 429 } }] }],
    ] as const) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual(body);
      expectRateLimitHeaders(res, 5);
      expect(res.headers["x-ratelimit-remaining"]).toBe("0");
      const retryAfter = Number(res.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
      expect(Math.abs(Number(res.headers["x-ratelimit-reset"]) - Date.now() / 1000 - retryAfter)).toBeLessThan(5);
    }
    // The budget is per key: another key of the same team is unaffected.
    const fresh = await keyFor(team.teamId, { tier: "free" });
    expect((await request(t.app).get("/v1/users/me").set(bearer(fresh.key))).status).toBe(200);
  });

  it("puts the headers on errors: 404 unknown route, 405, 400 malformed JSON, 404 unknown report", async () => {
    const responses = [
      await request(t.app).get("/v1/nowhere").set(team.auth),
      await request(t.app).get("/nowhere").set(team.auth),
      await request(t.app).put("/v1/users/me").set(team.auth),
      await request(t.app).post("/v1/reports").set(team.auth).set("Content-Type", "application/json").send("{bad json"),
      await request(t.app).get("/v1/reports/00000000-0000-4000-8000-000000000000").set(team.auth),
    ];
    expect(responses.map((r) => r.status)).toEqual([404, 404, 405, 400, 404]);
    for (const res of responses) {
      expect(res.body.error.status).toBe(res.status);
      expectRateLimitHeaders(res, 1000);
    }
  });

  it("limits requests presenting a key that is not valid per client address", async () => {
    const wrong = bearer("prs_sk_live_" + "Z".repeat(32));
    const first = await request(t.app).get("/v1/users/me").set(wrong);
    let left = Number(first.headers["x-ratelimit-remaining"]);
    expect(first.status).toBe(401);
    // A request presenting no key at all guesses nothing: 401, the budget shown but not spent.
    const none = await request(t.app).get("/v1/users/me");
    expect([none.status, Number(none.headers["x-ratelimit-remaining"])]).toEqual([401, left]);
    while (left > 0) left = Number((await request(t.app).get("/v1/users/me").set(bearer("prs_sk_live_" + "Y".repeat(32)))).headers["x-ratelimit-remaining"]);
    const limited = await request(t.app).post("/graphql").set(wrong).send({ query: ME_QUERY });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: [{ message: "Rate limit exceeded. Please try again later.", extensions: { code: "RATE_LIMITED", status: 429 } }] });
    expect(limited.headers["retry-after"]).toMatch(/^\d+$/);
    // Without a key the answer stays 401 (never a 429: there is nothing to throttle).
    const noKey = await request(t.app).post("/graphql").send({ query: ME_QUERY });
    expect([noKey.status, noKey.body.errors[0].extensions.code, noKey.headers["x-ratelimit-remaining"]]).toEqual([401, "UNAUTHENTICATED", "0"]);
    // A valid key is counted on its own budget, not the address's.
    expect((await request(t.app).get("/v1/users/me").set(team.auth)).status).toBe(200);
  });
});

describe("GET /v1/users/me", () => {
  it("has every field path of the spec, with live usage and a rate limit matching the headers", async () => {
    const mine = await createTeam({ name: "Usage Homes" });
    const first = await request(t.app).get("/v1/users/me").set(mine.auth);
    expect(first.status).toBe(200);
    const d = first.body.data;
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(d).toEqual({
      team: { id: mine.teamId, name: "Usage Homes", created_at: iso, member_count: expect.any(Number), reports_count: 0 },
      subscription: { plan: expect.any(String), status: expect.any(String), api_usage: { calls_this_month: 1, resets_at: iso } },
      api_key: {
        name: "test key",
        prefix: mine.key.slice(0, 16),
        permissions: expect.any(Object),
        rate_limit_tier: "standard",
        last_used_at: iso,
        created_at: iso,
      },
      rate_limit: { tier: "standard", remaining: Number(first.headers["x-ratelimit-remaining"]), resets_at: iso },
    });
    expect(new Date(d.rate_limit.resets_at).getTime()).toBe(Number(first.headers["x-ratelimit-reset"]) * 1000);
    expect(d.rate_limit.remaining).toBe(999);
    const now = new Date();
    expect(d.subscription.api_usage.resets_at).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());

    // Every authenticated call counts, REST or GraphQL, whether or not it succeeds.
    await request(t.app).get("/v1/reports").set(mine.auth);
    await gql(mine.auth, `{ reports { total } }`);
    await request(t.app).get("/v1/reports/00000000-0000-4000-8000-000000000000").set(mine.auth);
    const later = await request(t.app).get("/v1/users/me").set(mine.auth);
    expect(later.body.data.subscription.api_usage.calls_this_month).toBe(5);
    expect(later.body.data.rate_limit.remaining).toBe(995);
    expect(later.headers["x-ratelimit-remaining"]).toBe("995");
  });
});
