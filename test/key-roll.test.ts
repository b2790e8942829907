// Rolling a key (docs/api.md "Key roll"): a new key with the old one's name, permissions, tier and
// expiry, shown once; the old key works until the overlap ends, then answers 401 at that instant (compared with the
// clock at each request, also for a row this process already holds); both spend one hourly budget meanwhile; a key's
// last use says when, from which address and which route.
import request from "supertest";
import { hashApiKey } from "../src/auth/keys";
import { prisma } from "../src/db";
import { parseInvocation } from "../src/cli/args";
import { addKey, createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let admin: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTeam({ permissions: "api_keys:*,reports:*,audit_log:read" });
});
afterAll(() => t.close());

const gql = (auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}) => request(t.app).post("/graphql").set(auth).send({ query, variables });
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const ROLL = `mutation($id: ID!, $overlap: ApiKeyRollOverlap!) {
  rollApiKey(id: $id, overlap: $overlap) { key apiKey { id name description permissions rateLimitTier expiresAt } previousKey { id expiresAt replacedById } }
}`;
const idOf = async (key: string) => (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(key) } })).id;

async function newKey(input: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const res = await gql(admin.auth, `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id } } }`, { input });
  return { key: res.body.data.createApiKey.key, id: res.body.data.createApiKey.apiKey.id };
}

it("makes a key like the old one, shown once, and lets the old one work until the overlap ends", async () => {
  const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const old = await newKey({ name: "CRM sync", description: "nightly", permissions: ["reports:read"], rateLimitTier: "free", expiresAt });
  const before = Date.now();
  const res = await gql(admin.auth, ROLL, { id: old.id, overlap: "DAY" });
  const rolled = res.body.data.rollApiKey;
  expect(rolled.key).toMatch(/^prs_sk_live_[A-Za-z0-9]{32}$/);
  expect(rolled.apiKey).toMatchObject({ name: "CRM sync", description: "nightly", permissions: { reports: ["read"] }, rateLimitTier: "free", expiresAt });
  expect(rolled.previousKey.replacedById).toBe(rolled.apiKey.id);
  const ends = new Date(rolled.previousKey.expiresAt).getTime();
  expect(ends).toBeGreaterThanOrEqual(before + 86_400_000);
  expect(ends).toBeLessThanOrEqual(Date.now() + 86_400_000);

  for (const key of [old.key, rolled.key]) expect((await request(t.app).get("/v1/reports").set(bearer(key))).status).toBe(200);
  // The full key is never shown again.
  const list = await gql(admin.auth, `{ apiKeys { id prefix } }`);
  expect(JSON.stringify(list.body)).not.toContain(rolled.key);
  // Rolling the old key again is refused; the new one can be rolled in turn.
  expect((await gql(admin.auth, ROLL, { id: old.id, overlap: "NONE" })).body.errors[0]).toMatchObject({
    message: "API key was already rolled: roll the key that replaced it",
    extensions: { code: "BAD_USER_INPUT" },
  });
});

it("refuses the old key at the instant its overlap ends, even a key row this process holds", async () => {
  const old = await newKey({ name: "soon", permissions: ["reports:read"] });
  const rolled = (await gql(admin.auth, ROLL, { id: old.id, overlap: "HOUR" })).body.data.rollApiKey;
  // A short overlap for the test: the end of the overlap is the stored expiry every check compares with the clock.
  await prisma.$executeRaw`UPDATE api_keys SET expires_at = now() + interval '1500 milliseconds' WHERE id = ${old.id}::uuid`;
  expect((await request(t.app).get("/v1/reports").set(bearer(old.key))).status).toBe(200); // read (and cached) now
  await new Promise((resolve) => setTimeout(resolve, 1700));
  for (const path of ["/v1/reports", "/v1/users/me"]) {
    expect(errorOf(await request(t.app).get(path).set(bearer(old.key)))).toEqual({ status: 401, message: "Invalid API key" });
  }
  const graphql = await gql(bearer(old.key), `{ me { team { id } } }`);
  expect(graphql.status).toBe(401);
  expect((await request(t.app).get("/v1/reports").set(bearer(rolled.key))).status).toBe(200);
});

it("with no overlap, refuses the old key at once", async () => {
  const old = await newKey({ name: "now", permissions: ["reports:read"] });
  expect((await request(t.app).get("/v1/reports").set(bearer(old.key))).status).toBe(200);
  const rolled = (await gql(admin.auth, ROLL, { id: old.id, overlap: "NONE" })).body.data.rollApiKey;
  expect(errorOf(await request(t.app).get("/v1/reports").set(bearer(old.key)))).toEqual({ status: 401, message: "Invalid API key" });
  expect((await request(t.app).get("/v1/reports").set(bearer(rolled.key))).status).toBe(200);
});

it("counts both keys against one hourly budget during the overlap", async () => {
  const old = await newKey({ name: "budget", permissions: ["reports:read"], rateLimitTier: "free" });
  const remaining = async (key: string) => Number((await request(t.app).get("/v1/users/me").set(bearer(key))).headers["x-ratelimit-remaining"]);
  const first = await remaining(old.key);
  const rolled = (await gql(admin.auth, ROLL, { id: old.id, overlap: "HOUR" })).body.data.rollApiKey;
  const seen = [await remaining(rolled.key), await remaining(old.key), await remaining(rolled.key), await remaining(old.key)];
  expect(seen).toEqual([first - 1, first - 2, first - 3, first - 4]);
  const quotas = (await gql(admin.auth, `{ apiKeys { id quota { remaining } } }`)).body.data.apiKeys;
  const quota = (id: string) => quotas.find((k: { id: string }) => k.id === id).quota.remaining;
  expect(quota(old.id)).toBe(first - 4);
  expect(quota(rolled.apiKey.id)).toBe(first - 4);
});

it("refuses what the caller may not mint and keys that cannot be rolled, naming why", async () => {
  const limited = await addKey(admin.teamId, "api_keys:read,api_keys:create,api_keys:delete");
  const strong = await newKey({ name: "strong", permissions: ["reports:read", "reports:delete"] });
  expect((await gql(limited, ROLL, { id: strong.id, overlap: "NONE" })).body.errors[0]).toMatchObject({ message: "Permission denied: reports:read", extensions: { code: "FORBIDDEN" } });
  const reader = await addKey(admin.teamId, "api_keys:read,api_keys:create");
  expect((await gql(reader, ROLL, { id: strong.id, overlap: "NONE" })).body.errors[0]).toMatchObject({ message: "Permission denied: api_keys:delete" });
  expect((await gql(admin.auth, ROLL, { id: "00000000-0000-4000-8000-000000000000", overlap: "NONE" })).body.errors[0]).toMatchObject({ message: "API key not found", extensions: { code: "NOT_FOUND" } });
  await gql(admin.auth, `mutation($id: ID!) { revokeApiKey(id: $id) { id } }`, { id: strong.id });
  expect((await gql(admin.auth, ROLL, { id: strong.id, overlap: "NONE" })).body.errors[0]).toMatchObject({ message: "API key is revoked: it cannot be rolled" });
  expect((await gql(admin.auth, ROLL, { id: strong.id, overlap: "MONTH" })).body.errors[0].message).toMatch(/NONE, HOUR, DAY, WEEK/);
  // Another team's key is not found.
  const other = await createTeam();
  expect((await gql(admin.auth, ROLL, { id: await idOf(other.key), overlap: "NONE" })).body.errors[0]).toMatchObject({ extensions: { code: "NOT_FOUND" } });
});

it("CLI: prs key roll <key> [--overlap 0|1h|24h|7d]", () => {
  expect(parseInvocation(["key", "roll", "prs_sk_live_abcd", "--overlap", "24h"])).toHaveProperty("run");
  expect(() => parseInvocation(["key", "roll", "prs_sk_live_abcd", "--overlap", "2h"])).toThrow("--overlap must be 0, 1h, 24h or 7d, got '2h'");
  expect(() => parseInvocation(["key", "roll"])).toThrow("Missing argument <key>");
});

it("says when, from which address and with which route a key was last used", async () => {
  const { key, id } = await newKey({ name: "traced", permissions: ["reports:read"] });
  const report = await request(t.app).post("/v1/reports").set(admin.auth).send({ address: "1 Trace St" });
  expect((await request(t.app).get(`/v1/reports/${report.body.data.id}`).set(bearer(key))).status).toBe(200);
  const keys = (await gql(admin.auth, `{ apiKeys { id lastUsedAt lastUsedIp lastUsedRoute } }`)).body.data.apiKeys;
  const used = keys.find((k: { id: string }) => k.id === id);
  expect(used.lastUsedAt).toBeTruthy();
  expect(used.lastUsedIp).toMatch(/127\.0\.0\.1|::1/);
  expect(used.lastUsedRoute).toBe("GET /v1/reports/{reportId}");
  // The admin key's first use in this file (within the minute, the last use written) was a GraphQL request.
  const adminId = await idOf(admin.key);
  expect(keys.find((k: { id: string }) => k.id === adminId).lastUsedRoute).toBe("POST /graphql");
});

it("holds the team at 100 active keys when 20 rolls arrive together at the cap", async () => {
  const team = await createTeam({ permissions: "api_keys:*,reports:read" });
  const keys = await Promise.all(
    Array.from({ length: 99 }, (_, i) =>
      prisma.apiKey.create({
        data: { teamId: team.teamId, name: `k${i}`, permissions: { reports: ["read"] }, keyHash: `hash-cap-${team.teamId}-${i}`, prefix: `prs_cap${i}` },
        select: { id: true },
      }),
    ),
  );
  const active = () => prisma.apiKey.count({ where: { teamId: team.teamId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] } });
  expect(await active()).toBe(100);
  const answers = await Promise.all(keys.slice(0, 20).map(({ id }) => gql(team.auth, ROLL, { id, overlap: "HOUR" })));
  expect(await active()).toBe(100);
  for (const res of answers) {
    expect(res.body.errors?.[0]).toMatchObject({ message: "Key limit reached: a team holds at most 100 active keys; revoke one first", extensions: { code: "BAD_USER_INPUT" } });
  }
  // Without an overlap the old key stops at once: the roll keeps the count and is allowed at the cap.
  const none = await gql(team.auth, ROLL, { id: keys[0].id, overlap: "NONE" });
  expect(none.body.errors).toBeUndefined();
  expect(await active()).toBe(100);
});
