// Attendee contact data at rest (docs/data-protection.md): the showings' attendee fields are stored encrypted with
// keyed hashes beside them, the API answers as before (REST, GraphQL, the one-statement detail, webhook payloads),
// values stored before encryption are encrypted after the migrations, a key rotation re-encrypts in batches, and a
// dump of every table (pg_dump on PostgreSQL, a COPY of each table on both) holds no attendee e-mail.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import request from "supertest";
import { contactIndex, createKeyring, keyring, storedKeyId, useKeyring } from "../src/attendees/crypto";
import { prisma } from "../src/db";
import { rotateAttendeeData, sealPlainAttendeeData } from "../src/db/attendee-data";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;
const EMAIL = `jordan.${randomBytes(4).toString("hex")}@example.com`;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  const report = await request(t.app).post("/v1/reports").set(team.auth).send({ address: "12 Elm St", city: "Austin", state: "TX", zip: "78701" });
  reportId = report.body.data.id;
});
afterAll(() => t.close());

/** Every row of every table of the public schema as text: what a dump or a replica read gives. */
async function copyOfEveryTable(): Promise<string> {
  const tables = await prisma.$queryRaw<{ name: string }[]>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`;
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await prisma.$queryRawUnsafe<{ row: string }[]>(`SELECT row_to_json(t)::text AS row FROM "${name.replace(/"/g, '""')}" t`);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

describe("showings' attendee fields", () => {
  let showingId: string;

  it("are stored encrypted with keyed hashes, and answered as given", async () => {
    const created = await request(t.app)
      .post("/v1/showings")
      .set(team.auth)
      .send({ report_id: reportId, attendee_name: "Jordan Buyer", attendee_email: EMAIL, attendee_phone: "(512) 555-0100" });
    expect(created.status).toBe(201);
    showingId = created.body.data.id;
    expect(created.body.data).toMatchObject({ attendee_name: "Jordan Buyer", attendee_email: EMAIL, attendee_phone: "(512) 555-0100" });
    const row = await prisma.showing.findUniqueOrThrow({ where: { id: showingId } });
    expect(row.attendeeName).toMatch(/^e1\.[0-9a-f]{12}\./);
    expect(row.attendeeEmail).not.toContain("@");
    expect(row.attendeePhone).not.toContain("555");
    expect(row.attendeeEmailIndex).toBe(contactIndex("email", ` ${EMAIL.toUpperCase()}`));
    expect(row.attendeePhoneIndex).toBe(contactIndex("phone", "+1 512 555 0100"));

    const detail = await request(t.app).get(`/v1/showings/${showingId}`).set(team.auth);
    expect(detail.body.data).toMatchObject({ attendee_name: "Jordan Buyer", attendee_phone: "(512) 555-0100" });
    expect(detail.body.data.attendee_email).toBe(EMAIL);
    // The report's detail (the one-statement read path) opens them too.
    const report = await request(t.app).get(`/v1/reports/${reportId}`).set(team.auth);
    expect(report.status).toBe(200);
    expect(JSON.stringify(report.body)).toContain("Jordan Buyer");
    expect(JSON.stringify(report.body)).not.toMatch(/"e1\.[0-9a-f]{12}\./);
    const gql = await request(t.app).post("/graphql").set(team.auth).send({ query: `{ showing(id: "${showingId}") { attendeeName attendeePhone } }` });
    expect(gql.body.data.showing).toEqual({ attendeeName: "Jordan Buyer", attendeePhone: "(512) 555-0100" });
  });

  it("an update re-encrypts and re-indexes; null clears both", async () => {
    const changed = await request(t.app).patch(`/v1/showings/${showingId}`).set(team.auth).send({ attendee_phone: "+44 20 7946 0958" });
    expect(changed.body.data.attendee_phone).toBe("+44 20 7946 0958");
    let row = await prisma.showing.findUniqueOrThrow({ where: { id: showingId } });
    expect(row.attendeePhoneIndex).toBe(contactIndex("phone", "0044 20 7946 0958"));
    await request(t.app).patch(`/v1/showings/${showingId}`).set(team.auth).send({ attendee_phone: null }).expect(200);
    row = await prisma.showing.findUniqueOrThrow({ where: { id: showingId } });
    expect([row.attendeePhone, row.attendeePhoneIndex]).toEqual([null, null]);
  });

  it("webhook event payloads are stored encrypted and shown decrypted", async () => {
    const events = await prisma.webhookEvent.findMany({ where: { teamId: team.teamId, type: "showing.created" } });
    expect(events.length).toBeGreaterThan(0);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(EMAIL);
    const listed = await request(t.app).post("/graphql").set(team.auth).send({ query: "{ webhookEvents(limit: 10) { items { type data } } }" });
    const created = listed.body.data.webhookEvents.items.find((e: { type: string }) => e.type === "showing.created");
    expect(created.data.attendee_name).toBe("Jordan Buyer");
  });

  it("values stored before encryption are encrypted after the migrations, with their keyed hashes", async () => {
    const plain = await prisma.showing.create({ data: { teamId: team.teamId, reportId, attendeeName: "Old Row", attendeeEmail: "old.row@example.com" } });
    const done = await sealPlainAttendeeData(prisma);
    expect(done.showings).toBeGreaterThanOrEqual(1);
    const row = await prisma.showing.findUniqueOrThrow({ where: { id: plain.id } });
    expect(row.attendeeEmail).toMatch(/^e1\./);
    expect(row.attendeeEmailIndex).toBe(contactIndex("email", "OLD.ROW@example.com"));
    const detail = await request(t.app).get(`/v1/showings/${plain.id}`).set(team.auth);
    expect(detail.body.data).toMatchObject({ attendee_name: "Old Row", attendee_email: "old.row@example.com" });
  });

  it("a dump of every table holds no attendee e-mail, name or phone", async () => {
    const copy = await copyOfEveryTable();
    expect(copy).toContain(showingId); // the copy did read the showings
    for (const secret of [EMAIL, "Jordan Buyer", "old.row@example.com", "555-0100"]) expect(copy.toLowerCase()).not.toContain(secret.toLowerCase());
    const url = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;
    if (url) {
      const dump = execFileSync("pg_dump", ["--data-only", url.split("?")[0]], { maxBuffer: 256 * 1024 * 1024 }).toString();
      expect(dump).toContain(showingId);
      expect(dump.toLowerCase()).not.toContain(EMAIL);
      expect(dump).not.toContain("Jordan Buyer");
    }
  });

  it("a key rotation re-encrypts every value in batches; old values stay readable meanwhile", async () => {
    const before = keyring();
    const oldKeys = [...before.byId.values()].map((k) => k.key);
    const next = createKeyring(randomBytes(32), oldKeys, "environment");
    useKeyring(next);
    try {
      const mid = await request(t.app).get(`/v1/showings/${showingId}`).set(team.auth);
      expect(mid.body.data.attendee_name).toBe("Jordan Buyer");
      // This team's rows only: other test files share the database (and, on PostgreSQL, run in other processes).
      const done = await rotateAttendeeData(prisma, 1, team.teamId);
      expect(done.showings).toBeGreaterThanOrEqual(2);
      const rows = await prisma.showing.findMany({ where: { teamId: team.teamId, attendeeName: { not: null } } });
      expect(rows.map((r) => storedKeyId(r.attendeeName!))).toEqual(rows.map(() => next.current.id));
      const row = rows.find((r) => r.id === showingId)!;
      expect(row.attendeeEmailIndex).toBe(contactIndex("email", EMAIL, next));
      // Without the old key the new values still open.
      useKeyring(createKeyring(next.current.key));
      const after = await request(t.app).get(`/v1/showings/${showingId}`).set(team.auth);
      expect(after.body.data.attendee_name).toBe("Jordan Buyer");
    } finally {
      useKeyring(before.byId.size ? createKeyring(next.current.key, oldKeys) : before);
    }
  });
});
