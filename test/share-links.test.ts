// Share links, their public page and the report's PDF (docs/api.md "Share links") on the real
// stack: REST answers checked against the OpenAPI document, the page's HTML and the PDF's text read back (pdfjs).
process.env.RATE_LIMIT_ANONYMOUS = "400"; // the page's budget per client address; the last test spends it
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true"; // the share_link.viewed receiver listens on 127.0.0.1
process.env.TRUST_PROXY = "true"; // a visitor's address from X-Forwarded-For where a test sets one (views per visitor)
import { createServer } from "node:http";
import pino from "pino";
import request from "supertest";
import { prisma } from "../src/db";
import { logger } from "../src/logger";
import { contrast, parseHex, WHITE } from "../src/share/contrast";
import { addKey, createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { restClient } from "./support/openapi";
import { teamApp, type RestClient } from "./support/team-app";
import { pdfText } from "./support/pdf-text";
import { receiver } from "./support/receiver";
import { startDeliveryWorker } from "../src/webhooks/worker";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp()));
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
/** Resolves once `found` holds, checking every 10 ms (for at most 5 s). */
async function until(found: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !found(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const SWITCHES = ["show_comps_on_report", "show_showings_on_report", "show_social_on_report", "show_agent_insights_on_report", "show_neighborhood_on_report"] as const;
/** The section each switch governs, by its id on the page and its heading in the PDF. */
const SECTIONS: Record<(typeof SWITCHES)[number], { id: string; heading: string; marker: string }> = {
  show_comps_on_report: { id: "valuation", heading: "Market valuation", marker: "12 Elm St" },
  show_showings_on_report: { id: "activity", heading: "Showing activity", marker: "Open house" },
  show_social_on_report: { id: "social", heading: "Social media reach", marker: "instagram" },
  show_agent_insights_on_report: { id: "insights", heading: "Agent insights", marker: "Priced to sell" },
  show_neighborhood_on_report: { id: "neighborhood", heading: "The neighborhood", marker: "Quiet street near the park" },
};
/** Private fields seeded on every report: none may ever reach the page or the PDF. */
const PRIVATE = ["Pat Private", "pat.private@example.com", "+1 555 0199", "Buyer thought the kitchen was dated", "Sam Secret", "sam.secret@example.com", "555-0142", "Agent Only"];

/** A report with something in every section, and showings carrying private contact details and feedback. */
async function fullReport(client = api, extra: Record<string, unknown> = {}) {
  const res = await client.post("/v1/reports", {
    address: "1 Subject St",
    city: "Springfield",
    state: "IL",
    zip: "62704",
    price: 700000,
    beds: 3,
    baths: 2,
    sqft: 2000,
    description: "A bright family home.",
    custom_agent_name: "Jordan Agent",
    custom_agent_email: "jordan@example.com",
    ...extra,
  });
  expect(res.status).toBe(201);
  const id = res.body.data.id as string;
  for (const [address, price, sqft] of [["12 Elm St", 600000, 2000], ["3 Oak Ave", 640000, 2000], ["5 Pine Rd", 585000, 1800]] as const) {
    expect((await client.post(`/v1/reports/${id}/comparables`, { address, price, sqft, sale_date: "2026-06-01T00:00:00Z" })).status).toBe(201);
  }
  const showings = [
    { attendee_name: "Pat Private", attendee_email: "pat.private@example.com", attendee_phone: "+1 555 0199", feedback: "Buyer thought the kitchen was dated", agent_name: "Agent Only", showing_date: "2026-07-01T15:00:00Z", rating: 2 },
    { event_type: "open_house", attendee_name: "Sam Secret", attendee_email: "sam.secret@example.com", attendee_phone: "555-0142", attendees_count: 14, showing_date: "2026-07-04T15:00:00Z" },
  ];
  for (const s of showings) expect((await client.post("/v1/showings", { report_id: id, ...s })).status).toBe(201);
  const posts = { posts: [{ platform: "instagram", external_id: "p1", likes: 10, comments: 2, shares: 1, views: 400, caption: "Just listed" }] };
  expect((await request(t.app).post(`/v1/reports/${id}/social-posts/import`).set(team.auth).send(posts)).status).toBe(200);
  expect((await client.post(`/v1/reports/${id}/insights`, { title: "Priced to sell", body: "Three pending sales closed above list.", category: "pricing" })).status).toBe(201);
  expect((await client.post(`/v1/reports/${id}/insights`, { title: "Location", body: "Quiet street near the park.", category: "neighborhood" })).status).toBe(201);
  // Written last, as an agent writes it: from the facts above (the client reads it only while they hold).
  expect((await client.patch(`/v1/reports/${id}`, { executive_summary: "Priced in line with recent sales." })).status).toBe(200);
  return id;
}

async function share(reportId: string, body: Record<string, unknown> = {}) {
  const res = await api.post(`/v1/reports/${reportId}/share-links`, body);
  expect(res.status).toBe(201);
  return res.body.data as { id: string; token: string; url: string; expires_at: string; warnings: string[] };
}
const page = (token: string) => request(t.app).get(`/r/${token}`);
const pdf = async (path: string, auth: Record<string, string> = {}) => {
  const res = await request(t.app).get(path).set(auth).buffer(true).parse((r, done) => {
    const chunks: Buffer[] = [];
    r.on("data", (c: Buffer) => chunks.push(c));
    r.on("end", () => done(null, Buffer.concat(chunks)));
  });
  return { res, text: res.status === 200 ? (await pdfText(res.body)).join("\n") : "" };
};

describe("the executive summary the client reads", () => {
  const summaryOf = async (reportId: string) => (await api.get(`/v1/reports/${reportId}/summary`)).body.data;

  it("never quotes a hidden section or a changed fact: the page and PDF rewrite it from what the client is shown", async () => {
    const reportId = await fullReport();
    const generated = await api.post(`/v1/reports/${reportId}/summary`, { tone: "warm" });
    expect(generated.status).toBe(200);
    const written: string = generated.body.data.executive_summary;
    expect(written).toContain("It is offered at $700,000");
    expect(written).toMatch(/Nearby comparable homes point to a value of \$640,000/);
    expect(await summaryOf(reportId)).toEqual({ report_id: reportId, executive_summary: written, summary_stale: false, summary_stale_fields: [] });
    const { token } = await share(reportId);
    expect((await page(token)).text).toContain("It is offered at $700,000");

    // The agent lowers the price and hides the comparables, showings and social sections.
    const hidden = { price: 689000, show_comps_on_report: false, show_showings_on_report: false, show_social_on_report: false };
    expect((await api.patch(`/v1/reports/${reportId}`, hidden)).status).toBe(200);
    expect(await summaryOf(reportId)).toEqual({ report_id: reportId, executive_summary: written, summary_stale: true, summary_stale_fields: ["price"] });
    const html = (await page(token)).text;
    const { text } = await pdf(`/r/${token}.pdf`);
    for (const shown of [html, text]) {
      expect(shown).toContain("Executive summary");
      expect(shown).toContain("$689,000");
      for (const gone of ["$700,000", "$640,000", "comparable", "rated", "out of 5", "views", "open house"]) expect({ gone, found: shown.includes(gone) }).toEqual({ gone, found: false });
    }
    for (const secret of PRIVATE) expect(html).not.toContain(secret);
    // GraphQL says the same.
    const gql = await request(t.app)
      .post("/graphql")
      .set(team.auth)
      .send({ query: `{ report(id: "${reportId}") { executiveSummary summaryStale summaryStaleFields } }` });
    expect(gql.body.data.report).toEqual({ executiveSummary: written, summaryStale: true, summaryStaleFields: ["price"] });
  });

  it("keeps the agent's own text while it holds, and says which facts changed once they do", async () => {
    const reportId = await fullReport();
    const { token } = await share(reportId);
    expect((await page(token)).text).toContain("Priced in line with recent sales.");
    expect((await api.post(`/v1/reports/${reportId}/comparables`, { address: "8 New St", price: 990000, sqft: 2000, sale_date: "2026-06-02T00:00:00Z" })).status).toBe(201);
    expect((await summaryOf(reportId)).summary_stale_fields).toEqual(["valuation"]);
    expect((await page(token)).text).not.toContain("Priced in line with recent sales.");
    // Written again: it holds again. Cleared: nothing to be stale.
    expect((await api.patch(`/v1/reports/${reportId}`, { executive_summary: "Updated after the new sale." })).status).toBe(200);
    expect(await summaryOf(reportId)).toMatchObject({ summary_stale: false, summary_stale_fields: [] });
    expect((await page(token)).text).toContain("Updated after the new sale.");
    expect((await api.patch(`/v1/reports/${reportId}`, { executive_summary: null })).status).toBe(200);
    expect(await summaryOf(reportId)).toEqual({ report_id: reportId, executive_summary: null, summary_stale: null, summary_stale_fields: null });
    expect((await page(token)).text).not.toContain("Executive summary");
  });
});

describe("share links over REST", () => {
  it("makes a link with a token and url shown once, lists it without them, and revokes it at once", async () => {
    const reportId = await fullReport();
    const before = Date.now();
    const res = await api.post(`/v1/reports/${reportId}/share-links`, { label: "For the Smiths" });
    expect(res.status).toBe(201);
    const link = res.body.data;
    expect(link).toEqual({
      id: expect.any(String),
      report_id: reportId,
      label: "For the Smiths",
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/r\/[A-Za-z0-9_-]{43}$/),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
      created_at: expect.any(String),
      revoked_at: null,
      views_count: 0,
      last_viewed_at: null,
      // A new report is a draft: the answer says so before the agent sends the link.
      warnings: ["report_is_draft"],
    });
    expect(link.url.endsWith(`/r/${link.token}`)).toBe(true);
    // Default: 30 days.
    expect(Math.abs(new Date(link.expires_at).getTime() - (before + 30 * DAY))).toBeLessThan(60_000);
    // Only the hash is stored.
    const row = await prisma.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(JSON.stringify(row)).not.toContain(link.token);

    const list = await api.get(`/v1/reports/${reportId}/share-links`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(list.body.data[0]).toEqual({ id: link.id, report_id: reportId, label: "For the Smiths", expires_at: link.expires_at, created_at: link.created_at, revoked_at: null, views_count: 0, last_viewed_at: null });
    expect(JSON.stringify(list.body)).not.toContain(link.token);

    expect((await page(link.token)).status).toBe(200);
    const revoked = await api.delete(`/v1/reports/${reportId}/share-links/${link.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).toEqual(expect.any(String));
    const gone = await page(link.token);
    expect(gone.status).toBe(404);
    expect(gone.type).toBe("text/html");
    expect(gone.text).not.toContain("1 Subject St");
    expect((await pdf(`/r/${link.token}.pdf`)).res.status).toBe(404);
    // Revoking again changes nothing.
    expect((await api.delete(`/v1/reports/${reportId}/share-links/${link.id}`)).body.data.revoked_at).toBe(revoked.body.data.revoked_at);
  });

  it("warns when the report is a draft, and not once it is published (REST and GraphQL)", async () => {
    const reportId = await fullReport();
    expect((await share(reportId)).warnings).toEqual(["report_is_draft"]);
    const gql = (query: string) => request(t.app).post("/graphql").set(team.auth).send({ query });
    const draft = await gql(`mutation { createShareLink(reportId: "${reportId}") { warnings } }`);
    expect(draft.body.data.createShareLink.warnings).toEqual(["report_is_draft"]);
    expect((await api.patch(`/v1/reports/${reportId}`, { status: "published" })).status).toBe(200);
    expect((await share(reportId)).warnings).toEqual([]);
    expect((await gql(`mutation { createShareLink(reportId: "${reportId}") { warnings } }`)).body.data.createShareLink.warnings).toEqual([]);
  });

  it("answers 404 for a link that expired", async () => {
    const reportId = await fullReport();
    const link = await share(reportId);
    expect((await page(link.token)).status).toBe(200);
    await prisma.shareLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await page(link.token)).status).toBe(404);
    expect((await pdf(`/r/${link.token}.pdf`)).res.status).toBe(404);
  });

  it("takes an expiry in the future within 365 days, naming expires_at otherwise", async () => {
    const reportId = await fullReport();
    const at = new Date(Date.now() + 90 * DAY).toISOString();
    expect((await share(reportId, { expires_at: at })).expires_at).toBe(at);
    for (const [expires_at, message] of [
      [new Date(Date.now() - DAY).toISOString(), "expires_at must be in the future"],
      [new Date(Date.now() + 366 * DAY).toISOString(), "expires_at must be at most 365 days ahead"],
      ["next week", "expires_at"],
      [42, "expires_at"],
    ] as const) {
      const res = await api.post(`/v1/reports/${reportId}/share-links`, { expires_at });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
    const long = await api.post(`/v1/reports/${reportId}/share-links`, { label: "x".repeat(201) });
    expect(errorOf(long)).toEqual({ status: 400, message: "label must be at most 200 characters" });
  });

  it("refuses another team's report, unknown ids and keys without reports:share", async () => {
    const reportId = await fullReport();
    const link = await share(reportId);
    const other = await createTeam();
    const theirs = restClient(t.app, other.auth);
    expect(errorOf(await theirs.post(`/v1/reports/${reportId}/share-links`, {}))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await theirs.get(`/v1/reports/${reportId}/share-links`))).toEqual({ status: 404, message: "Report not found" });
    expect(errorOf(await theirs.delete(`/v1/reports/${reportId}/share-links/${link.id}`))).toEqual({ status: 404, message: "Report not found" });
    const otherReport = (await theirs.post("/v1/reports", { address: "9 Their St" })).body.data.id;
    expect(errorOf(await theirs.delete(`/v1/reports/${otherReport}/share-links/${link.id}`))).toEqual({ status: 404, message: "Share link not found" });
    expect(errorOf(await api.delete(`/v1/reports/${reportId}/share-links/${UNKNOWN}`))).toEqual({ status: 404, message: "Share link not found" });
    expect(errorOf(await api.delete(`/v1/reports/${reportId}/share-links/not-an-id`))).toEqual({ status: 404, message: "Share link not found" });
    const reader = restClient(t.app, await addKey(team.teamId, "reports:read,reports:create"));
    expect(errorOf(await reader.post(`/v1/reports/${reportId}/share-links`, {}))).toEqual({ status: 403, message: "Permission denied: reports:share" });
    expect(errorOf(await reader.get(`/v1/reports/${reportId}/share-links`))).toEqual({ status: 403, message: "Permission denied: reports:share" });
    expect((await page(link.token)).status).toBe(200); // still open
  });

  it("is the same in GraphQL: createShareLink, shareLinks, revokeShareLink", async () => {
    const reportId = await fullReport();
    const gql = (query: string, variables: Record<string, unknown>) => request(t.app).post("/graphql").set(team.auth).send({ query, variables });
    const made = await gql(`mutation($id: ID!) { createShareLink(reportId: $id, input: { label: "GraphQL" }) { token path link { id label revokedAt } } }`, { id: reportId });
    const { token, path, link } = made.body.data.createShareLink;
    expect(path).toBe(`/r/${token}`);
    const list = await gql(`query($id: ID!) { shareLinks(reportId: $id) { total items { id label } } }`, { id: reportId });
    expect(list.body.data.shareLinks).toEqual({ total: 1, items: [{ id: link.id, label: "GraphQL" }] });
    const revoked = await gql(`mutation($r: ID!, $id: ID!) { revokeShareLink(reportId: $r, id: $id) { revokedAt } }`, { r: reportId, id: link.id });
    expect(revoked.body.data.revokeShareLink.revokedAt).toEqual(expect.any(String));
    expect((await page(token)).status).toBe(404);
  });
});

describe("the public page", () => {
  it("answers 404 with no detail for tokens that open nothing, and for paths under /r", async () => {
    for (const path of ["/r/nope", `/r/${"A".repeat(43)}`, `/r/${"A".repeat(43)}.pdf`, "/r/", "/r", "/r/a/b", "/r/%ZZ", `/r/${"x".repeat(5000)}`]) {
      const res = await request(t.app).get(path);
      expect({ path, status: res.status, type: res.type }).toEqual({ path, status: 404, type: "text/html" });
      expect(res.text).toContain("Report not found");
    }
    expect((await request(t.app).post("/r/anything")).status).toBe(405);
  });

  it("never writes a token to the access log: a token route logs its template (/r/{token}, /r/{token}.pdf, /s/{token})", async () => {
    const { token } = await share(await fullReport());
    const lines: Array<Record<string, any>> = [];
    const streamed = logger as unknown as Record<symbol, unknown>;
    const [destination, level] = [streamed[pino.symbols.streamSym], logger.level];
    streamed[pino.symbols.streamSym] = { write: (line: string) => void lines.push(JSON.parse(line)) };
    logger.level = "info";
    try {
      const paths = [`/r/${token}`, `/r/${token}.pdf`, `/R/${token}?utm=1`, `/r//${token}`, `/s/${token}/withdraw`];
      for (const path of paths) await request(t.app).get(path);
      await until(() => lines.filter((line) => line.msg === "request").length >= paths.length);
    } finally {
      streamed[pino.symbols.streamSym] = destination;
      logger.level = level;
    }
    const requests = lines.filter((line) => line.msg === "request");
    expect(requests.map((line) => [line.req.path, line.res.status])).toEqual([
      ["/r/{token}", 200],
      ["/r/{token}.pdf", 200],
      ["/R/{token}", 200],
      ["/r//{token}", 404],
      ["/s/{token}/withdraw", 404], // a sign-in page: an unknown withdrawal token is the sign-in pages' 404
    ]);
    expect(JSON.stringify(lines)).not.toContain(token);
  });

  it("shows the report's facts, summary, agent and every section whose switch is on, with a strict policy and noindex", async () => {
    const reportId = await fullReport();
    const { token } = await share(reportId);
    const res = await page(token);
    expect(res.status).toBe(200);
    expect(res.type).toBe("text/html");
    expect(res.headers["x-robots-tag"]).toContain("noindex");
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    const csp = res.headers["content-security-policy"];
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; img-src 'none';/);
    expect(csp).not.toContain("unsafe");
    expect(csp).not.toContain("script-src");
    // No script, nothing loaded from anywhere: no src attribute, no stylesheet link, no absolute URL but the agent's mailto.
    expect(res.text).not.toMatch(/<script|\bsrc=|<link|<img|<iframe|https?:\/\//i);
    for (const text of ["1 Subject St", "Springfield, IL 62704", "$700,000", "A bright family home.", "Priced in line with recent sales.", "Jordan Agent", "jordan@example.com"]) expect(res.text).toContain(text);
    // The valuation: 305, 320, 325 per sq ft → median 320 × 2000 = $640,000; range $610,000 to $650,000.
    expect(res.text).toContain("$640,000");
    expect(res.text).toMatch(/Confidence: <strong>(High|Medium|Low) \(score [01]\.\d\d\)<\/strong>/);
    expect(res.text).toContain('<th scope="col">Similarity</th>');
    expect(res.text).toMatch(/<svg class="bar"[^>]*aria-label="Value range \$600,000 to \$650,000, estimate \$640,000, list price \$700,000"/);
    expect(res.text).toContain("List price $700,000");
    for (const s of Object.values(SECTIONS)) {
      expect(res.text).toContain(`id="${s.id}"`);
      expect(res.text).toContain(s.marker);
    }
    expect(res.text).toContain("<td>Jul 4, 2026</td>".replace("<td>", "").replace("</td>", ""));
    for (const secret of PRIVATE) expect(res.text).not.toContain(secret);
  });

  it.each(SWITCHES)("leaves out the section of %s when it is off, on the page and in the PDF", async (name) => {
    const reportId = await fullReport();
    expect((await api.patch(`/v1/reports/${reportId}`, { [name]: false })).status).toBe(200);
    const { token } = await share(reportId);
    const html = (await page(token)).text;
    const { text } = await pdf(`/r/${token}.pdf`);
    for (const [other, s] of Object.entries(SECTIONS)) {
      const shown = other !== name;
      expect({ other, html: html.includes(`id="${s.id}"`), pdf: text.includes(s.heading) }).toEqual({ other, html: shown, pdf: shown });
      expect({ other, marker: html.includes(s.marker) }).toEqual({ other, marker: shown });
    }
    for (const secret of PRIVATE) expect(text).not.toContain(secret);
  });

  it("uses the report's colours with readable text whatever they are", async () => {
    for (const [primary, secondary, onPrimary, onSecondary] of [
      ["#FFEB3B", "#FFF9C4", "#000000", "#000000"], // pale yellows: black text, headings darkened
      ["#0B2545", "#134074", "#ffffff", "#ffffff"], // dark blues: white text
    ]) {
      const reportId = await fullReport(api, { primary_color: primary, secondary_color: secondary });
      const html = (await page((await share(reportId)).token)).text;
      expect(html).toContain(`.cover{background:${primary.toLowerCase()};color:${onPrimary};`);
      expect(html).toContain(`th{background:${secondary.toLowerCase()};color:${onSecondary};`);
      // Headings and links in the primary colour on white, darkened where it is too light to read.
      const accent = /h2\{color:(#[0-9a-f]{6});/.exec(html)![1];
      expect(contrast(parseHex(accent)!, WHITE)).toBeGreaterThanOrEqual(4.5);
      if (contrast(parseHex(primary)!, WHITE) >= 4.5) expect(accent).toBe(primary.toLowerCase());
    }
  });

  it("escapes every value from the report", async () => {
    const reportId = await fullReport(api, { address: `<script>alert("x")</script> & "quoted"`, custom_agent_name: "<b>Bold</b>" });
    const html = (await page((await share(reportId)).token)).text;
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>Bold</b>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot;");
  });

  it("isolates text with right-to-left overrides and zero-width characters: on the page in its element, in the PDF left out", async () => {
    // U+202E (RIGHT-TO-LEFT OVERRIDE) would display "Jordan tnegA" reversed, and everything after it on its line too.
    const [name, address] = ["Jordan \u202EtnegA", "1 Subject\u200B St\u202E"];
    const reportId = await fullReport(api, { custom_agent_name: name, address, description: "A bright\u2067 home." });
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.custom_agent_name).toBe(name); // stored as written
    const { token } = await share(reportId);
    const html = (await page(token)).text;
    // Each piece of user text is an isolate (dir="auto"): its controls end with its element, the text around is left alone.
    expect(html).toContain(` by <strong dir="auto">${name}</strong> · <a href="mailto:jordan@example.com" dir="auto">`);
    expect(html).toContain(`<h1 dir="auto">${address}</h1>`);
    expect(html).toContain(`<title>\u2068${address}\u2069: property report</title>`);
    expect(html).toContain('<p dir="auto">A bright\u2067 home.</p>');
    // The PDF, read back as a viewer extracts it: the text as written, in its order, without a stray "?" for a control.
    const { text } = await pdf(`/r/${token}.pdf`);
    expect(text).toMatch(/Prepared on \w{3} \d{1,2}, \d{4} by Jordan tnegA/);
    expect(text).toContain("1 Subject St");
    expect(text).toContain("A bright home.");
    expect(text).not.toMatch(/[?\u200b\u202a-\u202e\u2066-\u2069]/u);
  });

  it("counts a visitor once per link and hour into views_count", async () => {
    const reportId = await fullReport();
    const [a, b] = [await share(reportId), await share(reportId)];
    const views = async () => (await prisma.report.findUniqueOrThrow({ where: { id: reportId } })).viewsCount;
    expect(await views()).toBe(0);
    for (let i = 0; i < 5; i++) expect((await page(a.token)).status).toBe(200);
    await pdf(`/r/${a.token}.pdf`);
    expect(await views()).toBe(1);
    await page(b.token);
    await page(b.token);
    expect(await views()).toBe(2);
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.views_count).toBe(2);
  });

  it("counts visits on each link and sends share_link.viewed on its first view and on each later day's first", async () => {
    const other = await createTeam();
    const client = restClient(t.app, other.auth);
    const hook = await receiver();
    const worker = startDeliveryWorker();
    try {
      expect((await client.post("/v1/webhooks", { url: hook.url, events: ["share_link.viewed"] })).status).toBe(201);
      const reportId = (await client.post("/v1/reports", { address: "2 Viewed Way" })).body.data.id as string;
      const link = (await client.post(`/v1/reports/${reportId}/share-links`, { label: "For the Smiths" })).body.data;
      const visit = (address: string) => request(t.app).get(`/r/${link.token}`).set("X-Forwarded-For", address);
      // One visitor three times in an hour: one view, the link's first: "your client opened it".
      for (let i = 0; i < 3; i++) expect((await visit("203.0.113.1")).status).toBe(200);
      const [first] = await hook.count(1);
      expect(first.json.type).toBe("share_link.viewed");
      expect(first.json.data).toEqual({ link_id: link.id, report_id: reportId, label: "For the Smiths", first_view: true, views_count: 1, viewed_at: expect.any(String) });
      expect(first.body).not.toContain(link.token);
      expect((await client.get(`/v1/reports/${reportId}/share-links`)).body.data[0]).toMatchObject({ views_count: 1, last_viewed_at: first.json.data.viewed_at });
      // Another visitor the same day: counted, no event.
      expect((await visit("203.0.113.2")).status).toBe(200);
      expect((await client.get(`/v1/reports/${reportId}/share-links`)).body.data[0].views_count).toBe(2);
      // The link was last seen yesterday: today's first visit sends the event again, first_view false.
      await prisma.shareLink.update({ where: { id: link.id }, data: { lastViewedAt: new Date(Date.now() - DAY) } });
      expect((await visit("203.0.113.3")).status).toBe(200);
      const [, again] = await hook.count(2);
      expect(again.json.data).toMatchObject({ link_id: link.id, first_view: false, views_count: 3 });
      // Exactly two events: the same-day visit sent none.
      expect(await prisma.webhookEvent.count({ where: { teamId: other.teamId, type: "share_link.viewed" } })).toBe(2);
      const gql = await request(t.app)
        .post("/graphql")
        .set(other.auth)
        .send({ query: `{ shareLinks(reportId: "${reportId}") { items { viewsCount lastViewedAt } } }` });
      expect(gql.body.data.shareLinks.items).toEqual([{ viewsCount: 3, lastViewedAt: again.json.data.viewed_at }]);
    } finally {
      await worker.stop();
      await hook.close();
    }
  });

  it("opens a preview for the agent: the page and PDF as the client will see them, marked, counting no view, for 10 minutes", async () => {
    const reportId = await fullReport(api, { address: "4 Preview Place" });
    expect((await api.patch(`/v1/reports/${reportId}`, { show_comps_on_report: false })).status).toBe(200);
    const ask = (auth: Record<string, string>, id = reportId) =>
      request(t.app).post("/graphql").set(auth).send({ query: `mutation($id: ID!) { previewReport(reportId: $id) { path expiresAt } }`, variables: { id } });
    const made = await ask(team.auth);
    expect(made.body.errors).toBeUndefined();
    const { path, expiresAt } = made.body.data.previewReport as { path: string; expiresAt: string };
    expect(path).toMatch(/^\/r\/p1_[A-Za-z0-9_-]{70}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    const shown = await request(t.app).get(path);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("4 Preview Place");
    expect(shown.text).toMatch(/<strong>Preview\.<\/strong> This is the page your client will see/);
    expect(shown.text).not.toContain('id="valuation"'); // the switch the client's link would honour
    for (const secret of PRIVATE) expect(shown.text).not.toContain(secret);
    const asPdf = await pdf(`${path}.pdf`);
    expect(asPdf.res.status).toBe(200);
    expect(asPdf.text).toContain("4 Preview Place");
    // Counted nowhere, listed nowhere.
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.views_count).toBe(0);
    expect((await api.get(`/v1/reports/${reportId}/share-links`)).body.data).toEqual([]);
    expect(await prisma.webhookEvent.count({ where: { teamId: team.teamId, type: "share_link.viewed", data: { path: ["report_id"], equals: reportId } } })).toBe(0);

    // A changed character, another team's report, a key without reports:share: nothing.
    const token = path.slice(3);
    const tampered = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    expect((await request(t.app).get(`/r/${tampered}`)).status).toBe(404);
    const other = await createTeam();
    expect((await ask(other.auth)).body.errors[0]).toMatchObject({ message: "Report not found", extensions: { code: "NOT_FOUND" } });
    const reader = await addKey(team.teamId, "reports:read");
    expect((await ask(reader)).body.errors[0].extensions.code).toBe("FORBIDDEN");
  });

  it("reads only its own report: another report of the team or of another team never appears", async () => {
    const mine = await fullReport(api, { address: "11 Mine St" });
    await fullReport(api, { address: "22 Sibling St" });
    const other = await createTeam();
    await restClient(t.app, other.auth).post("/v1/reports", { address: "33 Other Team St" });
    const html = (await page((await share(mine)).token)).text;
    expect(html).toContain("11 Mine St");
    expect(html).not.toContain("22 Sibling St");
    expect(html).not.toContain("33 Other Team St");
  });
});

describe("the PDF", () => {
  it("holds the page's content as text, the comparables as a table and no private field", async () => {
    const reportId = await fullReport();
    const { token } = await share(reportId);
    const { res, text } = await pdf(`/r/${token}.pdf`);
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/pdf");
    expect(res.headers["x-robots-tag"]).toContain("noindex");
    // It says when it was made: its figures are those of that day.
    const today = new Date().toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
    expect(text).toContain(`Prepared on ${today} by Jordan Agent`);
    expect((await page(token)).text).toContain(`Prepared on ${today} by <strong dir="auto">Jordan Agent</strong>`);
    // Named after the address, on the share link and for a key alike.
    expect(res.headers["content-disposition"]).toBe('inline; filename="1-subject-st.pdf"');
    expect((await pdf(`/v1/reports/${reportId}/pdf`, team.auth)).res.headers["content-disposition"]).toBe('inline; filename="1-subject-st.pdf"');
    for (const s of ["1 Subject St", "Executive summary", "Priced in line with recent sales.", "Market valuation", "$640,000", "Low $600,000", "High $650,000", "Comparable properties", "Sale price", "12 Elm St", "3 Oak Ave", "5 Pine Rd", "$325.00", "Jordan Agent", "Confidence: ", "Similar"]) {
      expect(text).toContain(s);
    }
    for (const s of Object.values(SECTIONS)) expect(text).toContain(s.heading);
    for (const secret of PRIVATE) expect(text).not.toContain(secret);
  });

  it("is served to a key with reports:read at /v1/reports/{reportId}/pdf, leaving out what the key may not read", async () => {
    const reportId = await fullReport();
    const full = await pdf(`/v1/reports/${reportId}/pdf`, team.auth);
    expect(full.res.status).toBe(200);
    for (const s of Object.values(SECTIONS)) expect(full.text).toContain(s.heading);
    const narrow = await pdf(`/v1/reports/${reportId}/pdf`, await addKey(team.teamId, "reports:read"));
    expect(narrow.res.status).toBe(200);
    expect(narrow.text).toContain("1 Subject St");
    for (const s of Object.values(SECTIONS)) expect(narrow.text).not.toContain(s.heading);
    expect(errorOf(await request(t.app).get(`/v1/reports/${reportId}/pdf`).set(await addKey(team.teamId, "showings:read")))).toEqual({ status: 403, message: "Permission denied: reports:read" });
    expect(errorOf(await request(t.app).get(`/v1/reports/${UNKNOWN}/pdf`).set(team.auth))).toEqual({ status: 404, message: "Report not found" });
    const other = await createTeam();
    expect(errorOf(await request(t.app).get(`/v1/reports/${reportId}/pdf`).set(other.auth))).toEqual({ status: 404, message: "Report not found" });
  });
});

describe("the page's own rate limit", () => {
  it("answers 429 past RATE_LIMIT_ANONYMOUS requests an hour from one address", async () => {
    // One server for the 400 requests (supertest would start and stop one per request).
    const server = createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      let res = await request(server).get("/r/nope");
      const left = Number(res.headers["x-ratelimit-remaining"]);
      expect(Number(res.headers["x-ratelimit-limit"])).toBe(400);
      for (let i = 0; i < left; i++) res = await request(server).get("/r/nope");
      expect(res.status).toBe(404);
      res = await request(server).get("/r/nope");
      expect(res.status).toBe(429);
      expect(res.type).toBe("text/html");
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
