// Summaries by an OpenAI-compatible model (AI_PROVIDER=openai) against a fake Chat Completions server this test
// starts on 127.0.0.1 (no network): what the model is sent, retries, failures (502/504, nothing saved), and the
// screen of what it answers (fair-housing phrases, ungrounded numbers, length).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import type { TestApp, TestTeam } from "./support/app";

type Answer = { status: number; body?: unknown; delayMs?: number; headers?: Record<string, string> };
const completion = (content: string | null) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: "local-model-q4",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
});

/** The answers the fake model gives, in order (the last repeats), and the requests it received. */
let answers: Answer[] = [];
let received: Array<{ path: string; headers: IncomingMessage["headers"]; body: any }> = [];
const answer = (...list: Answer[]) => {
  answers = list;
  received = [];
};
const says = (content: string | null): Answer => ({ status: 200, body: completion(content) });
// retry-after-ms keeps the client's back-off short.
const fails = (status: number): Answer => ({ status, body: { error: { message: "boom", type: "server_error" } }, headers: { "retry-after-ms": "10" } });

let server: Server;
let t: TestApp;
let team: TestTeam;
let reportId: string;
let api: ReturnType<typeof import("./support/openapi.js").restClient>;
let config: typeof import("../src/config.js").config;
const saved = {} as Record<string, string | undefined>;
const ENV = { AI_PROVIDER: "openai", AI_API_KEY: "sk-test-123", AI_MODEL: "local-model", AI_TIMEOUT_MS: "400", AI_FAIR_HOUSING: "warn" };

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(raw || "null") });
      const next = answers.length > 1 ? answers.shift()! : answers[0];
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(next.status, { "content-type": "application/json", ...next.headers });
        res.end(JSON.stringify(next.body ?? {}));
      }, next.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // The provider is configured from the environment when the service's modules load: set it, then load them.
  const env = { ...ENV, AI_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
  for (const [name, value] of Object.entries(env)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
  const support = await import("./support/app.js");
  const { restClient } = await import("./support/openapi.js");
  config = (await import("../src/config.js")).config;
  t = await support.startTestApp();
  team = await support.createTeam();
  api = restClient(t.app, team.auth);
  reportId = (await api.post("/v1/reports", { address: "42 Harbor View Road", city: "Portland", price: 615000, square_feet: 2400 })).body.data.id;
  await api.post(`/v1/reports/${reportId}/insights`, { body: "Two waterfront homes sold in under a week." });
  await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Written by hand." });
});
afterAll(async () => {
  await t?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const errorOf = (res: { status: number; body: any }) => ({ status: res.status, message: res.body.error?.message });
const summarize = (body: Record<string, unknown> = {}) => api.post(`/v1/reports/${reportId}/summary`, body);
const stored = async () => (await api.get(`/v1/reports/${reportId}`)).body.data.executive_summary;

const GOOD = "42 Harbor View Road in Portland is listed at $615,000, with 2,400 square feet. Two waterfront homes nearby sold in under a week.";

describe("AI_PROVIDER=openai", () => {
  it("sends the model, the key and the report's inputs, and returns and saves the model's text", async () => {
    answer(says(GOOD));
    const res = await summarize({ tone: "luxury", length: "short" });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      report_id: reportId,
      executive_summary: GOOD,
      source: "ai",
      model: "local-model-q4",
      generated_at: expect.any(String),
      saved: true,
      warnings: [],
    });
    expect(await stored()).toBe(GOOD);

    expect(received).toHaveLength(1);
    const [{ path, headers, body }] = received;
    expect(path).toBe("/v1/chat/completions");
    expect(headers.authorization).toBe("Bearer sk-test-123");
    expect(body.model).toBe("local-model");
    const [system, user] = body.messages;
    expect(system.role).toBe("system");
    expect(system.content).toMatch(/Do not invent facts/);
    expect(system.content).toMatch(/Tone: luxury/);
    expect(system.content).toMatch(/at most 60 words/);
    expect(system.content).toMatch(/perfect for families/);
    const inputs = JSON.parse(user.content);
    expect(inputs.property).toMatchObject({ address: "42 Harbor View Road", city: "Portland", price: 615000, sqft: 2400 });
    expect(inputs.insights).toEqual([{ category: "other", title: null, body: "Two waterfront homes sold in under a week." }]);
    expect(inputs).toMatchObject({ valuation: null, social: null, showings: { showings: 0, open_houses: 0, feedback: [] } });
  });

  it("retries after one 500 and succeeds", async () => {
    answer(fails(500), says(GOOD));
    const res = await summarize({ save: false });
    expect(res.status).toBe(200);
    expect(received).toHaveLength(2);
  });

  it("answers 502 after the retries fail, and saves nothing", async () => {
    await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Written by hand." });
    answer(fails(500));
    expect(errorOf(await summarize())).toEqual({ status: 502, message: "AI provider failed: HTTP 500: boom" });
    expect(received).toHaveLength(3); // the first attempt and 2 retries
    expect(await stored()).toBe("Written by hand.");

    answer(says(""));
    expect(errorOf(await summarize())).toEqual({ status: 502, message: "AI provider failed: the answer had no text" });
    expect(await stored()).toBe("Written by hand.");
  });

  it("answers 504 when the model is too slow, and saves nothing", async () => {
    answer({ ...says(GOOD), delayMs: 2000 });
    expect(errorOf(await summarize())).toEqual({ status: 504, message: "AI provider failed: no answer within 400 ms" });
    expect(received).toHaveLength(3);
    expect(await stored()).toBe("Written by hand.");
  });

  it("warns of flagged phrases and of numbers that are not in the inputs", async () => {
    const text = "42 Harbor View Road is perfect for families, a Master Bedroom upstairs, 26 years old and 3% under $634,000.";
    answer(says(text));
    const res = await summarize();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      executive_summary: text,
      saved: true,
      warnings: ["fair_housing:perfect for families", "fair_housing:master bedroom", "ungrounded_number:26", "ungrounded_number:3", "ungrounded_number:634,000"],
    });
    expect(await stored()).toBe(text);
  });

  it("with AI_FAIR_HOUSING=block refuses to save flagged text (422), but shows it unsaved", async () => {
    await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Written by hand." });
    config.AI_FAIR_HOUSING = "block";
    try {
      answer(says("42 Harbor View Road sits in a safe neighborhood."));
      expect(errorOf(await summarize())).toEqual({ status: 422, message: 'Summary not saved: the fair-housing screen flagged "safe neighborhood"' });
      expect(await stored()).toBe("Written by hand.");
      const unsaved = await summarize({ save: false });
      expect(unsaved.status).toBe(200);
      expect(unsaved.body.data).toMatchObject({ saved: false, warnings: ["fair_housing:safe neighborhood"] });
      answer(says(GOOD));
      expect((await summarize()).body.data).toMatchObject({ saved: true, warnings: [] });
    } finally {
      config.AI_FAIR_HOUSING = "warn";
    }
  });

  // Each disguise renders like a listed phrase and went through with no warning.
  const DISGUISED: Array<[string, string]> = [
    ["family\u2011friendly", "family-friendly"], // non-breaking hyphen
    ["family\u2013friendly", "family-friendly"], // en dash
    ["mas\u00adter bedroom", "master bedroom"], // soft hyphen
    ["master\u200b bedroom", "master bedroom"], // zero-width space
    ["m\u0430ster bedroom", "master bedroom"], // Cyrillic a
    ["n\u03bf children", "no children"], // Greek omicron
    ["home perfect for \uff46\uff41\uff4d\uff49\uff4c\uff49\uff45\uff53", "perfect for families"], // full-width
    ["sa\u0301fe\u0308 neighborhood", "safe neighborhood"], // combining marks
  ];

  it("sees through Unicode disguises of a flagged phrase, in REST and GraphQL, and keeps the text as written", async () => {
    for (const [disguise, phrase] of DISGUISED) {
      const text = `42 Harbor View Road has a ${disguise}.`;
      answer(says(text));
      const rest = await summarize({ save: false });
      expect([disguise, rest.status, rest.body.data]).toEqual([disguise, 200, expect.objectContaining({ executive_summary: text, warnings: [`fair_housing:${phrase}`] })]);
      const gql = await request(t.app)
        .post("/graphql")
        .set(team.auth)
        .send({ query: `mutation($id: ID!) { generateSummary(reportId: $id, save: false) { executiveSummary warnings } }`, variables: { id: reportId } });
      expect([disguise, gql.body]).toEqual([disguise, { data: { generateSummary: { executiveSummary: text, warnings: [`fair_housing:${phrase}`] } }, extensions: { cost: expect.anything() } }]);
    }
  });

  it("with AI_FAIR_HOUSING=block refuses a disguised phrase too, naming the listed phrase", async () => {
    await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Written by hand." });
    config.AI_FAIR_HOUSING = "block";
    try {
      answer(says("42 Harbor View Road has a m\u0430ster\u200b bedroom."));
      expect(errorOf(await summarize())).toEqual({ status: 422, message: 'Summary not saved: the fair-housing screen flagged "master bedroom"' });
      expect(await stored()).toBe("Written by hand.");
    } finally {
      config.AI_FAIR_HOUSING = "warn";
    }
  });

  it("cuts a text longer than the length allows to its sentences that fit", async () => {
    const sentence = "42 Harbor View Road offers 2,400 square feet of bright space near the water.";
    answer(says(Array(8).fill(sentence).join(" "))); // 8 × 14 = 112 words
    const res = await summarize({ length: "short", save: false });
    expect(res.body.data.executive_summary).toBe(Array(4).fill(sentence).join(" "));
    expect(res.body.data.warnings).toEqual(["truncated:112"]);
  });

  it("reports a provider failure to GraphQL clients too", async () => {
    answer(fails(503));
    const res = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `mutation($id: ID!) { generateSummary(reportId: $id) { saved } }`, variables: { id: reportId } });
    expect(res.body.errors[0]).toMatchObject({ message: "AI provider failed: HTTP 503: boom", extensions: { code: "AI_PROVIDER_FAILED", status: 502 } });
  });
});
