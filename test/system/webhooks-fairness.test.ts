// One team cannot hold up another team's webhooks: a team whose endpoints never answer, with a backlog of events,
// delays another team's delivery by at most one attempt timeout (its attempts wait for its own share of the delivery
// slots). And a team holds at most 20 endpoints, also when creates arrive together, in REST and GraphQL.
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.WEBHOOK_TIMEOUT_MS = "1000"; // a hanging receiver holds a slot for 1 s
process.env.WEBHOOK_RETRY_SCHEDULE = "300"; // no retry within the test
process.env.WEBHOOK_POLL_MS = "100";

import request from "supertest";
import { config } from "../../src/config";
import { startDeliveryWorker, type DeliveryWorker } from "../../src/webhooks/worker";
import { createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { receiver, type Receiver } from "../support/receiver";

jest.setTimeout(60_000);

let t: TestApp;
let worker: DeliveryWorker;
beforeAll(async () => {
  t = await startTestApp();
  worker = startDeliveryWorker();
});
afterAll(async () => {
  await worker.stop(1000);
  await t.close();
});

const addEndpoint = (team: TestTeam, url: string) => request(t.app).post("/v1/webhooks").set(team.auth).send({ url, events: ["report.created"] });
const addReport = (team: TestTeam, address: string) => request(t.app).post("/v1/reports").set(team.auth).send({ address });

it("a team whose endpoints hang, with a backlog, delays another team's delivery by at most one timeout", async () => {
  const hostile = await createTeam();
  const healthy = await createTeam();
  // Six endpoints that never answer (each attempt holds its slot until the timeout), more than the process's slots.
  const hanging: Receiver[] = await Promise.all(Array.from({ length: 6 }, () => receiver([0])));
  const ok = await receiver();
  try {
    for (const r of hanging) expect((await addEndpoint(hostile, r.url)).status).toBe(201);
    expect((await addEndpoint(healthy, ok.url)).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await addReport(hostile, `${i} Backlog Street`)).status).toBe(201); // 60 deliveries
    const hostileAttempts = () => hanging.reduce((n, r) => n + r.received.length, 0);
    // Every slot of the process is held by a hanging attempt…
    for (let waited = 0; hostileAttempts() < config.WEBHOOK_CONCURRENCY; waited += 50) {
      if (waited > 20_000) throw new Error(`only ${hostileAttempts()} hostile attempts started`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // …when the healthy team's change commits.
    const before = hostileAttempts();
    expect((await addReport(healthy, "1 Healthy Road")).status).toBe(201);
    const [delivered] = await ok.count(1, 30_000);
    expect(delivered.json.data.address).toBe("1 Healthy Road");
    // Slots free up once the hanging attempts time out: the healthy team's delivery goes out in that first round of
    // new claims, not after the hostile team's backlog (50 more attempts, a second each per slot).
    expect(hostileAttempts() - before).toBeLessThanOrEqual(config.WEBHOOK_CONCURRENCY);
  } finally {
    await Promise.all([...hanging, ok].map((r) => r.close()));
  }
});

describe("at most 20 endpoints per team", () => {
  const LIMIT = "Webhook limit reached: a team holds at most 20 endpoints";

  it("refuses the 21st endpoint in REST, also when 25 creates arrive together, and again after a delete frees a place", async () => {
    const team = await createTeam();
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => addEndpoint(team, `http://127.0.0.1:9/hook-${i}`)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused.map(errorOf)).toEqual(Array(5).fill({ status: 400, message: LIMIT }));
    expect((await request(t.app).get("/v1/webhooks").set(team.auth)).body.total).toBe(20);
    const first = answers.find((a) => a.status === 201)!.body.data.id;
    expect((await request(t.app).delete(`/v1/webhooks/${first}`).set(team.auth)).status).toBe(200);
    expect((await addEndpoint(team, "http://127.0.0.1:9/again")).status).toBe(201);
    expect(errorOf(await addEndpoint(team, "http://127.0.0.1:9/one-more"))).toEqual({ status: 400, message: LIMIT });
  });

  it("refuses the 21st endpoint in GraphQL, each aliased create counted", async () => {
    const team = await createTeam();
    const creates = Array.from({ length: 21 }, (_, i) => `c${i}: createWebhookEndpoint(input: { url: "http://127.0.0.1:9/g-${i}", events: ["*"] }) { endpoint { id } }`);
    const res = await request(t.app).post("/graphql").set(team.auth).send({ query: `mutation { ${creates.join("\n")} }` });
    const errors = res.body.errors as Array<{ message: string; extensions: { code: string; status: number } }>;
    expect(errors).toEqual([expect.objectContaining({ message: LIMIT, extensions: expect.objectContaining({ code: "BAD_USER_INPUT", status: 400 }) })]);
    expect((await request(t.app).get("/v1/webhooks").set(team.auth)).body.total).toBe(20);
  });
});
