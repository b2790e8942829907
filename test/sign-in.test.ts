// Open-house sign-in (docs/open-house-sign-in.md) on the real stack: links over REST and GraphQL, their QR codes,
// the public form and its abuse bounds, attendees and their de-duplication, consent receipts (append-only) and their
// withdrawal, the visitor.signed_in event. Runs on PGlite, and on PostgreSQL + Redis with DATABASE_URL / REDIS_URL.
process.env.TRUST_PROXY = "true"; // each test's visitor has an address of its own (X-Forwarded-For)
import request from "supertest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseInvocation } from "../src/cli/args";
import * as cliCommands from "../src/cli/commands";
import { prisma } from "../src/db";
import { addKey, createTeam, errorOf, listening, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { openLiveStream } from "./support/sse";
import { restClient } from "./support/openapi";
import { visitorOf } from "./support/sign-in";

let t: TestApp;
let team: TestTeam;
let api: ReturnType<typeof restClient>;
let reportId: string;
let showingId: string;

beforeAll(async () => {
  t = await startTestApp();
  visitor = visitorOf(t.app);
  team = await createTeam({ name: "Acme <Realty> & Co" });
  api = restClient(t.app, team.auth);
  const report = await api.post("/v1/reports", { address: "12 Garden Lane", city: "Springfield", state: "IL", zip: "62704", price: 500000, custom_agent_name: "Jordan Agent", primary_color: "#7a1f5c" });
  reportId = report.body.data.id;
  const showing = await api.post("/v1/showings", { report_id: reportId, event_type: "open_house", title: "Sunday open house" });
  showingId = showing.body.data.id;
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
async function newLink(body: Record<string, unknown> = {}, id = showingId) {
  const res = await api.post(`/v1/showings/${id}/sign-in-links`, body);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; token: string; url: string; qr_svg_url: string; qr_png_url: string; expires_at: string };
}

/** The public form's helpers (test/support/sign-in.ts), for this file's app. */
let visitor: ReturnType<typeof visitorOf>;
const nextAddress = () => visitor.nextAddress();
const startedFor = (token: string) => visitor.startedFor(token);
const signIn = (...args: Parameters<ReturnType<typeof visitorOf>["signIn"]>) => visitor.signIn(...args);

describe("sign-in links", () => {
  it("are made with a token shown once, listed without it, and revoked (REST)", async () => {
    const link = await newLink({ label: "Front door", questions: ["How did you hear about us?"] });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.url).toMatch(new RegExp(`/s/${link.token}$`));
    expect(link.qr_svg_url).toMatch(new RegExp(`/v1/showings/${showingId}/sign-in-links/${link.id}/qr\\.svg$`));
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(6.9 * DAY);
    expect(Date.parse(link.expires_at) - Date.now()).toBeLessThanOrEqual(7 * DAY);
    const list = await api.get(`/v1/showings/${showingId}/sign-in-links`);
    expect(list.status).toBe(200);
    const listed = list.body.data.find((l: { id: string }) => l.id === link.id);
    expect(listed).toMatchObject({ label: "Front door", questions: ["How did you hear about us?"], revoked_at: null, showing_id: showingId });
    expect(listed.token).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(link.token);
    const stored = await prisma.signInLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.stringify(stored)).not.toContain(link.token);
    const revoked = await api.delete(`/v1/showings/${showingId}/sign-in-links/${link.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const audit = await api.get(`/v1/audit-log?target_id=${link.id}`);
    expect(audit.body.data.map((e: { action: string }) => e.action).sort()).toEqual(["sign_in_link.created", "sign_in_link.revoked"]);
  });

  it("refuse an expiry past 90 days or in the past, unknown showings and keys without showings:update", async () => {
    const far = new Date(Date.now() + 91 * DAY).toISOString();
    expect(errorOf(await api.post(`/v1/showings/${showingId}/sign-in-links`, { expires_at: far }))).toEqual({ status: 400, message: expect.stringContaining("expires_at must be at most 90 days ahead") });
    expect(errorOf(await api.post(`/v1/showings/${showingId}/sign-in-links`, { expires_at: "2020-01-01T00:00:00Z" }))).toEqual({ status: 400, message: expect.stringContaining("expires_at must be in the future") });
    expect(errorOf(await api.post(`/v1/showings/${showingId}/sign-in-links`, { questions: ["1", "2", "3", "4", "5", "6"] })).status).toBe(400);
    expect(errorOf(await api.post(`/v1/showings/00000000-0000-4000-8000-000000000000/sign-in-links`, {}))).toEqual({ status: 404, message: "Showing not found" });
    const reader = await addKey(team.teamId, "showings:read");
    const refused = await request(t.app).post(`/v1/showings/${showingId}/sign-in-links`).set(reader).send({});
    expect(errorOf(refused)).toEqual({ status: 403, message: "Permission denied: showings:update" });
    const ninety = new Date(Date.now() + 90 * DAY - 60_000).toISOString();
    expect((await api.post(`/v1/showings/${showingId}/sign-in-links`, { expires_at: ninety })).status).toBe(201);
  });

  it("are made, listed and revoked by the CLI too: the form printed once, audited as the CLI", async () => {
    /** Runs `prs …` in this process, as bin/prs.js does once its arguments are checked. */
    const prs = async (...argv: string[]) => {
      const invocation = parseInvocation(argv);
      if ("help" in invocation) return [invocation.help];
      return invocation.run(cliCommands);
    };
    const dir = mkdtempSync(path.join(os.tmpdir(), "prs-sign-in-"));
    const qr = path.join(dir, "door.svg");
    const made = await prs("sign-in-links", "create", "--team", team.teamId, "--showing", showingId, "--label", "Door (CLI)", "--base-url", "https://reports.example.com/", "--qr", qr);
    expect(made[0]).toMatch(new RegExp(`^Sign-in link ([0-9a-f-]{36}) for showing ${showingId}, until \\d{4}-`));
    const id = /^Sign-in link ([0-9a-f-]{36})/.exec(made[0])![1];
    const url = made.at(-1)!;
    expect(url).toMatch(/^https:\/\/reports\.example\.com\/s\/[A-Za-z0-9_-]{43}$/);
    const token = url.split("/s/")[1];
    expect(readFileSync(qr, "utf8")).toMatch(/^<svg/);
    // The printed form is the link's: it answers, and the list names the link without its token.
    expect((await request(t.app).get(`/s/${token}`)).status).toBe(200);
    const list = (await prs("sign-in-links", "list", "--team", team.teamId, "--showing", showingId)).join("\n");
    expect(list).toMatch(new RegExp(`${id}\\s+active\\s+until \\S+\\s+Door \\(CLI\\)`));
    expect(list).not.toContain(token);
    expect(await prs("sign-in-links", "revoke", "--team", team.teamId, "--showing", showingId, id)).toEqual([`Revoked sign-in link ${id}: its form answers 404 from now on.`]);
    expect((await request(t.app).get(`/s/${token}`)).status).toBe(404);
    expect((await prs("sign-in-links", "revoke", "--team", team.teamId, "--showing", showingId, id))[0]).toMatch(/was already revoked/);
    expect((await prs("sign-in-links", "list", "--team", team.teamId, "--showing", showingId)).join("\n")).toMatch(new RegExp(`${id}\\s+revoked`));
    const audit = await prisma.auditLogEntry.findMany({ where: { teamId: team.teamId, targetId: id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([["sign_in_link.created", "cli"], ["sign_in_link.revoked", "cli"]]);
    // Refusals: exit code 1 with the schema's words, or a usage error before the database is opened.
    await expect(prs("sign-in-links", "create", "--team", team.teamId, "--showing", "no-such-showing")).rejects.toThrow("Showing not found");
    await expect(prs("sign-in-links", "create", "--team", team.teamId, "--showing", showingId, "--expires", new Date(Date.now() + 91 * DAY).toISOString())).rejects.toThrow(/90 days/);
    expect(() => parseInvocation(["sign-in-links", "create", "--team", team.teamId, "--showing", showingId, "--qr", qr])).toThrow("--qr needs --base-url");
    expect(() => parseInvocation(["sign-in-links", "revoke", "--team", team.teamId, "--showing", showingId, "abc"])).toThrow("must be a sign-in link's id");
    expect(existsSync(qr)).toBe(true);
    // A QR file that cannot be written does not lose the link's form: it is printed all the same.
    const unwritable = await prs("sign-in-links", "create", "--team", team.teamId, "--showing", showingId, "--base-url", "https://reports.example.com", "--qr", path.join(dir, "no-such-folder", "door.png"));
    expect(unwritable.join("\n")).toContain("Could not write the QR code to");
    expect(unwritable.at(-1)).toMatch(/^https:\/\/reports\.example\.com\/s\/[A-Za-z0-9_-]{43}$/);
  });

  it("draw their URL as a QR code in SVG and PNG", async () => {
    const link = await newLink();
    const svg = await request(t.app).get(new URL(link.qr_svg_url).pathname).set(team.auth);
    expect(svg.status).toBe(200);
    expect(svg.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(String(svg.text ?? svg.body)).toContain("<svg");
    const png = await request(t.app).get(new URL(link.qr_png_url).pathname).set(team.auth).buffer(true);
    expect(png.status).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect((png.body as Buffer).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    const reader = await addKey(team.teamId, "showings:read");
    expect((await request(t.app).get(new URL(link.qr_svg_url).pathname).set(reader)).status).toBe(403);
    expect((await request(t.app).get(`/v1/showings/${showingId}/sign-in-links/00000000-0000-4000-8000-000000000000/qr.svg`).set(team.auth)).status).toBe(404);
  });

  it("are the same over GraphQL", async () => {
    const gql = (query: string, variables: Record<string, unknown>) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });
    const made = await gql(`mutation($s: String!) { createSignInLink(showingId: $s, input: { label: "GraphQL" }) { token path link { id label expiresAt } } }`, { s: showingId });
    expect(made.body.errors).toBeUndefined();
    const { token, path, link } = made.body.data.createSignInLink;
    expect(path).toBe(`/s/${token}`);
    const qr = await gql(`query($s: String!, $id: ID!) { signInLinkQrCode(showingId: $s, id: $id, format: SVG, baseUrl: "https://reports.example.com") { mediaType url content } }`, { s: showingId, id: link.id });
    expect(qr.body.data.signInLinkQrCode).toMatchObject({ mediaType: "image/svg+xml", url: `https://reports.example.com/s/${token}` });
    const revoked = await gql(`mutation($s: String!, $id: ID!) { revokeSignInLink(showingId: $s, id: $id) { revokedAt } }`, { s: showingId, id: link.id });
    expect(revoked.body.data.revokeSignInLink.revokedAt).not.toBeNull();
  });
});

describe("the public form", () => {
  it("is branded, has the report page's strict policy (form to itself only) and one unticked box per channel", async () => {
    const link = await newLink({ questions: ["Your <b>budget</b>?"] });
    const page = await request(t.app).get(`/s/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.headers["content-security-policy"]).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; img-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.text).toContain("12 Garden Lane");
    expect(page.text).toContain("Jordan Agent");
    expect(page.text).toContain("#7a1f5c");
    expect(page.text).toContain("Your &lt;b&gt;budget&lt;/b&gt;?");
    expect(page.text).toContain("Acme &lt;Realty&gt; &amp; Co may e-mail me");
    expect(page.text).not.toMatch(/<script/i);
    for (const c of ["email", "phone", "sms"]) expect(page.text).toMatch(new RegExp(`<input type="checkbox" name="consent_${c}" value="yes">`));
    expect(page.text).toContain('autocomplete="email"');
    const kiosk = await request(t.app).get(`/s/${link.token}?kiosk=1`);
    expect(kiosk.text).toContain('<form method="post" action="/s/' + link.token + '?kiosk=1" autocomplete="off"');
    expect(kiosk.text).not.toContain('autocomplete="email"');
  });

  it("answers unknown, expired and revoked links with the same 404 page", async () => {
    const revoked = await newLink();
    await api.delete(`/v1/showings/${showingId}/sign-in-links/${revoked.id}`);
    const expired = await newLink();
    await prisma.signInLink.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const pages = await Promise.all(
      [revoked.token, expired.token, "A".repeat(43), "short", `${revoked.token}/thanks`, `${expired.token}/withdraw`].map((p) => request(t.app).get(`/s/${p}`)),
    );
    for (const page of pages) {
      expect(page.status).toBe(404);
      expect(page.text).toBe(pages[0].text);
    }
    const post = await signIn(revoked.token, { name: "Late Visitor", email: "late@example.com" }, { started: "1.x" });
    expect(post.status).toBe(404);
    expect(post.text).toBe(pages[0].text);
  });

  it("signs a visitor in: POST-redirect-GET to a thank-you with a fresh form, an attendee, a count and a consent receipt", async () => {
    const s = await api.post("/v1/showings", { report_id: reportId, event_type: "open_house", attendees_count: 3 });
    const link = await newLink({ questions: ["Budget?"] }, s.body.data.id);
    const res = await signIn(link.token, { name: "Robin Visitor", email: "Robin@Example.com ", phone: "(555) 010-2030", working_with_agent: "no", q1: "About 500k", consent_email: "yes", consent_sms: "yes" });
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^/s/${link.token}/thanks\\?r=[A-Za-z0-9_-]{43}$`));
    const thanks = await request(t.app).get(res.headers.location);
    expect(thanks.status).toBe(200);
    expect(thanks.text).toContain("Thank you for signing in!");
    expect(thanks.text).not.toContain("Robin");
    expect(thanks.text).toMatch(/name="name" dir="auto" value=""/);
    const showing = await api.get(`/v1/showings/${s.body.data.id}`);
    expect(showing.body.data.attendees_count).toBe(4);
    const attendees = await prisma.attendee.findMany({ where: { showingId: s.body.data.id } });
    expect(attendees).toHaveLength(1);
    expect(attendees[0]).toMatchObject({ workingWithAgent: "no", signIns: 1, answers: [{ question: "Budget?", answer: "About 500k" }] });
    // Stored encrypted: the row holds no readable contact.
    const rows = JSON.stringify(await prisma.$queryRaw`SELECT * FROM attendees`);
    expect(rows.toLowerCase()).not.toContain("robin");
    expect(rows).not.toContain("010-2030");
    const receipts = await api.get(`/v1/attendees/consents?email=robin@example.com`);
    expect(receipts.status).toBe(200);
    expect(receipts.body.data).toHaveLength(1);
    expect(receipts.body.data[0]).toMatchObject({
      attendee_id: attendees[0].id,
      showing_id: s.body.data.id,
      link_id: link.id,
      channels: { email: true, phone: false, sms: true },
      text_version: "2026-12-01",
      user_agent: "KioskBrowser/1.0",
      withdrawn_at: null,
    });
    expect(receipts.body.data[0].text_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(receipts.body.data[0].ip).toMatch(/^198\.51\.100\./);
    expect((await api.get(`/v1/attendees/consents?phone=+1 555 010 2030`)).body.data).toHaveLength(1);
    expect((await api.get(`/v1/attendees/consents?showing_id=${s.body.data.id}`)).body.total).toBe(1);
  });

  it("keeps one attendee per e-mail or phone within an open house, counted once", async () => {
    const s = await api.post("/v1/showings", { report_id: reportId, event_type: "open_house" });
    const link = await newLink({}, s.body.data.id);
    expect((await signIn(link.token, { name: "Casey One", email: "casey@example.com" })).status).toBe(303);
    expect((await signIn(link.token, { name: "Casey One", email: " CASEY@example.com", phone: "555-222-3333" })).status).toBe(303);
    expect((await signIn(link.token, { name: "Casey One", phone: "+1 555 222 3333" })).status).toBe(303);
    expect((await signIn(link.token, { name: "Drew Two", phone: "555 444 5555" })).status).toBe(303);
    const attendees = await prisma.attendee.findMany({ where: { showingId: s.body.data.id }, orderBy: { createdAt: "asc" } });
    expect(attendees.map((a) => a.signIns)).toEqual([3, 1]);
    expect((await api.get(`/v1/showings/${s.body.data.id}`)).body.data.attendees_count).toBe(2);
    expect((await api.get(`/v1/attendees/consents?showing_id=${s.body.data.id}`)).body.total).toBe(4);
  });

  it("loses and duplicates no attendee when 50 visitors sign in at once", async () => {
    const s = await api.post("/v1/showings", { report_id: reportId, event_type: "open_house" });
    const link = await newLink({}, s.body.data.id);
    const started = await startedFor(link.token);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_v, i) => signIn(link.token, { name: `Visitor ${i}`, email: `v${i % 25}@example.com` }, { started, address: `203.0.113.${i + 1}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(303));
    expect(await prisma.attendee.count({ where: { showingId: s.body.data.id } })).toBe(25);
    expect((await prisma.attendee.aggregate({ where: { showingId: s.body.data.id }, _sum: { signIns: true } }))._sum.signIns).toBe(50);
    expect((await api.get(`/v1/showings/${s.body.data.id}`)).body.data.attendees_count).toBe(25);
  });

  it("shows each field's problem next to it, escaped, and keeps nothing", async () => {
    const link = await newLink();
    const res = await signIn(link.token, { name: "", email: "not-an-email", phone: "12", website: "" });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/<input type="text" id="name" name="name"[^>]*aria-describedby="name-error" aria-invalid="true">\s*<p class="error" id="name-error">Please enter your name\.<\/p>/);
    expect(res.text).toContain('id="email-error"');
    expect(res.text).toContain('id="phone-error"');
    const xss = await signIn(link.token, { name: '"><script>alert(1)</script>', email: "" });
    expect(xss.status).toBe(400);
    expect(xss.text).not.toContain("<script>");
    expect(xss.text).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    const long = await signIn(link.token, { name: "x".repeat(201), email: "a@example.com" });
    expect(long.status).toBe(400);
    expect(long.text).toContain("Please use at most 200 characters.");
    expect(await prisma.attendee.count({ where: { linkId: link.id } })).toBe(0);
  });

  it("keeps nothing from robots: the honeypot, a form sent too fast or with a forged start time, a body too large", async () => {
    const link = await newLink();
    const trap = await signIn(link.token, { name: "Bot", email: "bot@example.com", website: "http://spam.example" });
    expect(trap.status).toBe(303);
    const page = await request(t.app).get(`/s/${link.token}`);
    const fresh = /name="started" value="([^"]+)"/.exec(page.text)![1];
    const fast = await signIn(link.token, { name: "Speedy", email: "speedy@example.com" }, { started: fresh });
    expect(fast.status).toBe(400);
    expect(fast.text).toContain("sent too quickly");
    expect(fast.text).toContain('value="Speedy"');
    const forged = await signIn(link.token, { name: "Forger", email: "f@example.com" }, { started: `${Date.now() - 5000}.${"A".repeat(43)}` });
    expect(forged.status).toBe(400);
    const big = await request(t.app).post(`/s/${link.token}`).set("X-Forwarded-For", nextAddress()).type("form").send({ name: "x".repeat(20_000) });
    expect(big.status).toBe(413);
    expect(big.headers["content-type"]).toMatch(/^text\/html/);
    expect(await prisma.attendee.count({ where: { linkId: link.id } })).toBe(0);
    const put = await request(t.app).put(`/s/${link.token}`);
    expect(put.status).toBe(405);
  });

  it("takes 10 sign-ins a minute from one address per link, and 300 an hour per link", async () => {
    const link = await newLink();
    const started = await startedFor(link.token);
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await signIn(link.token, { name: "" }, { started, address })).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    // Another address still may; the link's hourly bound counts every address.
    expect((await signIn(link.token, { name: "" }, { started, address: "192.0.2.1" })).status).toBe(400);
    const busy = await newLink();
    const busyStarted = await startedFor(busy.token);
    let refused = 0;
    for (let i = 0; i < 301; i++) {
      const res = await signIn(busy.token, { name: "" }, { started: busyStarted, address: `10.1.${Math.floor(i / 10)}.${i % 10}` });
      if (res.status === 429) refused++;
    }
    expect(refused).toBe(1);
  }, 120_000);
});

describe("consent receipts", () => {
  it("are withdrawn by the visitor's link (a GET changes nothing) and by the API, and cannot be changed or deleted otherwise", async () => {
    const link = await newLink();
    const res = await signIn(link.token, { name: "Quinn", email: "quinn@example.com", consent_email: "yes" });
    const withdrawToken = /r=([A-Za-z0-9_-]{43})/.exec(res.headers.location)![1];
    const thanks = await request(t.app).get(res.headers.location);
    expect(thanks.text).toContain(`href="/s/${withdrawToken}/withdraw"`);
    const confirm = await request(t.app).get(`/s/${withdrawToken}/withdraw`);
    expect(confirm.status).toBe(200);
    let [receipt] = (await api.get(`/v1/attendees/consents?email=quinn@example.com`)).body.data;
    expect(receipt.withdrawn_at).toBeNull();
    const done = await request(t.app).post(`/s/${withdrawToken}/withdraw`).set("X-Forwarded-For", nextAddress()).type("form").send({});
    expect(done.status).toBe(200);
    expect(done.text).toContain("Consent withdrawn");
    [receipt] = (await api.get(`/v1/attendees/consents?email=quinn@example.com`)).body.data;
    expect(receipt.withdrawn_at).not.toBeNull();

    await signIn(link.token, { name: "Quinn", email: "quinn@example.com", consent_sms: "yes", phone: "555 999 0000" });
    const latest = (await api.get(`/v1/attendees/consents?email=quinn@example.com`)).body.data[0];
    expect(latest.withdrawn_at).toBeNull();
    const withdrawn = await api.post(`/v1/attendees/consents/${latest.id}/withdraw`, {});
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.data.withdrawn_at).not.toBeNull();
    const again = await api.post(`/v1/attendees/consents/${latest.id}/withdraw`, {});
    expect(again.body.data.withdrawn_at).toBe(withdrawn.body.data.withdrawn_at);
    expect(errorOf(await api.post(`/v1/attendees/consents/00000000-0000-4000-8000-000000000000/withdraw`, {}))).toEqual({ status: 404, message: "Consent receipt not found" });

    await expect(prisma.$executeRaw`UPDATE consent_receipts SET consent_email = true WHERE id = ${latest.id}::uuid`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`UPDATE consent_receipts SET withdrawn_at = NULL WHERE id = ${latest.id}::uuid`).rejects.toThrow(/append-only/);
    await expect(prisma.$executeRaw`DELETE FROM consent_receipts WHERE id = ${latest.id}::uuid`).rejects.toThrow(/append-only/);
    // Gone with its showing, the receipt stays.
    await prisma.showing.deleteMany({ where: { id: (await prisma.signInLink.findUniqueOrThrow({ where: { id: link.id } })).showingId, NOT: { id: showingId } } });
  });

  it("need attendees:read to list and attendees:delete to withdraw, and exactly one filter", async () => {
    const reader = await addKey(team.teamId, "showings:read,showings:update");
    expect(errorOf(await request(t.app).get(`/v1/attendees/consents?showing_id=${showingId}`).set(reader))).toEqual({ status: 403, message: "Permission denied: attendees:read" });
    const consentReader = await addKey(team.teamId, "attendees:read");
    const [any] = (await request(t.app).get(`/v1/attendees/consents?showing_id=${showingId}`).set(consentReader)).body.data;
    expect(errorOf(await request(t.app).post(`/v1/attendees/consents/${any.id}/withdraw`).set(consentReader).send({}))).toEqual({ status: 403, message: "Permission denied: attendees:delete" });
    expect(errorOf(await api.get(`/v1/attendees/consents`))).toEqual({ status: 400, message: "Give exactly one of showing_id, email or phone" });
    expect(errorOf(await api.get(`/v1/attendees/consents?email=a@example.com&phone=555`)).status).toBe(400);
    const other = await createTeam();
    expect((await request(t.app).get(`/v1/attendees/consents?showing_id=${showingId}`).set(other.auth)).body.total).toBe(0);
  });
});

describe("visitor.signed_in", () => {
  it("is recorded for each sign-in without the visitor's name, e-mail or phone", async () => {
    const link = await newLink();
    await signIn(link.token, { name: "Taylor Private", email: "taylor.private@example.com", phone: "555 777 8888", consent_phone: "yes" });
    const events = await prisma.webhookEvent.findMany({ where: { teamId: team.teamId, type: "visitor.signed_in" }, orderBy: { createdAt: "desc" }, take: 1 });
    expect(events).toHaveLength(1);
    const data = events[0].data as Record<string, unknown>;
    expect(data).toMatchObject({ showing_id: showingId, report_id: reportId, link_id: link.id, new_attendee: true, consent: { email: false, phone: true, sms: false } });
    const text = JSON.stringify(data).toLowerCase();
    // The phone in its spellings (digits alone could turn up inside a random id).
    for (const secret of ["taylor", "private", "555 777 8888", "5557778888", "777 8888", "777-8888"]) expect(text).not.toContain(secret);
    const listed = await api.get(`/v1/events?type=visitor.signed_in`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
  });

  it("reaches live streams: the attendee with its contact for a key with attendees:read, none for one without", async () => {
    const { base, close } = await listening(t.app);
    const query = `subscription { teamEvents(types: ["visitor.signed_in"]) { type report { id } attendee { name email phone signIns } } }`;
    const withContact = await openLiveStream(base, { query, headers: team.auth });
    const showingsOnly = await openLiveStream(base, { query, headers: await addKey(team.teamId, "showings:read,reports:read") });
    try {
      const link = await newLink();
      await signIn(link.token, { name: "Morgan Live", email: "morgan.live@example.com" });
      expect((await withContact.next()).data.teamEvents).toEqual({ type: "visitor.signed_in", report: { id: reportId }, attendee: { name: "Morgan Live", email: "morgan.live@example.com", phone: null, signIns: 1 } });
      const event = (await showingsOnly.next()).data.teamEvents;
      expect(event).toEqual({ type: "visitor.signed_in", report: { id: reportId }, attendee: null });
    } finally {
      withContact.close();
      showingsOnly.close();
      await close();
    }
  });
});
