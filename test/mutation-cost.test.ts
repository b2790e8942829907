// What one request may cost and create: a GraphQL mutation request costs one rate-limit point per root mutation
// field (aliases count), refused whole with 429 when the rest of the hour cannot pay for it; a team holds a bounded
// number of active keys; and a key cannot create a key that outlives it. Against the real in-process stack.
// Budgets and caps are read from the configuration when src modules load: small ones are set before the imports.
const previousEnv = { free: process.env.RATE_LIMIT_FREE, maxKeys: process.env.MAX_KEYS_PER_TEAM };
process.env.RATE_LIMIT_FREE = "40";
process.env.MAX_KEYS_PER_TEAM = "10";

import request, { type Response } from "supertest";
import { createApiKey } from "../src/auth/api-keys";
import { ALL_PERMISSIONS, RESOURCES } from "../src/auth/permissions";
import { flushUsage } from "../src/auth/usage";
import { createKey } from "../src/cli/commands";
import { prisma } from "../src/db";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  for (const [name, value] of [["RATE_LIMIT_FREE", previousEnv.free], ["MAX_KEYS_PER_TEAM", previousEnv.maxKeys]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const gql = (headers: Record<string, string>, body: Record<string, unknown>) => request(t.app).post("/graphql").set(headers).send(body);
const remaining = (res: Response) => Number(res.headers["x-ratelimit-remaining"]);
/** Every permission, key management included (a key creates keys holding at most its own). */
const ADMIN = RESOURCES.map((r) => `${r}:*`).join(",");
const KEY_LIMIT = "Key limit reached: a team holds at most 10 active keys; revoke one first";

/** A mutation document with `n` aliased root fields made by `field(i)`. */
const aliased = (n: number, field: (i: number) => string, name = "") =>
  `mutation ${name} { ${Array.from({ length: n }, (_, i) => `m${i}: ${field(i)}`).join(" ")} }`;
const createReportField = (i: number) => `createReport(input: { address: "${i} Cost Street" }) { id }`;
const createKeyField = (i: number) => `createApiKey(input: { name: "k${i}" }) { apiKey { id } }`;
const activeKeys = (teamId: string) =>
  prisma.apiKey.count({ where: { teamId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] } });

describe("the cost of a GraphQL mutation request: one point per root mutation field", () => {
  let team: TestTeam;
  beforeEach(async () => {
    team = await createTeam({ tier: "free", permissions: ADMIN }); // 40 points an hour here
  });

  it("charges 30 aliased mutations 30 points, and refuses whole (429, nothing runs) one the rest of the hour cannot pay for", async () => {
    const first = await gql(team.auth, { query: aliased(30, createReportField) });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    expect(Object.keys(first.body.data)).toHaveLength(30);
    expect(first.headers["x-ratelimit-limit"]).toBe("40");
    expect(remaining(first)).toBe(10);

    const refused = await gql(team.auth, { query: aliased(30, createReportField) });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      errors: [
        {
          message: "Rate limit exceeded: this request's 30 mutations cost 30 requests and 10 are left this hour. Please try again later.",
          extensions: { code: "RATE_LIMITED", status: 429 },
        },
      ],
    });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["x-ratelimit-reset"]) % 3600).toBe(0);
    // The refused request spent its own point, as any refused request does, and nothing of it ran.
    expect(remaining(refused)).toBe(9);
    expect(await prisma.report.count({ where: { teamId: team.teamId } })).toBe(30);

    // What is left is still there for requests it pays for: exactly.
    const fits = await gql(team.auth, { query: aliased(9, createReportField) });
    expect(fits.status).toBe(200);
    expect(Object.keys(fits.body.data)).toHaveLength(9);
    expect(remaining(fits)).toBe(0);
    expect(fits.headers["retry-after"]).toBeUndefined();
    expect(await prisma.report.count({ where: { teamId: team.teamId } })).toBe(39);
    expect((await gql(team.auth, { query: "{ me { team { id } } }" })).status).toBe(429);
  });

  it("counts the operation that runs (operationName) with the fields its fragments put at the root; a query costs one point", async () => {
    const document = `
      query Read { me { team { id } } }
      mutation Two { ...Pair }
      mutation Five { ...Pair ... on Mutation { c: createReport(input: { address: "3 Cost Street" }) { id } d: createReport(input: { address: "4 Cost Street" }) { id } } e: createReport(input: { address: "5 Cost Street" }) { id } }
      fragment Pair on Mutation { a: createReport(input: { address: "1 Cost Street" }) { id } b: createReport(input: { address: "2 Cost Street" }) { id } }`;
    const read = await gql(team.auth, { query: document, operationName: "Read" });
    expect(read.status).toBe(200);
    expect(remaining(read)).toBe(39);
    const two = await gql(team.auth, { query: document, operationName: "Two" });
    expect(Object.keys(two.body.data)).toEqual(["a", "b"]);
    expect(remaining(two)).toBe(37);
    const five = await gql(team.auth, { query: document, operationName: "Five" });
    expect(Object.keys(five.body.data).sort()).toEqual(["a", "b", "c", "d", "e"]);
    expect(remaining(five)).toBe(32);
    // A single mutation costs one point, as before; __typename is no mutation.
    const one = await gql(team.auth, { query: `mutation { __typename ${createReportField(9)} }` });
    expect(one.status).toBe(200);
    expect(remaining(one)).toBe(31);
  });

  it("counts the points of requests that ran in the key's hourly usage and the team's calls this month, not a refused one", async () => {
    expect(remaining(await gql(team.auth, { query: aliased(12, createReportField) }))).toBe(28);
    expect((await gql(team.auth, { query: aliased(30, createReportField) })).status).toBe(429);
    await flushUsage();
    const usage = await gql(team.auth, { query: "{ apiKeyUsage(hours: 1) { count } me { subscription { apiUsage { callsThisMonth } } } }" });
    const hourly = usage.body.data.apiKeyUsage.reduce((sum: number, h: { count: number }) => sum + h.count, 0);
    // 12 for the mutations and 1 for this request; the 429 is no call, as no 429 is (it spent its own point).
    expect(hourly).toBe(13);
    expect(usage.body.data.me.subscription.apiUsage.callsThisMonth).toBe(13);
    expect(remaining(usage)).toBe(26);
  });
});

describe("keys per team", () => {
  it("holds at most MAX_KEYS_PER_TEAM active keys, however many creates arrive together", async () => {
    const team = await createTeam({ permissions: ADMIN }); // one key
    const burst = () => gql(team.auth, { query: aliased(5, createKeyField) });
    const answers = await Promise.all(Array.from({ length: 6 }, burst));
    expect(await activeKeys(team.teamId)).toBe(10);
    const errors = answers.flatMap((res) => res.body.errors ?? []);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.message).toBe(KEY_LIMIT);
      expect(error.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    }
  });

  it("does not count revoked or expired keys; the CLI's key create keeps the same cap", async () => {
    const team = await createTeam({ permissions: ADMIN });
    for (let i = 0; i < 9; i++) await createApiKey({ teamId: team.teamId, name: `key ${i}` });
    const refused = await gql(team.auth, { query: aliased(1, createKeyField) });
    expect(refused.body.errors[0]).toMatchObject({ message: KEY_LIMIT, extensions: { status: 400 } });
    await expect(createKey({ teamId: team.teamId, name: "from the CLI" })).rejects.toThrow(KEY_LIMIT);
    expect(await prisma.apiKey.count({ where: { teamId: team.teamId } })).toBe(10);

    const [revoked, expired] = await prisma.apiKey.findMany({ where: { teamId: team.teamId, name: { startsWith: "key " } }, take: 2 });
    await prisma.apiKey.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    await prisma.apiKey.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = await gql(team.auth, { query: aliased(1, createKeyField) });
    expect(again.body.errors).toBeUndefined();
    expect((await createKey({ teamId: team.teamId, name: "from the CLI" })).join("\n")).toContain("Created key 'from the CLI'");
    expect(await activeKeys(team.teamId)).toBe(10);
  });
});

describe("a key cannot create a key that outlives it", () => {
  const create = (auth: Record<string, string>, expiresAt?: string) =>
    gql(auth, {
      query: "mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { expiresAt } } }",
      variables: { input: { name: "child", ...(expiresAt ? { expiresAt } : {}) } },
    });

  it("gives a key without expiresAt its creator's expiry, refuses a later one (403 naming expiresAt), keeps an earlier one", async () => {
    const team = await createTeam({ permissions: ADMIN });
    const tomorrow = new Date(Math.ceil(Date.now() / 1000) * 1000 + 86_400_000);
    const { key } = await createApiKey({ teamId: team.teamId, name: "expiring", expiresAt: tomorrow, permissions: ALL_PERMISSIONS });
    const expiring = { Authorization: `Bearer ${key}` };

    const inherits = await create(expiring);
    expect(inherits.body.errors).toBeUndefined();
    expect(inherits.body.data.createApiKey.apiKey.expiresAt).toBe(tomorrow.toISOString());

    const later = new Date(tomorrow.getTime() + 1000).toISOString();
    const refused = await create(expiring, later);
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors[0]).toMatchObject({
      message: `Permission denied: expiresAt ${later} is after this key's own expiry ${tomorrow.toISOString()}`,
      extensions: { code: "FORBIDDEN", status: 403 },
    });

    const earlier = new Date(tomorrow.getTime() - 3_600_000).toISOString();
    expect((await create(expiring, earlier)).body.data.createApiKey.apiKey.expiresAt).toBe(earlier);
    expect(await prisma.apiKey.count({ where: { teamId: team.teamId, OR: [{ expiresAt: null }, { expiresAt: { gt: tomorrow } }] } })).toBe(1); // the team's first key
  });

  it("lets a key that never expires create keys that never expire", async () => {
    const team = await createTeam({ permissions: ADMIN });
    expect((await create(team.auth)).body.data.createApiKey.apiKey.expiresAt).toBeNull();
  });
});
