// Bounds on size under load (docs/api.md "GraphQL limits"; RELIABILITY.md reports the figures this prints): three
// requests for hundreds of MiB of long text at once are refused while another team's requests and /health keep
// answering, and the process's heap stays far from its limit. System tier: it times answers.
// (test/response-size.test.ts: the rules one by one, and the count that stops an answer while it is built.)
import { getHeapStatistics } from "node:v8";
import request from "supertest";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "../support/app";

let t: TestApp;
let team: TestTeam;
let other: TestTeam;
let reportId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  other = await createTeam();
  // Within the documented rules: a 20,000-character description and 99 showings.
  const report = await seedReport(team.teamId, "1 Hostile St", {
    description: "x".repeat(20_000),
    showings: { create: Array.from({ length: 99 }, (_, i) => ({ attendeeName: `Visitor ${i}` })) },
  });
  reportId = report.id;
  // The app's first requests load and compile what every later one uses: not what is measured here.
  await request(t.app).post("/graphql").set(team.auth).send({ query: `query($id: ID!) { report(id: $id) { id } }`, variables: { id: reportId } });
  await request(t.app).get("/v1/users/me").set(other.auth);
  await request(t.app).get("/health");
});
afterAll(() => t.close());

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Runs `fn` while sampling the heap and asking another team's GET /v1/users/me and GET /health, timing each. */
async function watched<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; growth: number; probes: Array<{ status: number; ms: number }> }> {
  global.gc?.();
  const before = getHeapStatistics().used_heap_size;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, getHeapStatistics().used_heap_size)), 5);
  const probes: Array<{ status: number; ms: number }> = [];
  let running = true;
  const probe = (async () => {
    for (let i = 0; running || i < 2; i++) {
      const started = performance.now();
      const res = await (i % 2 ? request(t.app).get("/health") : request(t.app).get("/v1/users/me").set(other.auth));
      probes.push({ status: res.status, ms: performance.now() - started });
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  try {
    const result = await fn();
    const ms = performance.now() - started;
    return { result, ms, growth: Math.max(peak, getHeapStatistics().used_heap_size) - before, probes };
  } finally {
    running = false;
    clearInterval(sampler);
    await probe;
  }
}

const NESTED = (directive: string) =>
  `query($id: ID!) { report(id: $id)${directive} { showings(limit: 100) { report { showings(limit: 100) { report { description } } } } } }`;
const ALIASED = `query($id: ID!) { report(id: $id) { showings(limit: 100) { report { ${Array.from({ length: 29 }, (_, i) => `d${i}: description`).join(" ")} } } } }`;

function report(what: string, ms: number, growth: number, probes: Array<{ ms: number }>) {
  const limit = getHeapStatistics().heap_size_limit;
  const slowest = Math.max(...probes.map((p) => p.ms));
  process.stdout.write(
    `response-size-load (${what}): ${Math.round(ms)} ms for three, heap +${mb(growth)} MB at its peak (limit ${mb(limit)} MB), ${probes.length} other requests, slowest ${Math.round(slowest)} ms\n`,
  );
}

describe("three requests for long text at once", () => {
  it("refuses them before they run; another team's requests and /health keep answering", async () => {
    const send = (query: string) => request(t.app).post("/graphql").set(team.auth).send({ query, variables: { id: reportId } });
    const { result, ms, growth, probes } = await watched(() => Promise.all([send(NESTED("")), send(NESTED(" @include(if: true)")), send(ALIASED)]));
    for (const res of result) {
      expect(res.body.data ?? null).toBeNull();
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/^Response too large: it can return \d+\.\d MiB \(at most 8 MiB; select fewer fields or smaller pages\)$/),
          extensions: expect.objectContaining({ code: "QUERY_TOO_COMPLEX" }),
        }),
      ]);
    }
    report("refused by the estimate", ms, growth, probes);
    expect(probes.every((p) => p.status === 200)).toBe(true);
    // Generous: the finding is another request dropped, or waiting for minutes, not our speed.
    expect(probes.every((p) => p.ms < 1000)).toBe(true);
    expect(growth).toBeLessThan(getHeapStatistics().heap_size_limit / 8);
  });
});
