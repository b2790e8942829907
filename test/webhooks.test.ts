// Webhooks against real receivers (node:http servers on 127.0.0.1, allowed by WEBHOOK_ALLOW_PRIVATE_URLS): what they
// receive and can verify with the standardwebhooks package, retries, 410, redelivery, rotation, the outbox (no event
// for a change that failed) and team isolation; the private-address refusal with the setting off.
// The settings of test/support/server.ts DELIVERING (every delivering process of the suite shares them).
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.WEBHOOK_RETRY_SCHEDULE = "1,1";
process.env.WEBHOOK_POLL_MS = "100";

import { Webhook } from "standardwebhooks";
import request from "supertest";
import { startDeliveryWorker, type DeliveryWorker } from "../src/webhooks/worker";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { receiver, type Received } from "./support/receiver";

let t: TestApp;
let worker: DeliveryWorker;
let team: TestTeam;
beforeAll(async () => {
  t = await startTestApp();
  worker = startDeliveryWorker();
  team = await createTeam();
});
afterAll(async () => {
  await worker.stop(1000);
  await t.close();
});

const api = (auth = team.auth) => ({
  get: (path: string) => request(t.app).get(path).set(auth),
  post: (path: string, body?: object) => request(t.app).post(path).set(auth).send(body),
  patch: (path: string, body: object) => request(t.app).patch(path).set(auth).send(body),
  delete: (path: string) => request(t.app).delete(path).set(auth),
});

/** The endpoint's delivery log once every attempt that was due has its outcome written (outcomes are batched). */
async function settledLog(id: string): Promise<{ total: number; data: Array<{ id: string; status: string; attempt: number; response_status: number; event_id: string }> }> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const log = (await api().get(`/v1/webhooks/${id}/deliveries`)).body;
    const open = log.data.some((d: { status: string; next_attempt_at: string }) => d.status === "pending" && Date.parse(d.next_attempt_at) <= Date.now());
    if (!open || Date.now() > deadline) return log;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function endpoint(url: string, events: string[] = ["*"], auth = team.auth): Promise<{ id: string; secret: string }> {
  const res = await api(auth).post("/v1/webhooks", { url, events, description: "test receiver" });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe("webhooks", () => {
  it("signs each event per Standard Webhooks and sends the resource as its REST GET shows it", async () => {
    const r = await receiver();
    const { id, secret } = await endpoint(r.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const created = await api().post("/v1/reports", { address: "1 Hook Street", price: 500000 });
    const published = await api().patch(`/v1/reports/${created.body.data.id}`, { status: "published", price: 510000 });
    expect(published.status).toBe(200);
    const [first, ...rest] = await r.count(3);
    const verified = new Webhook(secret).verify(first.body, first.headers as Record<string, string>) as Received["json"];
    expect(verified.type).toBe("report.created");
    expect(first.headers["webhook-id"]).toBe(first.json.id);
    expect(first.json.id).toMatch(/^evt_/);
    expect(first.headers["content-type"]).toBe("application/json");
    const detail = (await api().get(`/v1/reports/${created.body.data.id}`)).body.data;
    const { comparable_properties: _c, showing_events: _s, social_media_posts: _p, agent_insights: _a, ...report } = detail;
    // A change of publication state with other fields: report.published and report.updated, both with the new state.
    expect(rest.map((d) => d.json.type).sort()).toEqual(["report.published", "report.updated"]);
    for (const d of rest) expect(d.json.data).toEqual(report);
    // The delivery log, newest first, and the event list.
    const log = await settledLog(id);
    expect(log.total).toBe(3);
    expect(log.data[0]).toEqual(expect.objectContaining({ attempt: 1, status: "succeeded", response_status: 200, error: null }));
    // The event list and detail have the payload's shape (created_at stays as an alias of timestamp), so a receiver
    // can recover missed deliveries from them.
    const events = await api().get("/v1/events?type=report.created");
    expect(events.body.data[0]).toEqual({ ...first.json, created_at: first.json.timestamp });
    expect((await api().get(`/v1/events/${first.json.id}`)).body.data).toEqual({ ...first.json, created_at: first.json.timestamp });
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("sends only the subscribed types, and deletions as { id, report_id }", async () => {
    const r = await receiver();
    const { id } = await endpoint(r.url, ["showing.created", "showing.deleted"]);
    const report = (await api().post("/v1/reports", { address: "2 Hook Street" })).body.data;
    const showing = (await api().post("/v1/showings", { report_id: report.id, attendee_name: "Sam" })).body.data;
    const detail = (await api().get(`/v1/showings/${showing.id}`)).body.data;
    await api().delete(`/v1/showings/${showing.id}`);
    const got = await r.count(2);
    expect(got.map((d) => d.json.type)).toEqual(["showing.created", "showing.deleted"]);
    expect(got[0].json.data).toEqual(detail);
    expect(detail).toEqual(expect.objectContaining({ id: showing.id, report_id: report.id, attendee_name: "Sam" }));
    expect(got[1].json.data).toEqual({ id: showing.id, report_id: report.id });
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("sends the events of comparables, insights, social imports and saved summaries", async () => {
    const r = await receiver();
    const types = ["comparable.created", "comparable.updated", "comparable.deleted", "comparables.replaced", "insight.created", "insight.updated", "insight.deleted", "social_posts.imported", "summary.generated"];
    const { id } = await endpoint(r.url, types);
    const report = (await api().post("/v1/reports", { address: "9 Hook Street", square_feet: 2000, price: 400000 })).body.data;
    const comp = (await api().post(`/v1/reports/${report.id}/comparables`, { address: "11 Hook Street", price: 390000, sqft: 1900, adjustments: { garage: 5000 } })).body.data;
    await api().patch(`/v1/comparables/${comp.id}`, { price: 395000 });
    const compAfter = (await api().get(`/v1/comparables/${comp.id}`)).body.data;
    await api().delete(`/v1/comparables/${comp.id}`);
    const replaced = await request(t.app).put(`/v1/reports/${report.id}/comparables`).set(team.auth).send({ comparables: [{ address: "13 Hook Street", price: 410000, sqft: 2100 }] });
    expect(replaced.status).toBe(200);
    const insight = (await api().post(`/v1/reports/${report.id}/insights`, { body: "Priced to move." })).body.data;
    await api().patch(`/v1/insights/${insight.id}`, { title: "Pricing" });
    await api().delete(`/v1/insights/${insight.id}`);
    const post = { platform: "instagram", external_id: "p1", likes: 10, views: 100, metrics_at: "2026-11-01T00:00:00Z" };
    expect((await api().post(`/v1/reports/${report.id}/social-posts/import`, { posts: [post] })).status).toBe(200);
    // The same import again changes nothing: no event.
    expect((await api().post(`/v1/reports/${report.id}/social-posts/import`, { posts: [post] })).body.data.unchanged).toBe(1);
    // A preview (save: false) changes nothing either: only the saved summary sends one.
    expect((await api().post(`/v1/reports/${report.id}/summary`, { save: false })).status).toBe(200);
    const summary = (await api().post(`/v1/reports/${report.id}/summary`, { length: "short" })).body.data;
    const got = await r.count(types.length);
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more arrives
    expect(r.received.map((d) => d.json.type).sort()).toEqual([...types].sort());
    const of = (type: string) => got.find((d) => d.json.type === type)!.json.data;
    expect(of("comparable.created")).toEqual(expect.objectContaining({ id: comp.id, report_id: report.id, adjusted_price: 395000 }));
    expect(of("comparable.updated")).toEqual(compAfter);
    expect(of("comparable.deleted")).toEqual({ id: comp.id, report_id: report.id });
    expect(of("comparables.replaced")).toEqual({ report_id: report.id, comparables: replaced.body.data });
    expect(of("insight.created")).toEqual(insight);
    expect(of("insight.updated")).toEqual(expect.objectContaining({ id: insight.id, title: "Pricing", body: "Priced to move." }));
    expect(of("insight.deleted")).toEqual({ id: insight.id, report_id: report.id });
    expect(of("social_posts.imported")).toEqual({ report_id: report.id, created: 1, updated: 0, unchanged: 0, skipped_stale: 0, failed: 0 });
    expect(of("summary.generated")).toEqual({
      report_id: report.id,
      executive_summary: summary.executive_summary,
      source: "template",
      model: "template-v1",
      generated_at: summary.generated_at,
      warnings: [],
    });
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("retries a failed attempt with the same webhook-id, and records every attempt with what it sent and got back", async () => {
    const r = await receiver([500, 200], (n) => (n === 1 ? `{"error":"${"x".repeat(2000)}é"}` : "thanks"));
    const { id } = await endpoint(r.url, ["report.created"]);
    await api().post("/v1/reports", { address: "3 Hook Street" });
    const [a, b] = await r.count(2);
    expect(b.headers["webhook-id"]).toBe(a.headers["webhook-id"]);
    const log = (await settledLog(id)).data;
    expect(log.map((d: { attempt: number; status: string; response_status: number }) => [d.attempt, d.status, d.response_status])).toEqual([
      [2, "succeeded", 200],
      [1, "retrying", 500],
    ]);
    // Each attempt keeps the headers it sent and the first KiB of the answer (the event viewer shows them).
    const [second, first] = log as unknown as Array<{ request_headers: Record<string, string>; response_body: string }>;
    expect(first.request_headers).toEqual({
      "content-type": "application/json",
      "user-agent": a.headers["user-agent"],
      "webhook-id": a.headers["webhook-id"],
      "webhook-timestamp": a.headers["webhook-timestamp"],
      "webhook-signature": a.headers["webhook-signature"],
    });
    expect(second.request_headers["webhook-signature"]).toBe(b.headers["webhook-signature"]);
    expect(first.response_body).toBe(`{"error":"${"x".repeat(1024 - 10)}`);
    expect(second.response_body).toBe("thanks");
    // Redelivery: the same event again, as attempt 3.
    const again = await api().post(`/v1/webhooks/${id}/deliveries/${log[1].id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.data).toEqual(expect.objectContaining({ attempt: 3, event_id: log[1].event_id, event_type: "report.created" }));
    const [, , c] = await r.count(3);
    expect(c.headers["webhook-id"]).toBe(a.headers["webhook-id"]);
    // The dashboard's event page reads the event with every endpoint's attempts in one query: within the limits.
    const page = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({
        query: `query($id: ID!) { webhookEvent(id: $id) { id type createdAt data deliveries { endpointId state nextAttemptAt event { id type createdAt }
          attempts { id attempt status responseStatus durationMs error createdAt sentAt nextAttemptAt } } } webhookEndpoints(limit: 100) { items { id url enabled } } }`,
        variables: { id: log[1].event_id },
      });
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.webhookEvent.deliveries.find((d: { endpointId: string }) => d.endpointId === id).attempts.map((x: { attempt: number }) => x.attempt)).toEqual([1, 2, 3]);
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("does not retry an event a redelivery delivered: Redeliver sends the pending retry now instead of adding one", async () => {
    const r = await receiver([500, 200]);
    const { id } = await endpoint(r.url, ["report.created"]);
    await api().post("/v1/reports", { address: "6 Redeliver Road" });
    await r.count(1); // attempt 1 failed: attempt 2 is due in a second
    await worker.stop(); // …and waits while nothing sends (stop returns once attempt 1 is recorded)
    try {
      const [retry, failed] = (await api().get(`/v1/webhooks/${id}/deliveries`)).body.data;
      expect([retry.status, failed.status]).toEqual(["pending", "retrying"]);
      const again = await api().post(`/v1/webhooks/${id}/deliveries/${failed.id}/redeliver`);
      expect(again.status).toBe(202);
      expect(again.body.data).toEqual(expect.objectContaining({ id: retry.id, attempt: 2, status: "pending" }));
    } finally {
      worker = startDeliveryWorker();
    }
    await r.count(2);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // past the whole retry schedule (1 s, 1 s): nothing more
    expect(r.received).toHaveLength(2);
    const log = (await settledLog(id)).data;
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [2, "succeeded"],
      [1, "retrying"],
    ]);
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("gives up after the schedule, and disables an endpoint that answers 410", async () => {
    const failing = await receiver([503]);
    const one = await endpoint(failing.url, ["report.created"]);
    const gone = await receiver([410]);
    const two = await endpoint(gone.url, ["report.created"]);
    await api().post("/v1/reports", { address: "4 Hook Street" });
    await failing.count(3); // the first attempt and the schedule's two retries
    await gone.count(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const statuses = (await settledLog(one.id)).data.map((d) => d.status);
    expect(statuses).toEqual(["failed", "retrying", "retrying"]);
    const disabled = (await api().get(`/v1/webhooks/${two.id}`)).body.data;
    expect(disabled).toEqual(expect.objectContaining({ enabled: false, disabled_reason: expect.stringContaining("410") }));
    expect(gone.received).toHaveLength(1);
    // Enabling it again clears the reason.
    const enabled = await api().patch(`/v1/webhooks/${two.id}`, { enabled: true });
    expect(enabled.body.data).toEqual(expect.objectContaining({ enabled: true, disabled_reason: null }));
    for (const e of [one, two]) await api().delete(`/v1/webhooks/${e.id}`);
    await failing.close();
    await gone.close();
  });

  it("sends an endpoint URL's user info as HTTP Basic authentication, and keeps it and query values out of the log", async () => {
    const r = await receiver();
    const url = r.url.replace("http://", "http://user:p%40ss@") + "?token=SECRET";
    const { id } = await endpoint(url, ["report.deleted"]);
    expect((await api().post(`/v1/webhooks/${id}/test`)).status).toBe(202);
    const [delivered] = await r.count(1);
    expect(delivered.headers.authorization).toBe(`Basic ${Buffer.from("user:p@ss").toString("base64")}`);
    expect(delivered.url).toBe(new URL(url).pathname + "?token=SECRET");
    const log = await settledLog(id);
    expect(log.data.map((d) => d.status)).toContain("succeeded");
    const events = (await api().get("/v1/events")).body;
    const audit = (await api().get("/v1/audit-log?action=webhook.created")).body;
    expect(log.data[0]).toEqual(expect.objectContaining({ request_headers: expect.objectContaining({ authorization: "[redacted]" }) }));
    expect(JSON.stringify([log, events, audit])).not.toMatch(/p%40ss|p@ss|SECRET/);
    expect(JSON.stringify(log)).not.toContain(Buffer.from("user:p@ss").toString("base64"));
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("signs with the old and the new secret for a day after a rotation; test events reach only that endpoint", async () => {
    const r = await receiver();
    const { id, secret: old } = await endpoint(r.url, ["report.deleted"]);
    const rotated = await api().post(`/v1/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret;
    expect(fresh).not.toBe(old);
    const test = await api().post(`/v1/webhooks/${id}/test`);
    expect(test.status).toBe(202);
    const [d] = await r.count(1);
    expect(d.json).toEqual(expect.objectContaining({ type: "webhook.test", data: expect.objectContaining({ webhook_id: id }) }));
    expect(String(d.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [old, fresh]) expect(() => new Webhook(secret).verify(d.body, d.headers as Record<string, string>)).not.toThrow();
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("records no event for a change that was refused, and keeps teams apart", async () => {
    const r = await receiver();
    const other = await createTeam();
    const mine = await endpoint(r.url);
    const before = (await api().get("/v1/events")).body.total;
    expect((await api().post("/v1/reports", { price: 5 })).status).toBe(400); // no address
    expect((await api().patch("/v1/reports/00000000-0000-4000-8000-000000000000", { price: 5 })).status).toBe(404);
    expect((await api().get("/v1/events")).body.total).toBe(before);
    // The other team's change reaches neither this team's endpoint nor its event list.
    await api(other.auth).post("/v1/reports", { address: "5 Other Street" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received).toHaveLength(0);
    expect((await api().get("/v1/events")).body.total).toBe(before);
    expect((await api(other.auth).get(`/v1/webhooks/${mine.id}`)).status).toBe(404);
    expect((await api(other.auth).get("/v1/webhooks")).body.total).toBe(0);
    await api().delete(`/v1/webhooks/${mine.id}`);
    await r.close();
  });

  it("sends an endpoint only the events recorded after it was created, even those still waiting for their deliveries", async () => {
    const early = await receiver();
    const late = await receiver();
    await endpoint(early.url);
    let second: { id: string };
    await worker.stop(1000); // no process creates deliveries now: the event waits
    try {
      expect((await api().post("/v1/reports", { address: "7 Waiting Street" })).status).toBe(201);
      second = await endpoint(late.url);
    } finally {
      worker = startDeliveryWorker();
    }
    expect((await early.count(1))[0].json.type).toBe("report.created");
    await api().post("/v1/reports", { address: "8 Waiting Street" }); // …while the later endpoint gets the next one
    expect((await late.count(1))[0].json.data.address).toBe("8 Waiting Street");
    expect((await settledLog(second.id)).total).toBe(1);
    expect(early.received.map((d) => d.json.data.address)).toEqual(["7 Waiting Street", "8 Waiting Street"]);
    for (const hook of (await api().get("/v1/webhooks")).body.data) await api().delete(`/v1/webhooks/${hook.id}`);
    await Promise.all([early.close(), late.close()]);
  });

  it("keeps delivering while requests keep coming (deliveries give way to requests, but do not stop)", async () => {
    const r = await receiver();
    const { id } = await endpoint(r.url);
    let answered = 0;
    let stop = false;
    // Four clients asking one after another without a pause: the process is never without a request to answer.
    const clients = Array.from({ length: 4 }, async () => {
      while (!stop) {
        expect((await api().get("/v1/reports?limit=1")).status).toBe(200);
        answered++;
      }
    });
    try {
      for (let i = 0; i < 3; i++) expect((await api().post("/v1/reports", { address: `${i} Busy Street` })).status).toBe(201);
      await r.count(3); // fails after 10 s: the requests never stopped
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    expect(answered).toBeGreaterThan(10);
    await api().delete(`/v1/webhooks/${id}`);
    await r.close();
  });

  it("answers 400 naming the problem for bad endpoints, and lists the event types", async () => {
    const bad = async (body: object) => (await api().post("/v1/webhooks", body)).body.error;
    expect(await bad({ url: "ftp://example.com", events: ["*"] })).toEqual({ status: 400, message: "url must be an http or https URL of at most 2,000 characters" });
    expect(await bad({ url: "https://example.com", events: [] })).toEqual({ status: 400, message: 'events must list at least one event type, or ["*"]' });
    expect((await bad({ url: "https://example.com", events: ["report.exploded"] })).message).toContain("unknown event type 'report.exploded'");
    expect((await bad({ events: ["*"] })).status).toBe(400);
    // Text PostgreSQL cannot store is refused like everywhere else, never a 500.
    expect(await bad({ url: "http://127.0.0.1/\u0000", events: ["*"] })).toEqual({ status: 400, message: "url contains invalid characters" });
    expect(await bad({ url: "http://127.0.0.1/", events: ["*"], description: "a\u0000b" })).toEqual({ status: 400, message: "description contains invalid characters" });
    expect((await bad({ url: "http://127.0.0.1/", events: ["\u0000"] })).status).toBe(400);
    // A switch is true or false (found by the fuzz suite: null was taken as "not given").
    expect(await bad({ url: "http://127.0.0.1/", events: ["*"], enabled: null })).toEqual({ status: 400, message: "enabled must not be null" });
    const types = (await api().get("/v1/webhooks/event-types")).body.data.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(["report.created", "report.published", "showing.deleted", "webhook.test"]));
    expect((await api().get("/v1/webhooks/00000000-0000-4000-8000-000000000000")).body.error).toEqual({ status: 404, message: "Webhook not found" });
  });
});
