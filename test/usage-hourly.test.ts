// Requests per key and clock hour (the dashboard's usage chart) and each key's remaining hourly quota: counted in
// memory, written in one upsert statement per flush, read through GraphQL with api_keys:read.
// No timed flush during the file (set before src modules load): the test flushes when it means to.
const previousFlush = process.env.USAGE_FLUSH_MS;
process.env.USAGE_FLUSH_MS = "600000";

import request from "supertest";
import { flushUsage, hourStart } from "../src/auth/usage";
import { prisma } from "../src/db";
import { addKey, countStatements, createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let admin: TestTeam;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTeam({ permissions: "api_keys:read,api_keys:create,reports:read" });
});
afterAll(async () => {
  await t.close();
  process.env.USAGE_FLUSH_MS = previousFlush;
});

const USAGE = `{ apiKeyUsage { keyId hour count } apiKeys { id quota { limit remaining resetsAt } } }`;
const usage = async () => (await request(t.app).post("/graphql").set(admin.auth).send({ query: USAGE })).body.data;

it("counts each key's requests per clock hour, before and after they are written, in one statement per flush", async () => {
  const other = await addKey(admin.teamId, "reports:read");
  const otherId = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: admin.teamId, name: "key reports:read" } })).id;
  const adminId = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: admin.teamId, name: "test key" } })).id;
  await flushUsage();
  for (let i = 0; i < 3; i++) expect((await request(t.app).get("/v1/reports").set(other)).status).toBe(200);

  // Not written yet: read together with this process's buffer.
  const before = await usage();
  const hour = hourStart().toISOString();
  expect(before.apiKeyUsage).toContainEqual({ keyId: otherId, hour, count: 3 });

  const { statements } = await countStatements(() => flushUsage());
  expect(statements.filter((sql) => sql.includes("api_key_hourly_usage"))).toHaveLength(1);
  expect(await prisma.apiKeyHourlyUsage.findUnique({ where: { keyId_hour: { keyId: otherId, hour: new Date(hour) } } })).toMatchObject({ count: 3 });

  await request(t.app).get("/v1/reports").set(other);
  const after = await usage();
  expect(after.apiKeyUsage).toContainEqual({ keyId: otherId, hour, count: 4 });
  // The admin's own reads are counted too (one per request, this one included once written or buffered).
  expect(after.apiKeyUsage.find((row: { keyId: string }) => row.keyId === adminId).count).toBeGreaterThanOrEqual(2);

  const quota = after.apiKeys.find((k: { id: string }) => k.id === otherId).quota;
  expect(quota).toEqual({ limit: 1000, remaining: 996, resetsAt: new Date(hourStart().getTime() + 3_600_000).toISOString() });
});

it("answers only the caller's team, and refuses hours out of range with a clear error", async () => {
  const stranger = await createTeam({ permissions: "api_keys:read" });
  await request(t.app).get("/v1/users/me").set(stranger.auth);
  const mine = await usage();
  const strangerKey = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: stranger.teamId } })).id;
  expect(mine.apiKeyUsage.map((r: { keyId: string }) => r.keyId)).not.toContain(strangerKey);

  const res = await request(t.app).post("/graphql").set(admin.auth).send({ query: `{ apiKeyUsage(hours: 0) { count } }` });
  expect(res.status).toBe(200);
  expect(res.body.errors[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
  expect(res.body.errors[0].message).toMatch(/at least 1/);
});

it("leaves out hours before the window", async () => {
  const keyId = (await prisma.apiKey.findFirstOrThrow({ where: { teamId: admin.teamId, name: "test key" } })).id;
  const old = new Date(hourStart().getTime() - 10 * 3_600_000);
  await prisma.apiKeyHourlyUsage.create({ data: { keyId, hour: old, count: 7 } });
  const res = await request(t.app).post("/graphql").set(admin.auth).send({ query: `{ apiKeyUsage(hours: 5) { hour count } }` });
  expect(res.body.data.apiKeyUsage.map((r: { hour: string }) => r.hour)).not.toContain(old.toISOString());
  const wide = await request(t.app).post("/graphql").set(admin.auth).send({ query: `{ apiKeyUsage(hours: 11) { hour count } }` });
  expect(wide.body.data.apiKeyUsage).toContainEqual({ hour: old.toISOString(), count: 7 });
});
