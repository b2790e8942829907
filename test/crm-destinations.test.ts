// CRM destinations (docs/api.md "CRM destinations") on the real stack: a Follow Up Boss stand-in (a node:http server on
// 127.0.0.1 that checks the request as Follow Up Boss's events API documents it) and a JSON receiver get the leads of
// visitors signing in on the public form, through the real delivery worker. Only visitors who consented are sent;
// a person on the suppression list never is; the API key is stored encrypted and never shown.
import { execFileSync } from "node:child_process";
// The settings of test/support/server.ts DELIVERING (every delivering process of the suite shares them), and Follow
// Up Boss's API on a port of this machine: a destination keeps the base it was created with, so whichever process of
// the suite sends a lead sends it to this file's stand-in.
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.WEBHOOK_RETRY_SCHEDULE = "1,1";
process.env.WEBHOOK_POLL_MS = "100";
process.env.TRUST_PROXY = "true";
const FUB_PORT = Number(execFileSync(process.execPath, ["-e", 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })']).toString());
process.env.FOLLOW_UP_BOSS_URL = `http://127.0.0.1:${FUB_PORT}`;

import http from "node:http";
import { Webhook } from "standardwebhooks";
import request from "supertest";
import { prisma } from "../src/db";
import { startDeliveryWorker, type DeliveryWorker } from "../src/webhooks/worker";
import { addKey, createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { receiver, type Receiver } from "./support/receiver";
import { visitorOf } from "./support/sign-in";

const FUB_KEY = "fka_0123456789abcdefABCDEF";

interface FubRequest {
  path: string;
  authorization?: string;
  contentType?: string;
  body: Record<string, any>;
}

/** Follow Up Boss's events API as its documentation describes it: POST /v1/events, HTTP Basic with the key as user. */
async function followUpBossStandIn() {
  const received: FubRequest[] = [];
  const problems: string[] = [];
  const server = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = JSON.parse(text) as Record<string, any>;
      received.push({ path: req.url ?? "", authorization: req.headers.authorization, contentType: req.headers["content-type"], body });
      const expected = `Basic ${Buffer.from(`${FUB_KEY}:`).toString("base64")}`;
      if (req.method !== "POST" || req.url !== "/v1/events") problems.push(`${req.method} ${req.url}`);
      if (req.headers.authorization !== expected) problems.push(`authorization ${req.headers.authorization}`);
      if (!body.source || !body.type || !body.person) problems.push(`body ${text}`);
      res.statusCode = problems.length ? 400 : 200;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ id: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(FUB_PORT, "127.0.0.1", resolve));
  return {
    received,
    problems,
    async count(n: number, ms = 15_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the stand-in got ${received.length} of ${n} requests`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return received.slice(0, n);
    },
    close: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())),
  };
}

let t: TestApp;
let worker: DeliveryWorker;
let team: TestTeam;
let fub: Awaited<ReturnType<typeof followUpBossStandIn>>;
let hooks: Receiver;
let visitor: ReturnType<typeof visitorOf>;
let reportId: string;
let showingId: string;

const api = (auth = team.auth) => ({
  get: (path: string) => request(t.app).get(path).set(auth),
  post: (path: string, body?: object) => request(t.app).post(path).set(auth).send(body),
  patch: (path: string, body: object) => request(t.app).patch(path).set(auth).send(body),
  delete: (path: string) => request(t.app).delete(path).set(auth),
});

beforeAll(async () => {
  t = await startTestApp();
  worker = startDeliveryWorker();
  visitor = visitorOf(t.app);
  [fub, hooks] = await Promise.all([followUpBossStandIn(), receiver()]);
  team = await createTeam({ name: "Harbor Homes" });
  const report = await api().post("/v1/reports", { address: "12 Garden Lane", city: "Springfield", state: "IL", zip: "62704", price: 500000 });
  reportId = report.body.data.id;
  showingId = (await api().post("/v1/showings", { report_id: reportId, event_type: "open_house", title: "Sunday open house" })).body.data.id;
  // A webhook on the same event: once it has a sign-in, the event has been fanned out to every endpoint.
  expect((await api().post("/v1/webhooks", { url: hooks.url, events: ["visitor.signed_in"] })).status).toBe(201);
});
afterAll(async () => {
  // Long enough for attempts in flight to finish and their outcomes to be written: on a shared database this worker
  // also sends other test files' deliveries, and a claim left behind would hold theirs until it runs out.
  await worker.stop(10_000);
  await Promise.all([fub.close(), hooks.close()]);
  await t.close();
});

async function signInLink(): Promise<string> {
  const res = await api().post(`/v1/showings/${showingId}/sign-in-links`, {});
  expect(res.status).toBe(201);
  return res.body.data.token;
}

/** Signs a visitor in and waits until the webhook got the event (so every destination's deliveries exist). */
async function signIn(token: string, fields: Record<string, string>): Promise<string> {
  const before = hooks.received.length;
  const res = await visitor.signIn(token, fields);
  expect(res.status).toBe(303);
  const [event] = (await hooks.count(before + 1)).slice(before);
  return event.json.id;
}

describe("CRM destinations over REST", () => {
  it("connects Follow Up Boss with an API key that is stored encrypted and never shown, apart from the team's webhooks", async () => {
    const created = await api().post("/v1/crm-destinations", { kind: "follow_up_boss", api_key: FUB_KEY, description: "Leads" });
    expect(created.status).toBe(201);
    const destination = created.body.data;
    expect(destination).toMatchObject({ kind: "follow_up_boss", url: `http://127.0.0.1:${FUB_PORT}`, events: ["visitor.signed_in"], enabled: true, has_api_key: true, secret: null });
    expect(JSON.stringify(created.body)).not.toContain(FUB_KEY);
    const stored = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: destination.id } });
    expect(stored.crmApiKey).toMatch(/^e1\./);
    expect(stored.crmApiKey).not.toContain(FUB_KEY);

    const list = await api().get("/v1/crm-destinations");
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([destination.id]);
    expect(JSON.stringify(list.body)).not.toContain(FUB_KEY);
    // Not a webhook: the webhook routes do not see it.
    expect((await api().get("/v1/webhooks")).body.data.map((w: { id: string }) => w.id)).not.toContain(destination.id);
    expect((await api().get(`/v1/webhooks/${destination.id}`)).status).toBe(404);
    expect((await api().delete(`/v1/webhooks/${destination.id}`)).status).toBe(404);

    const audit = await api().get("/v1/audit-log?action=crm_destination.created");
    expect(audit.body.data[0]).toMatchObject({ action: "crm_destination.created", target: { type: "crm_destination", id: destination.id } });
    expect(JSON.stringify(audit.body)).not.toContain(FUB_KEY);

    // A new key replaces the stored one: the audit log says so, never what it was or is.
    const NEW_KEY = "fka_fedcba9876543210";
    const patched = await api().patch(`/v1/crm-destinations/${destination.id}`, { api_key: NEW_KEY });
    expect([patched.status, patched.body.data.has_api_key]).toEqual([200, true]);
    const updated = await api().get("/v1/audit-log?action=crm_destination.updated");
    expect(updated.body.data[0].changes).toEqual({ api_key: { before: null, after: "replaced" } });
    expect(JSON.stringify(updated.body)).not.toContain(NEW_KEY);
    const { crmApiKey } = await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: destination.id } });
    await prisma.webhookEndpoint.update({ where: { id: destination.id }, data: { crmApiKey: stored.crmApiKey } }); // the stand-in expects FUB_KEY
    expect(crmApiKey).not.toBe(stored.crmApiKey);
  });

  it.each([
    [{ kind: "follow_up_boss" }, "api_key", "is required"],
    [{ kind: "follow_up_boss", api_key: FUB_KEY, url: "https://example.com/x" }, "url", "is taken by json destinations only"],
    [{ kind: "json" }, "url", "is required"],
    [{ kind: "json", url: "https://example.com/x", api_key: "k" }, "api_key", "follow_up_boss destinations only"],
    [{ kind: "salesforce", api_key: "k" }, "kind", ""],
    [{ kind: "follow_up_boss", api_key: "two words" }, "api_key", "no spaces"],
    [{ kind: "follow_up_boss", api_key: FUB_KEY, events: ["report.created"] }, "events", "visitor.signed_in only"],
  ])("refuses %j with a 400 naming %s", async (body, field, words) => {
    const res = await api().post("/v1/crm-destinations", body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
    expect(JSON.stringify(res.body)).toContain(words);
  });

  it("needs the webhooks permissions, and keeps each team's destinations its own", async () => {
    const reader = await addKey(team.teamId, "webhooks:read");
    expect((await api(reader).post("/v1/crm-destinations", { kind: "follow_up_boss", api_key: FUB_KEY })).status).toBe(403);
    expect((await api(reader).get("/v1/crm-destinations")).status).toBe(200);
    const other = await createTeam();
    const mine = (await api().get("/v1/crm-destinations")).body.data[0].id;
    expect((await api(other.auth).get(`/v1/crm-destinations/${mine}`)).status).toBe(404);
    expect((await api(other.auth).patch(`/v1/crm-destinations/${mine}`, { enabled: false })).status).toBe(404);
    expect((await api(other.auth).delete(`/v1/crm-destinations/${mine}`)).status).toBe(404);
  });
});

describe("leads", () => {
  let json: Receiver;
  let jsonSecret: string;
  beforeAll(async () => {
    json = await receiver();
    const created = await api().post("/v1/crm-destinations", { kind: "json", url: json.url });
    expect(created.status).toBe(201);
    expect(created.body.data.secret).toMatch(/^whsec_/);
    jsonSecret = created.body.data.secret;
  });
  afterAll(() => json.close());

  it("sends a consenting visitor to Follow Up Boss as a 'Visited Open House' event, and to the JSON receiver signed", async () => {
    const token = await signInLink();
    await signIn(token, { name: "Robin Q. Visitor", email: "robin@example.com", phone: "(555) 010-2030", working_with_agent: "no", consent_email: "yes" });
    const [lead] = await fub.count(1);
    expect(fub.problems).toEqual([]);
    expect(lead.contentType).toContain("application/json");
    expect(lead.body).toEqual({
      source: "Harbor Homes",
      system: "PropertyReportService",
      type: "Visited Open House",
      message: "Signed in at the open house at 12 Garden Lane. Not working with an agent. Consented to be contacted by email.",
      person: { firstName: "Robin", lastName: "Q. Visitor", emails: [{ value: "robin@example.com" }], phones: [{ value: "(555) 010-2030" }] },
      property: { street: "12 Garden Lane", city: "Springfield", state: "IL", code: "62704", price: 500000 },
    });
    // The delivery log shows what was sent, the key's Basic authorization redacted.
    const destinations = (await api().get("/v1/crm-destinations")).body.data as Array<{ id: string; kind: string }>;
    const fubId = destinations.find((d) => d.kind === "follow_up_boss")!.id;
    let sent: { request_headers: Record<string, string>; response_status: number } | undefined;
    for (const deadline = Date.now() + 15_000; !sent && Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      sent = (await api().get(`/v1/crm-destinations/${fubId}/deliveries?status=succeeded`)).body.data[0];
    }
    expect(sent).toMatchObject({ response_status: expect.any(Number), request_headers: { authorization: "[redacted]", "content-type": "application/json" } });
    expect(JSON.stringify(sent)).not.toContain(Buffer.from(`${FUB_KEY}:`).toString("base64"));

    const [signed] = await json.count(1);
    const payload = new Webhook(jsonSecret).verify(signed.body, signed.headers as Record<string, string>) as { type: string; data: Record<string, any> };
    expect(payload.type).toBe("visitor.signed_in");
    expect(payload.data).toMatchObject({
      showing_id: showingId,
      report_id: reportId,
      person: { name: "Robin Q. Visitor", email: "robin@example.com", phone: "(555) 010-2030" },
      consent: { email: true, phone: false, sms: false },
      property: { address: "12 Garden Lane", city: "Springfield", state: "IL", zip: "62704", price: 500000 },
    });
  });

  it("sends nothing for a visitor who gave no consent (no delivery at all)", async () => {
    const fubBefore = fub.received.length;
    const token = await signInLink();
    const eventId = await signIn(token, { name: "Quiet Visitor", email: "quiet@example.com" });
    const destinations = (await api().get("/v1/crm-destinations")).body.data as Array<{ id: string }>;
    for (const d of destinations) {
      const deliveries = await api().get(`/v1/crm-destinations/${d.id}/deliveries`);
      expect(deliveries.status).toBe(200);
      expect(deliveries.body.data.filter((x: { event_id: string }) => x.event_id === eventId)).toEqual([]);
    }
    expect(fub.received.length).toBe(fubBefore);
  });

  it("never sends a person who asked to be erased: the delivery fails without a retry, saying why; redeliver refuses again", async () => {
    expect((await api().post("/v1/attendees/erase", { email: "gone@example.com" })).status).toBe(200);
    const fubBefore = fub.received.length;
    const token = await signInLink();
    const eventId = await signIn(token, { name: "Gone Person", email: "gone@example.com", consent_email: "yes" });
    const [destination] = (await api().get("/v1/crm-destinations")).body.data as Array<{ id: string; kind: string }>;
    expect(destination.kind).toBe("follow_up_boss");
    let attempt: { id: string; status: string; error: string; event_id: string } | undefined;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const page = await api().get(`/v1/crm-destinations/${destination.id}/deliveries`);
      attempt = page.body.data.find((x: { event_id: string; status: string }) => x.event_id === eventId && x.status !== "pending");
      if (attempt) break;
    }
    expect(attempt).toMatchObject({ status: "failed", error: "Not sent: the person asked to be erased (suppression list)", request_headers: null, response_body: null });
    const again = await api().post(`/v1/crm-destinations/${destination.id}/deliveries/${attempt!.id}/redeliver`);
    expect(again.status).toBe(202);
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const page = await api().get(`/v1/crm-destinations/${destination.id}/deliveries?status=pending`);
      if (!page.body.data.some((x: { event_id: string }) => x.event_id === eventId)) break;
    }
    expect(fub.received.length).toBe(fubBefore);
  });
});
