// The audit log (docs/api.md "Audit log"): every audited change appears once, with the key that
// made it (or the CLI), the client address and request id and the changed fields' before/after, never a secret; a
// change that rolls back records nothing; nothing can change or delete an entry but the retention job; GET
// /v1/audit-log and GraphQL's auditLog read it with filters, under audit_log:read.
// Endpoint URLs on this machine are accepted (set before src modules load).
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";

import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import request from "supertest";
import { pruneAuditLog } from "../src/audit/retention";
import { hashApiKey } from "../src/auth/keys";
import { parsePermissions, TEAM_FULL_ACCESS } from "../src/auth/permissions";
import { revokeKey, rollKey } from "../src/cli/commands";
import { parseInvocation } from "../src/cli/args";
import { HELP } from "../src/cli/usage";
import { database, prisma } from "../src/db";
import { readMigrations } from "../src/db/migrate";
import { addKey, createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";

let t: TestApp;
let admin: TestTeam;
let adminKeyId: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTeam({ name: "Audited Realty", permissions: "api_keys:*,reports:*,webhooks:*,audit_log:read" });
  adminKeyId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(admin.key) } })).id;
});
afterAll(() => t.close());

const gql = (auth: Record<string, string>, query: string, variables: Record<string, unknown> = {}, requestId?: string) =>
  request(t.app)
    .post("/graphql")
    .set({ ...auth, ...(requestId ? { "X-Request-Id": requestId } : {}) })
    .send({ query, variables });

interface Entry {
  id: string;
  action: string;
  actor: { type: string; key_id: string | null; key_name: string | null; key_prefix: string | null };
  target: { type: string; id: string };
  changes: Record<string, { before: unknown; after: unknown }>;
  ip: string | null;
  request_id: string | null;
  created_at: string;
}

async function log(query = ""): Promise<{ data: Entry[]; total: number }> {
  const res = await restClient(t.app, admin.auth).get(`/v1/audit-log${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

const CREATE = `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id prefix } } }`;
const ROLL = `mutation($id: ID!, $overlap: ApiKeyRollOverlap!) { rollApiKey(id: $id, overlap: $overlap) { key apiKey { id } previousKey { expiresAt } } }`;
const REVOKE = `mutation($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;

it("records each key change once, with the acting key, address, request id and before/after, and no secret", async () => {
  const created = await gql(admin.auth, CREATE, { input: { name: "Zapier", permissions: ["reports:read"] } }, "req-create-1");
  const { key, apiKey } = created.body.data.createApiKey;
  const rolled = await gql(admin.auth, ROLL, { id: apiKey.id, overlap: "HOUR" }, "req-roll-1");
  const newKey = rolled.body.data.rollApiKey;
  const revoked = await gql(admin.auth, REVOKE, { id: newKey.apiKey.id }, "req-revoke-1");
  expect(revoked.body.data.revokeApiKey.revokedAt).toBeTruthy();
  await gql(admin.auth, REVOKE, { id: newKey.apiKey.id }); // already revoked: no change, no entry

  const { data } = await log();
  const ofKeys = data.filter((e) => [apiKey.id, newKey.apiKey.id].includes(e.target.id));
  expect(ofKeys.map((e) => [e.action, e.target.id, e.request_id])).toEqual([
    ["api_key.revoked", newKey.apiKey.id, "req-revoke-1"],
    ["api_key.rolled", apiKey.id, "req-roll-1"],
    ["api_key.created", apiKey.id, "req-create-1"],
  ]);
  const adminPrefix = admin.key.slice(0, 16);
  for (const entry of ofKeys) {
    expect(entry.actor).toEqual({ type: "api_key", key_id: adminKeyId, key_name: "test key", key_prefix: adminPrefix });
    expect(entry.ip).toMatch(/127\.0\.0\.1|::1/);
    expect(entry.target.type).toBe("api_key");
  }
  const [revokedEntry, rolledEntry, createdEntry] = ofKeys;
  expect(createdEntry.changes).toMatchObject({ name: { before: null, after: "Zapier" }, permissions: { before: null, after: { reports: ["read"] } }, prefix: { before: null, after: apiKey.prefix } });
  expect(rolledEntry.changes).toEqual({
    expires_at: { before: null, after: newKey.previousKey.expiresAt },
    replaced_by_key_id: { before: null, after: newKey.apiKey.id },
  });
  expect(Object.keys(revokedEntry.changes)).toEqual(["revoked_at"]);

  // No key, hash or secret anywhere in the log.
  const text = JSON.stringify(data);
  for (const secret of [key, newKey.key, hashApiKey(key), hashApiKey(newKey.key), admin.key, hashApiKey(admin.key)]) expect(text).not.toContain(secret);
});

it("records a report's creation, each update and publication with what changed, and a saved summary", async () => {
  const report = await request(t.app).post("/v1/reports").set(admin.auth).send({ address: "14 Audit Lane", price: 500000, show_comps_on_report: false });
  const id = report.body.data.id as string;
  const patch = (body: Record<string, unknown>) => request(t.app).patch(`/v1/reports/${id}`).set(admin.auth).send(body);
  expect((await patch({ price: 489000, show_showings_on_report: false })).status).toBe(200);
  expect((await patch({ status: "published" })).status).toBe(200);
  expect((await patch({ description: "Only a long text changed." })).status).toBe(200);
  const writer = await addKey(admin.teamId, "ai_insights:create,reports:update");
  expect((await request(t.app).post(`/v1/reports/${id}/summary`).set(writer).send({})).status).toBe(200);
  const entries = (await log(`?target_id=${id}`)).data.reverse();
  expect(entries.map((e: { action: string }) => e.action)).toEqual(["report.created", "report.updated", "report.published", "report.updated", "summary.generated"]);
  const [created, updated, published, described, summary] = entries;
  expect(created.changes).toMatchObject({ address: { before: null, after: "14 Audit Lane" }, price: { before: null, after: 500000 }, show_comps_on_report: { before: null, after: false } });
  expect(updated.changes).toEqual({ price: { before: 500000, after: 489000 }, show_showings_on_report: { before: true, after: false } });
  expect(published.changes).toEqual({ status: { before: "draft", after: "published" } });
  // Long texts are not copied into the log: the entry says a change was made, not what the text became.
  expect(described.changes).toEqual({});
  expect(summary).toMatchObject({ target: { type: "report", id }, changes: {}, actor: { type: "api_key" } });
});

it("records a report's deletion with what it was, and the CLI as the actor of its key commands", async () => {
  const report = await request(t.app).post("/v1/reports").set(admin.auth).send({ address: "12 Audit Lane", city: "Springfield" });
  expect((await request(t.app).delete(`/v1/reports/${report.body.data.id}`).set(admin.auth)).status).toBe(200);
  const [deleted] = (await log(`?action=report.deleted&target_id=${report.body.data.id}`)).data;
  expect(deleted).toMatchObject({ action: "report.deleted", target: { type: "report", id: report.body.data.id }, actor: { key_id: adminKeyId } });
  expect(deleted.changes).toMatchObject({ address: { before: "12 Audit Lane", after: null }, city: { before: "Springfield", after: null }, status: { before: "draft", after: null } });

  const cliKey = await addKey(admin.teamId, "reports:read");
  const cliKeyRow = await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(cliKey.Authorization.slice(7)) } });
  const rolled = await rollKey(cliKeyRow.prefix, "NONE");
  const newKey = rolled.at(-1)!;
  await revokeKey(newKey);
  const newKeyId = (await prisma.apiKey.findFirstOrThrow({ where: { keyHash: hashApiKey(newKey) } })).id;
  const entries = [...(await log(`?target_id=${cliKeyRow.id}`)).data, ...(await log(`?target_id=${newKeyId}`)).data];
  expect(entries.map((e) => [e.action, e.actor, e.ip, e.request_id])).toEqual([
    ["api_key.rolled", { type: "cli", key_id: null, key_name: null, key_prefix: null }, null, null],
    ["api_key.revoked", { type: "cli", key_id: null, key_name: null, key_prefix: null }, null, null],
  ]);
  expect(JSON.stringify(entries)).not.toContain(newKey);
});

it("records webhook endpoint and share link changes, never a secret or token", async () => {
  const api = restClient(t.app, admin.auth);
  const created = await api.post("/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["report.created"] });
  expect(created.status).toBe(201);
  const hook = created.body.data;
  expect((await api.patch(`/v1/webhooks/${hook.id}`, { enabled: false })).status).toBe(200);
  expect((await api.patch(`/v1/webhooks/${hook.id}`, { enabled: false })).status).toBe(200); // nothing changed: no entry
  const rotated = await api.post(`/v1/webhooks/${hook.id}/rotate-secret`, {});
  expect(rotated.status).toBe(200);
  expect((await api.delete(`/v1/webhooks/${hook.id}`)).status).toBe(200);
  const hookEntries = (await log(`?target_id=${hook.id}`)).data;
  expect(hookEntries.map((e) => e.action)).toEqual(["webhook.deleted", "webhook.secret_rotated", "webhook.updated", "webhook.created"]);
  const [deleted, rotation, disabled, made] = hookEntries;
  expect(made.changes).toEqual({
    url: { before: null, after: "http://127.0.0.1:9/hook" },
    events: { before: null, after: ["report.created"] },
    enabled: { before: null, after: true },
  });
  expect(disabled.changes).toEqual({ enabled: { before: true, after: false } });
  expect(rotation.changes).toEqual({});
  expect(deleted.changes).toMatchObject({ url: { before: "http://127.0.0.1:9/hook", after: null }, enabled: { before: false, after: null } });
  for (const entry of hookEntries) expect(entry.actor.key_id).toBe(adminKeyId);

  const report = await api.post("/v1/reports", { address: "7 Shared Way" });
  const link = await api.post(`/v1/reports/${report.body.data.id}/share-links`, { label: "For the Smiths" });
  expect(link.status).toBe(201);
  expect((await api.delete(`/v1/reports/${report.body.data.id}/share-links/${link.body.data.id}`)).status).toBe(200);
  const linkEntries = (await log(`?target_id=${link.body.data.id}`)).data;
  expect(linkEntries.map((e) => e.action)).toEqual(["share_link.revoked", "share_link.created"]);
  expect(linkEntries[1].changes).toMatchObject({ report_id: { before: null, after: report.body.data.id }, label: { before: null, after: "For the Smiths" } });
  expect(Object.keys(linkEntries[0].changes)).toEqual(["revoked_at"]);

  const text = JSON.stringify([...hookEntries, ...linkEntries]);
  for (const secret of [hook.secret, rotated.body.data.secret, link.body.data.token, link.body.data.url]) expect(text).not.toContain(secret);
});

it("records an endpoint URL with its user info and query values redacted, and a change of its token as a change", async () => {
  const api = restClient(t.app, admin.auth);
  const created = await api.post("/v1/webhooks", { url: "http://127.0.0.1:9/a", events: ["report.created"] });
  const hook = created.body.data;
  const secretUrl = "http://user:pass@127.0.0.1:9/b?token=SECRET&v=2#frag";
  expect((await api.patch(`/v1/webhooks/${hook.id}`, { url: secretUrl })).status).toBe(200);
  expect((await api.patch(`/v1/webhooks/${hook.id}`, { url: "http://user:pass@127.0.0.1:9/b?token=OTHER&v=2#frag" })).status).toBe(200);
  expect((await api.delete(`/v1/webhooks/${hook.id}`)).status).toBe(200);
  const [deleted, tokenChanged, updated] = (await log(`?target_id=${hook.id}`)).data;
  const redacted = "http://***@127.0.0.1:9/b?token=***&v=***#***";
  expect(updated.changes).toEqual({ url: { before: "http://127.0.0.1:9/a", after: redacted } });
  expect(tokenChanged.changes).toEqual({ url: { before: redacted, after: redacted } });
  expect(deleted.changes.url).toEqual({ before: redacted, after: null });
  const graphql = await gql(admin.auth, `{ auditLog(targetId: "${hook.id}", first: 10) { edges { node { changes } } } }`);
  const text = JSON.stringify([deleted, tokenChanged, updated, graphql.body]);
  for (const secret of ["pass", "SECRET", "OTHER", "frag"]) expect(text).not.toContain(secret);
});

it("redacts URLs stored before (migration redact_stored_urls) and leaves the log append-only", async () => {
  const migration = (await readMigrations()).find((m) => m.name.endsWith("_redact_stored_urls"))!;
  const hookId = randomUUID();
  const stored = { url: { before: "https://hooks.example.com/x", after: "https://user:pass@hooks.example.com/b?token=SECRET" }, enabled: { before: true, after: false } };
  await prisma.$executeRaw`
    INSERT INTO audit_log (id, team_id, action, actor_type, target_type, target_id, changes)
    VALUES (${randomUUID()}::uuid, ${admin.teamId}::uuid, 'webhook.updated', 'cli', 'webhook', ${hookId}, ${JSON.stringify(stored)}::jsonb)`;
  const endpoint = await prisma.webhookEndpoint.create({ data: { teamId: admin.teamId, url: "https://hooks.example.com/b", events: ["*"], secret: "whsec_x" } });
  const event = await prisma.webhookEvent.create({ data: { id: `evt_${randomUUID().slice(0, 24)}`, teamId: admin.teamId, type: "report.created", data: {} } });
  const refused = "Request cannot be constructed from a URL that includes credentials: https://user:pass@hooks.example.com/b?token=SECRET";
  const delivery = await prisma.webhookDelivery.create({ data: { teamId: admin.teamId, eventId: event.id, endpointId: endpoint.id, status: "failed", error: refused } });

  // The migration's own SQL, applied again under another name (it was applied to this database at start).
  const dir = mkdtempSync(path.join(os.tmpdir(), "prs-redact-"));
  const name = `99990101000000_redact_again_${randomUUID().slice(0, 8)}`;
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, "migration.sql"), migration.sql);
  try {
    expect(await database.migrate(dir)).toEqual([name]);
  } finally {
    await prisma.$executeRaw`DELETE FROM "_prisma_migrations" WHERE migration_name = ${name}`;
    rmSync(dir, { recursive: true, force: true });
  }
  const [entry] = (await log(`?target_id=${hookId}`)).data;
  expect(entry.changes).toEqual({ url: { before: "https://hooks.example.com/x", after: "https://***@hooks.example.com/b?token=***" }, enabled: { before: true, after: false } });
  expect((await prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).error).toBe(
    "Request cannot be constructed from a URL that includes credentials: https://***@hooks.example.com/b?token=***",
  );
  await expect(prisma.$executeRaw`UPDATE audit_log SET action = action WHERE target_id = ${hookId}`).rejects.toThrow(/append-only/);
});

it("records nothing for a change that rolls back, and the change does not happen without its entry", async () => {
  const victim = await gql(admin.auth, CREATE, { input: { name: "doomed", permissions: ["reports:read"] } });
  const id = victim.body.data.createApiKey.apiKey.id;
  // A failure after the change and its entry were written (a trigger run after the entry's insert): the whole
  // transaction rolls back. (A deferred trigger failing the COMMIT itself is not used: PGlite's driver adapter rolls
  // such a transaction back without reporting an error.)
  await prisma.$executeRawUnsafe(`CREATE FUNCTION test_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused after the entry'; END $$`);
  await prisma.$executeRawUnsafe(
    `CREATE TRIGGER test_refuse_commit AFTER INSERT ON audit_log FOR EACH ROW WHEN (NEW.target_id = '${id}') EXECUTE FUNCTION test_refuse_commit()`,
  );
  try {
    const res = await gql(admin.auth, REVOKE, { id });
    expect(res.body.errors?.[0]).toBeTruthy();
  } finally {
    await prisma.$executeRawUnsafe(`DROP TRIGGER test_refuse_commit ON audit_log`);
    await prisma.$executeRawUnsafe(`DROP FUNCTION test_refuse_commit()`);
  }
  expect((await prisma.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
  expect((await log(`?target_id=${id}`)).data.map((e) => e.action)).toEqual(["api_key.created"]);
});

it("cannot be changed or deleted: no route, GraphQL field or CLI command does it, and the database refuses", async () => {
  for (const method of ["post", "put", "patch", "delete"] as const) {
    const res = await request(t.app)[method]("/v1/audit-log").set(admin.auth).send({});
    expect(errorOf(res)).toEqual({ status: 405, message: "Method not allowed; this path accepts GET" });
  }
  const { data } = await log("?limit=1");
  expect((await request(t.app).delete(`/v1/audit-log/${data[0].id}`).set(admin.auth)).status).toBe(404);
  const mutations = await gql(admin.auth, `{ __schema { mutationType { fields { name } } } }`);
  expect(mutations.body.data.__schema.mutationType.fields.map((f: { name: string }) => f.name).filter((n: string) => /audit/i.test(n))).toEqual([]);
  expect(HELP.main).not.toMatch(/audit/i);
  expect(() => parseInvocation(["audit", "delete"])).toThrow("Unknown command 'audit'");

  await expect(prisma.$executeRaw`UPDATE audit_log SET action = 'api_key.created' WHERE id = ${data[0].id}::uuid`).rejects.toThrow(/append-only/);
  await expect(prisma.$executeRaw`DELETE FROM audit_log WHERE id = ${data[0].id}::uuid`).rejects.toThrow(/append-only/);
  expect((await log("?limit=1")).data[0]).toEqual(data[0]);
});

it("keeps entries AUDIT_RETENTION_DAYS (365): the retention job deletes older ones only", async () => {
  const old = "00000000-0000-4000-8000-00000000a0d1";
  await prisma.$executeRaw`
    INSERT INTO audit_log (id, team_id, action, actor_type, target_type, target_id, created_at)
    VALUES (${old}::uuid, ${admin.teamId}::uuid, 'report.deleted', 'cli', 'report', 'gone', now() - interval '366 days')`;
  const before = (await log()).total;
  expect(await pruneAuditLog()).toBeGreaterThanOrEqual(1);
  const after = await log();
  expect(after.total).toBe(before - 1);
  expect(after.data.map((e) => e.id)).not.toContain(old);
});

it("filters and pages over REST, refusing bad parameters by name", async () => {
  const all = await log("?limit=100");
  expect(all.total).toBeGreaterThanOrEqual(5);
  const page = await log("?limit=2&offset=1");
  expect(page.data.map((e) => e.id)).toEqual(all.data.slice(1, 3).map((e) => e.id));
  expect((await log(`?actor_key_id=${adminKeyId}`)).data.every((e) => e.actor.key_id === adminKeyId)).toBe(true);
  expect((await log("?action=api_key.rolled")).data.every((e) => e.action === "api_key.rolled")).toBe(true);
  const newest = all.data[0].created_at;
  expect((await log(`?from=${encodeURIComponent(newest)}`)).data.every((e) => e.created_at >= newest)).toBe(true);
  expect((await log(`?to=${encodeURIComponent(newest)}`)).data.every((e) => e.created_at < newest)).toBe(true);

  for (const [query, message] of [
    ["limit=0", "limit must be at least 1"],
    ["limit=101", "limit must be at most 100"],
    ["offset=-1", "offset must be at least 0"],
    ["action=api_key.deleted", "action 'api_key.deleted' is not one of"],
    ["actor_key_id=zapier", "actor_key_id must be a key id (a UUID)"],
    ["from=yesterday", "from must be an ISO 8601 date-time"],
    ["from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "from must not be after to"],
  ]) {
    const res = await restClient(t.app, admin.auth).get(`/v1/audit-log?${query}`);
    expect(errorOf(res).status).toBe(400);
    expect(errorOf(res).message).toContain(message);
  }
});

it("is a Relay connection in GraphQL with the same filters", async () => {
  const PAGE = `query($first: Int, $after: String, $last: Int, $before: String, $action: String) {
    auditLog(first: $first, after: $after, last: $last, before: $before, action: $action) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id action actor { type keyId keyName keyPrefix } target { type id } changes ip requestId createdAt } }
    }
  }`;
  const first = (await gql(admin.auth, PAGE, { first: 2 })).body.data.auditLog;
  expect(first.edges).toHaveLength(2);
  expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  const next = (await gql(admin.auth, PAGE, { first: 2, after: first.pageInfo.endCursor })).body.data.auditLog;
  const rest = (await log("?limit=4")).data;
  expect([...first.edges, ...next.edges].map((e: { node: { id: string } }) => e.node.id)).toEqual(rest.map((e) => e.id));
  const back = (await gql(admin.auth, PAGE, { last: 2, before: next.pageInfo.endCursor })).body.data.auditLog;
  expect(back.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual(rest.slice(1, 3).map((e) => e.id));
  const rolls = (await gql(admin.auth, PAGE, { first: 10, action: "api_key.rolled" })).body.data.auditLog;
  expect(rolls.totalCount).toBe(2);
  const bad = await gql(admin.auth, PAGE, { first: 2, after: "nope" });
  expect(bad.body.errors[0]).toMatchObject({ message: "after is not a cursor of this list", extensions: { code: "BAD_USER_INPUT" } });
});

it("lists its actions in GraphQL (auditActions, what the dashboard's filter offers): the ones REST's action filter takes", async () => {
  const actions = (await gql(admin.auth, "{ auditActions }")).body.data.auditActions;
  expect(actions).toEqual(expect.arrayContaining(["api_key.created", "webhook.secret_rotated", "report.deleted"]));
  const doc = (await request(t.app).get("/v1/openapi.json")).body;
  const filter = doc.paths["/v1/audit-log"].get.parameters.find((p: { name: string }) => p.name === "action");
  expect(actions).toEqual(filter.schema.enum);
  for (const action of actions) expect((await log(`?action=${action}&limit=1`)).total).toBeGreaterThanOrEqual(0);
  const reader = await addKey(admin.teamId, "reports:read");
  expect((await gql(reader, "{ auditActions }")).body.errors[0].message).toBe("Permission denied: audit_log:read");
});

it("needs audit_log:read, which full-access keys hold, and only a team's own entries", async () => {
  const reader = await addKey(admin.teamId, "reports:read");
  expect(errorOf(await restClient(t.app, reader).get("/v1/audit-log"))).toEqual({ status: 403, message: "Permission denied: audit_log:read" });
  expect(TEAM_FULL_ACCESS.audit_log).toEqual(["read"]);
  expect(parsePermissions("audit_log:*")).toEqual({ audit_log: ["read"] });
  expect(() => parsePermissions("audit_log:delete")).toThrow("Unknown permission 'audit_log:delete': actions are read or *");

  const other = await createTeam();
  const theirs = await request(t.app).get("/v1/audit-log").set(other.auth);
  expect(theirs.status).toBe(200);
  expect(theirs.body.total).toBe(0);
});
