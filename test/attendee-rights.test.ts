// The attendee's rights (docs/data-protection.md "Requests from a person"): GET /v1/attendees finds everything the
// team holds about one person by e-mail or phone, POST /v1/attendees/erase erases it — showings' attendee fields,
// sign-ins' contact fields, stored event payloads — keeps consent receipts pseudonymised, puts the person on the
// suppression list, and both are audited without the e-mail. On both databases (the suite's).
import { randomBytes, randomUUID } from "node:crypto";
import request from "supertest";
import { sealContact } from "../src/attendees/contact";
import { parseInvocation } from "../src/cli/args";
import * as cliCommands from "../src/cli/commands";
import { prisma } from "../src/db";
import { isSuppressed } from "../src/attendees/contact";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
let reportId: string;
const EMAIL = `ana.${randomBytes(4).toString("hex")}@example.com`;
const showingIds: string[] = [];
let receiptId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  other = await createTeam();
  reportId = (await request(t.app).post("/v1/reports").set(team.auth).send({ address: "5 Oak Ave", city: "Austin", state: "TX", zip: "78702" })).body.data.id;
  for (const email of [EMAIL, ` ${EMAIL.toUpperCase()}`]) {
    const created = await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId, attendee_name: "Ana Díaz", attendee_email: email.trim(), event_type: "open_house" });
    expect(created.status).toBe(201);
    showingIds.push(created.body.data.id);
  }
  // Someone else's showing, and the same e-mail in another team: neither is touched.
  await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId, attendee_name: "Bo", attendee_email: "bo@example.com" }).expect(201);
  const otherReport = (await request(t.app).post("/v1/reports").set(other.auth).send({ address: "9 Pine Rd", city: "Austin", state: "TX", zip: "78703" })).body.data.id;
  await request(t.app).post("/v1/showings").set(other.auth).send({ report_id: otherReport, attendee_email: EMAIL }).expect(201);
  // A sign-in of the person (an attendee row and its consent receipt, as the public form writes them).
  const stored = sealContact({ name: "Ana Díaz", email: EMAIL, phone: "+1 512 555 0199" });
  const attendee = await prisma.attendee.create({ data: { teamId: team.teamId, showingId: showingIds[0], ...stored, answers: [{ question: "Budget?", answer: "500k" }] } });
  const receipt = await prisma.consentReceipt.create({
    data: {
      teamId: team.teamId,
      attendeeId: attendee.id,
      showingId: showingIds[0],
      consentEmail: true,
      consentPhone: false,
      consentSms: false,
      textVersion: "1",
      textSha256: "0".repeat(64),
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (iPad)",
      emailIndex: stored.emailIndex,
      phoneIndex: stored.phoneIndex,
      withdrawTokenHash: randomUUID(),
    },
  });
  receiptId = receipt.id;
});
afterAll(() => t.close());

describe("GET /v1/attendees", () => {
  it("answers everything the team holds about the person, found by the normalised e-mail, and audits it", async () => {
    const res = await request(t.app).get("/v1/attendees").query({ email: `  ${EMAIL.toUpperCase()}` }).set(team.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.showings.map((s: { id: string }) => s.id).sort()).toEqual([...showingIds].sort());
    expect(res.body.data.showings[0]).toMatchObject({ attendee_name: "Ana Díaz" });
    expect(res.body.data.sign_ins).toHaveLength(1);
    expect(res.body.data.sign_ins[0]).toMatchObject({ name: "Ana Díaz", email: EMAIL, phone: "+1 512 555 0199" });
    expect(res.body.data.consents).toHaveLength(1);
    expect(res.body.data.consents[0]).toMatchObject({ id: receiptId, channels: { email: true, phone: false, sms: false } });
    const byPhone = await request(t.app).get("/v1/attendees").query({ phone: "(512) 555-0199" }).set(team.auth);
    expect(byPhone.body.data.sign_ins).toHaveLength(1);
    const audit = await prisma.auditLogEntry.findMany({ where: { teamId: team.teamId, action: "attendee.exported" } });
    expect(audit.length).toBe(2);
    expect(JSON.stringify(audit)).not.toContain(EMAIL);
    // The phone in any spelling (a random id or hash may well hold "555"; none holds these).
    for (const spelling of ["5125550199", "512 555 0199", "555-0199", "555 0199"]) expect(JSON.stringify(audit)).not.toContain(spelling);
  });

  it("refuses a request naming neither or both, and a key without attendees:read", async () => {
    const neither = await request(t.app).get("/v1/attendees").set(team.auth);
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toMatch(/exactly one of email or phone/);
    const both = await request(t.app).get("/v1/attendees").query({ email: EMAIL, phone: "5125550199" }).set(team.auth);
    expect(both.status).toBe(400);
    const blank = await request(t.app).get("/v1/attendees").query({ phone: "n/a" }).set(team.auth);
    expect(blank.status).toBe(400);
    const reader = await createTeam({ permissions: "showings:read" });
    const denied = await request(t.app).get("/v1/attendees").query({ email: EMAIL }).set(reader.auth);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toMatch(/attendees:read/);
  });
});

describe("POST /v1/attendees/erase", () => {
  it("needs attendees:delete", async () => {
    const reader = await createTeam({ permissions: "attendees:read" });
    const denied = await request(t.app).post("/v1/attendees/erase").set(reader.auth).send({ email: EMAIL });
    expect(denied.status).toBe(403);
  });

  it("erases the person's contact data, keeps the receipts pseudonymised, suppresses the person, drops cached answers", async () => {
    // A cached answer showing the attendee first.
    const before = await request(t.app).get(`/v1/showings/${showingIds[0]}`).set(team.auth);
    expect(before.body.data.attendee_email).toBe(EMAIL);
    expect(await isSuppressed(prisma, team.teamId, { email: EMAIL })).toBe(false);

    const erased = await request(t.app).post("/v1/attendees/erase").set(team.auth).send({ email: EMAIL.toUpperCase() });
    expect(erased.status).toBe(200);
    expect(erased.body).toEqual({ data: { erased: { sign_ins: 1, showings: 2, consents_pseudonymised: 1 } }, message: "Attendee erased" });

    const after = await request(t.app).get(`/v1/showings/${showingIds[0]}`).set(team.auth).set("If-None-Match", before.headers.etag ?? "");
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ attendee_name: null, attendee_email: null, attendee_phone: null });
    const found = await request(t.app).get("/v1/attendees").query({ email: EMAIL }).set(team.auth);
    expect(found.body.data.showings).toEqual([]);
    expect(found.body.data.sign_ins).toEqual([]);
    // The receipt stays (the legal record), found by its keyed hash, address and browser replaced.
    expect(found.body.data.consents).toHaveLength(1);
    expect(found.body.data.consents[0].ip).toMatch(/^hmac:/);
    expect(found.body.data.consents[0].user_agent).toMatch(/^hmac:/);
    const attendee = await prisma.attendee.findFirstOrThrow({ where: { teamId: team.teamId } });
    expect([attendee.name, attendee.email, attendee.phone, attendee.answers]).toEqual([null, null, null, []]);
    // Stored events of those showings (a delivery not yet sent reads them) hold nothing of the person.
    const events = await prisma.webhookEvent.findMany({ where: { teamId: team.teamId, type: { startsWith: "showing." } } });
    const ofErased = events.filter((e) => showingIds.includes((e.data as { id: string }).id));
    expect(ofErased.length).toBeGreaterThan(0);
    for (const e of ofErased) expect(e.data).toMatchObject({ attendee_name: null, attendee_email: null });
    expect(await isSuppressed(prisma, team.teamId, { email: ` ${EMAIL}` })).toBe(true);
    expect(await isSuppressed(prisma, other.teamId, { email: EMAIL })).toBe(false);
    // Others are untouched: another attendee of the team, the same e-mail in another team.
    const bo = await request(t.app).get("/v1/attendees").query({ email: "bo@example.com" }).set(team.auth);
    expect(bo.body.data.showings).toHaveLength(1);
    const elsewhere = await request(t.app).get("/v1/attendees").query({ email: EMAIL }).set(other.auth);
    expect(elsewhere.body.data.showings).toHaveLength(1);
    const audit = await prisma.auditLogEntry.findFirstOrThrow({ where: { teamId: team.teamId, action: "attendee.erased" } });
    expect(audit.changes).toMatchObject({ showings: { before: null, after: 2 }, sign_ins: { after: 1 } });
    expect(JSON.stringify(audit)).not.toContain(EMAIL);
  });

  it("GraphQL answers the same (a second erasure finds nothing)", async () => {
    const res = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `mutation { eraseAttendee(email: "${EMAIL}") { signIns showings consentsPseudonymised } }` });
    expect(res.body.data).toEqual({ eraseAttendee: { signIns: 0, showings: 0, consentsPseudonymised: 0 } });
  });
});

describe("prs attendees show|erase", () => {
  /** Runs `prs …` in this process, as bin/prs.js does once its arguments are checked. */
  const prs = async (...argv: string[]) => {
    const invocation = parseInvocation(argv);
    if ("help" in invocation) return [invocation.help];
    return invocation.run(cliCommands);
  };

  it("shows a person's data as JSON and erases it, audited with the actor cli; refuses two filters before opening anything", async () => {
    const email = `cli.${randomBytes(4).toString("hex")}@example.com`;
    const showing = (await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: reportId, attendee_name: "Cy Client", attendee_email: email })).body.data.id as string;
    const shown = JSON.parse((await prs("attendees", "show", "--team", team.teamId, "--email", email.toUpperCase())).join("\n"));
    expect(shown.showings).toEqual([expect.objectContaining({ id: showing, attendee_name: "Cy Client", attendee_email: email })]);
    expect(shown.sign_ins).toEqual([]);
    const erased = await prs("attendees", "erase", "--team", team.teamId, "--email", email);
    expect(erased).toEqual(["Erased: 1 showing(s), 0 sign-in(s); 0 consent receipt(s) kept pseudonymised. The person is on the suppression list."]);
    const after = await request(t.app).get(`/v1/showings/${showing}`).set(team.auth);
    expect([after.body.data.attendee_name, after.body.data.attendee_email]).toEqual([null, null]);
    expect(await isSuppressed(prisma, team.teamId, { email })).toBe(true);
    const audit = await prisma.auditLogEntry.findMany({ where: { teamId: team.teamId, actorType: "cli", action: { in: ["attendee.exported", "attendee.erased"] } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["attendee.exported", "attendee.erased"]);
    expect(JSON.stringify(audit)).not.toContain(email);
    await expect(prs("attendees", "show", "--team", randomUUID(), "--email", email)).rejects.toThrow("No team with id");
    expect(() => parseInvocation(["attendees", "erase", "--team", team.teamId, "--email", email, "--phone", "555"])).toThrow("Give exactly one of --email or --phone");
  });
});
