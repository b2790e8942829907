// Bounds on size (docs/api.md "GraphQL limits", README "Limits"): every answer, GraphQL or REST, is at most
// MAX_RESPONSE_BYTES. A request whose estimate (long text priced by its field's bound) passes it is refused before it
// runs; an answer that grows past it while built (multi-byte text the estimate priced at a byte a character) is
// stopped, on both read engines; REST answers 413. (test/system/response-size-load.test.ts: three at once, /health
// answering.)
import request from "supertest";
import { restRouter } from "../src/rest";
import { restOperations } from "../src/rest/graphql";
import { config } from "../src/config";
import { prisma } from "../src/db";
import { schema } from "../src/schema";
import { bytesFromQuery, formatBytes } from "../src/schema/limits";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

/** A file part as the multipart request gives it (a photo upload's variable). */
const UPLOADED = { size: 1, type: "image/png", name: "x.png", arrayBuffer: async () => new ArrayBuffer(1) };

let t: TestApp;
let team: TestTeam;
let reportId: string;

const DESCRIPTION = "Sunny rooms, a quiet street. ".repeat(690).slice(0, 20_000);

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  // Within the documented rules: a 20,000-character description and 99 showings.
  const report = await seedReport(team.teamId, "1 Long Text St", {
    description: DESCRIPTION,
    showings: { create: Array.from({ length: 99 }, (_, i) => ({ attendeeName: `Visitor ${i}` })) },
  });
  reportId = report.id;
});
afterAll(() => t.close());

const post = (query: string, variables: Record<string, unknown> = {}, accept = "application/graphql-response+json", auth = team.auth) =>
  request(t.app).post("/graphql").set(auth).set("Accept", accept).send({ query, variables });

/** With MAX_RESPONSE_BYTES lowered for the duration of `fn`. */
async function withLimit<T>(bytes: number, fn: () => Promise<T>): Promise<T> {
  const before = config.MAX_RESPONSE_BYTES;
  config.MAX_RESPONSE_BYTES = bytes;
  try {
    return await fn();
  } finally {
    config.MAX_RESPONSE_BYTES = before;
  }
}

const TOO_LARGE = (what: string, limit = "8 MiB") =>
  new RegExp(`^Response too large: ${what} \\(at most ${limit}; select fewer fields or smaller pages\\)$`);

function expectRefused(res: request.Response, message: RegExp) {
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
  expect(res.body.errors[0].message).toMatch(message);
}

// The resolvers answer a root with a directive; the one-statement path the same document without it.
const ENGINES = [
  ["the one-statement path", ""],
  ["the resolvers", " @include(if: true)"],
] as const;

describe("refused before it runs, by its estimate", () => {
  it.each(ENGINES)("refuses long text repeated through nested lists on %s", async (_engine, directive) => {
    const query = `query($id: ID!) { report(id: $id)${directive} { showings(limit: 100) { report { showings(limit: 100) { report { description } } } } } }`;
    const res = await post(query, { id: reportId });
    expect(res.status).toBe(400);
    expectRefused(res, TOO_LARGE("it can return 19\\d\\.\\d MiB"));
  });

  it.each(ENGINES)("refuses 29 aliases of a long text field under a list on %s", async (_engine, directive) => {
    const aliases = Array.from({ length: 29 }, (_, i) => `d${i}: description`).join(" ");
    const res = await post(`query($id: ID!) { report(id: $id)${directive} { showings(limit: 100) { report { ${aliases} } } } }`, { id: reportId });
    expect(res.status).toBe(400);
    expectRefused(res, TOO_LARGE("it can return 5\\d\\.\\d MiB"));
  });

  it("answers the same fields on a page the size allows", async () => {
    const res = await post(`query($id: ID!) { report(id: $id) { showings(limit: 100) { report { description } } } }`, { id: reportId });
    expect(res.status).toBe(200);
    expect(res.body.data.report.showings).toHaveLength(99);
    expect(res.body.data.report.showings[98].report.description).toBe(DESCRIPTION);
  });

  it("prices long text by what the team stored: a page of reports with every collection answers while its texts are short", async () => {
    // 50 reports × 100 insights × a 20,000-character bound would be 95 MiB; priced by what is stored it is small.
    const page = `{ reports(limit: 50) { items { id description executiveSummary agentInsights { body } showings { feedback } } } }`;
    const short = await createTeam();
    const long = await createTeam();
    for (const [team, body] of [[short, "Priced to sell."], [long, "x".repeat(20_000)]] as const) {
      const report = await seedReport(team.teamId, `2 ${team.teamId} Rd`, { description: "A short one." });
      await prisma.agentInsight.create({ data: { teamId: team.teamId, reportId: report.id, author: "A", body } });
    }
    const answered = await post(page, {}, "application/graphql-response+json", short.auth);
    expect(answered.status).toBe(200);
    expect(answered.body.data.reports.items[0].agentInsights).toEqual([{ body: "Priced to sell." }]);
    // A team that stored a 20,000-character insight is priced by it: the same page could pass the bound.
    const refused = await post(page, {}, "application/graphql-response+json", long.auth);
    expect(refused.status).toBe(400);
    expectRefused(refused, TOO_LARGE("it can return 9\\d\\.\\d MiB"));
  });

  it("counts __typename aliases against the alias limit", async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `t${i}: __typename`).join(" ");
    const refused = await post(`{ ${aliases(3000)} }`);
    expect(refused.status).toBe(400);
    expectRefused(refused, /^Query too complex: 3000 aliases, the limit is 30$/);
    const within = await post(`{ ${aliases(30)} }`);
    expect(within.status).toBe(200);
    expect(within.body.data.t29).toBe("Query");
  });

  it("refuses a subscription whose events could each pass the bound, before its stream opens", async () => {
    const query = `subscription($id: ID!) { reportEvents(reportId: $id) { report { showings(limit: 100) { report { showings(limit: 100) { report { description } } } } } } }`;
    const res = await post(query, { id: reportId }, "text/event-stream");
    expect(res.status).toBe(400);
    expectRefused(res, TOO_LARGE("it can return 19\\d\\.\\d MiB"));
  });

  it("keeps every REST document's estimate within the default bound", () => {
    restRouter(); // every REST module is loaded
    const variables = { limit: 100, first: 100, offset: 0, status: "all", granularity: "HOUR", comparables: [], posts: [{}], manifest: {}, showingId: "x", format: "SVG", baseUrl: "https://reports.example.com", file: UPLOADED, alt: "x" };
    const uuid = "00000000-0000-4000-8000-000000000000";
    const ids = { id: uuid, reportId: uuid, deliveryId: uuid, address: "x", atomic: false };
    // Mutations' required input, as test/graphql-limits.test.ts gives it.
    const input = (name: string) =>
      /CreateShowing/.test(name) ? { reportId: uuid } : /CreateReport|CreateComparable/.test(name) ? { address: "x" } : /CreateAgentInsight/.test(name) ? { body: "x" } : /CreateWebhook/.test(name) ? { url: "x", events: ["*"] } : /CreateCrmDestination/.test(name) ? { kind: "json" } : {};
    const over = restOperations
      .map((op) => [op.name, bytesFromQuery(schema, op.document, {}, { ...variables, ...ids, input: input(op.name), status: /Deliveries/.test(op.name) ? "failed" : "all" })] as const)
      .filter(([, bytes]) => bytes > config.MAX_RESPONSE_BYTES)
      .map(([name, bytes]) => `${name}: ${formatBytes(bytes)}`);
    expect(over).toEqual([]);
  });
});

describe("stopped while it is built", () => {
  // 20,000 three-byte characters: 60,000 bytes each, priced 20,000 by the estimate.
  const WIDE = "€".repeat(20_000);
  let wide: TestTeam;
  let wideIds: string[];
  const postWide = (query: string) => post(query, {}, undefined, wide.auth);
  beforeAll(async () => {
    wide = await createTeam();
    wideIds = [];
    for (let i = 0; i < 3; i++) {
      const created = await post(`mutation($input: CreateReportInput!) { createReport(input: $input) { id } }`, {
        input: { address: `${i} Wide St`, description: WIDE },
      }, undefined, wide.auth);
      wideIds.push(created.body.data.createReport.id);
    }
  });

  it.each(ENGINES)("stops an answer whose text passes the bound on %s", async (_engine, directive) => {
    const query = `{ reports(limit: 3)${directive} { items { id description } } }`;
    // Estimated at ~60 KB, within 100 KiB; built at 180 KB.
    await withLimit(100 * 1024, async () => {
      const res = await postWide(query);
      expectRefused(res, TOO_LARGE("the answer grew past the limit while it was built", "100 KiB"));
    });
    const res = await postWide(query);
    expect(res.status).toBe(200);
    expect(res.body.data.reports.items.map((r: { description: string }) => r.description)).toEqual([WIDE, WIDE, WIDE]);
  });

  it("answers REST's detail and list 413 with the bound's message", async () => {
    await withLimit(100 * 1024, async () => {
      const detail = await request(t.app).get(`/v1/reports/${wideIds[0]}`).set(wide.auth);
      expect(detail.status).toBe(200); // 60 KB of description
      await prisma.report.update({ where: { id: wideIds[0] }, data: { executiveSummary: WIDE } });
      const large = await request(t.app).get(`/v1/reports/${wideIds[0]}`).set(wide.auth);
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ error: { status: 413, message: expect.stringMatching(TOO_LARGE("the answer grew past the limit while it was built", "100 KiB")) } });
    });
    await withLimit(1024, async () => {
      const list = await request(t.app).get(`/v1/reports?limit=100`).set(wide.auth);
      expect(list.status).toBe(413);
      expect(list.body.error.message).toMatch(TOO_LARGE("the answer grew past the limit while it was built", "1 KiB"));
    });
    const detail = await request(t.app).get(`/v1/reports/${wideIds[0]}`).set(wide.auth);
    expect(detail.status).toBe(200);
    expect(detail.body.data.executive_summary).toBe(WIDE);
  });
});
