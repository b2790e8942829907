// A report's branding (docs/api.md "Reports"): agent_phone, brokerage_name and agent_license on the real stack —
// taken on create and PATCH (REST and GraphQL), bounded, and shown to the client in the share page's header (the
// phone as a tel: link) and on the PDF's first page, read back as text; and the agent's photo and the brokerage's
// logo: photos of the report named by agent_photo_id and brokerage_logo_id, shown in the header and on the PDF's
// cover instead of among the property's photos.
import sharp from "sharp";
import request from "supertest";
import { errorOf, type TestApp, type TestTeam } from "./support/app";
import { teamApp, type RestClient } from "./support/team-app";
import { pdfText } from "./support/pdf-text";

let t: TestApp, team: TestTeam, api: RestClient;
beforeAll(async () => ({ t, team, api } = await teamApp({ name: "Prairie Realty" })));
afterAll(() => t.close());

const BRANDING = { agent_phone: "+1 (217) 555-0107", brokerage_name: "Prairie Home Realty", agent_license: "IL 475.123456" };

async function created(body: Record<string, unknown>) {
  const res = await api.post("/v1/reports", { address: "9 Branding Way", city: "Springfield", state: "IL", ...body });
  expect(res.status).toBe(201);
  return res.body.data as Record<string, unknown> & { id: string };
}
const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  (await request(t.app).post("/graphql").set(team.auth).send({ query, variables })).body;

describe("the branding fields", () => {
  it("are taken on create, answered by GET, changed and cleared by PATCH", async () => {
    const report = await created(BRANDING);
    expect(report).toMatchObject(BRANDING);
    expect((await api.get(`/v1/reports/${report.id}`)).body.data).toMatchObject(BRANDING);

    const patched = await api.patch(`/v1/reports/${report.id}`, { agent_phone: "217-555-0199", brokerage_name: null });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ agent_phone: "217-555-0199", brokerage_name: null, agent_license: "IL 475.123456" });

    // A report made without them answers them as null.
    expect(await created({})).toMatchObject({ agent_phone: null, brokerage_name: null, agent_license: null });
  });

  it("are GraphQL fields of Report and of both inputs", async () => {
    const made = await gql(
      `mutation($input: CreateReportInput!) { createReport(input: $input) { id agentPhone brokerageName agentLicense } }`,
      { input: { address: "10 Graph Rd", agentPhone: "555 0123", brokerageName: "Graph Homes", agentLicense: "L-1" } },
    );
    expect(made.errors).toBeUndefined();
    expect(made.data.createReport).toMatchObject({ agentPhone: "555 0123", brokerageName: "Graph Homes", agentLicense: "L-1" });
    const updated = await gql(
      `mutation($id: ID!, $input: UpdateReportInput!) { updateReport(id: $id, input: $input) { agentPhone brokerageName agentLicense } }`,
      { id: made.data.createReport.id, input: { agentLicense: null, brokerageName: "Graph Homes & Co" } },
    );
    expect(updated.data.updateReport).toEqual({ agentPhone: "555 0123", brokerageName: "Graph Homes & Co", agentLicense: null });
    // Both read engines answer them (the one-statement read and the resolvers, forced by a directive).
    for (const query of [
      `query($id: ID!) { report(id: $id) { agentPhone brokerageName agentLicense } }`,
      `query($id: ID!) { report(id: $id) { agentPhone brokerageName agentLicense @include(if: true) } }`,
    ]) {
      expect((await gql(query, { id: made.data.createReport.id })).data.report).toEqual({ agentPhone: "555 0123", brokerageName: "Graph Homes & Co", agentLicense: null });
    }
  });

  it.each([
    ["agent_phone must be at most 100 characters", { agent_phone: "1".repeat(101) }],
    ["agent_license must be at most 100 characters", { agent_license: "L".repeat(101) }],
    ["brokerage_name must be at most 1000 characters", { brokerage_name: "B".repeat(1001) }],
    ["agent_phone must be a string", { agent_phone: 2175550107 }],
    ["brokerage_name contains invalid characters", { brokerage_name: "Nul\u0000Realty" }],
  ])("refuses with 400 naming the field, on create and PATCH: %s", async (message, body) => {
    expect(errorOf(await api.post("/v1/reports", { address: "1 Bad St", ...body }))).toEqual({ status: 400, message });
    const { id } = await created({});
    expect(errorOf(await api.patch(`/v1/reports/${id}`, body))).toEqual({ status: 400, message });
  });

  it("accepts the longest allowed values", async () => {
    const longest = { agent_phone: "1".repeat(100), agent_license: "L".repeat(100), brokerage_name: "B".repeat(1000) };
    expect(await created(longest)).toMatchObject(longest);
  });
});

describe("the client's page and PDF", () => {
  async function shared(body: Record<string, unknown>) {
    const report = await created({ custom_agent_name: "Jordan Agent", custom_agent_email: "jordan@example.com", ...body });
    const link = await api.post(`/v1/reports/${report.id}/share-links`, {});
    expect(link.status).toBe(201);
    return { id: report.id, token: link.body.data.token as string };
  }
  const pdfOf = async (path: string, auth: Record<string, string> = {}) => {
    const res = await request(t.app)
      .get(path)
      .set(auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    return pdfText(res.body);
  };
  const headerOf = (html: string) => html.slice(html.indexOf('<header class="cover">'), html.indexOf("</header>"));

  it("show the agent, the phone as a tel: link, the brokerage and the licence in the page's header", async () => {
    const { token } = await shared(BRANDING);
    const res = await request(t.app).get(`/r/${token}`);
    expect(res.status).toBe(200);
    expect(headerOf(res.text)).toContain(
      '<p class="agent"><strong dir="auto">Jordan Agent</strong> · <a href="tel:+12175550107" dir="auto">+1 (217) 555-0107</a> · <span dir="auto">Prairie Home Realty</span> · <span>License <span dir="auto">IL 475.123456</span></span></p>',
    );
  });

  it("show the listing agent alone when no branding is given, and escape what the agent wrote", async () => {
    const plain = await created({ listing_agent: "Lee Listing" });
    const { token } = (await api.post(`/v1/reports/${plain.id}/share-links`, {})).body.data;
    expect(headerOf((await request(t.app).get(`/r/${token}`)).text)).toContain('<p class="agent"><strong dir="auto">Lee Listing</strong></p>');

    const hostile = await shared({ agent_phone: '"><script>alert(1)</script>', brokerage_name: "<img src=x onerror=alert(1)>" });
    const header = headerOf((await request(t.app).get(`/r/${hostile.token}`)).text);
    expect(header).not.toMatch(/<script|<img|href="tel:/);
    expect(header).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(header).toContain('<span dir="auto">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span>');
  });

  it("put the agent line on the PDF's first page, on the share link and for a key alike", async () => {
    const { id, token } = await shared(BRANDING);
    for (const pages of [await pdfOf(`/r/${token}.pdf`), await pdfOf(`/v1/reports/${id}/pdf`, team.auth)]) {
      const first = pages[0];
      for (const s of ["Jordan Agent", "+1 (217) 555-0107", "Prairie Home Realty", "License IL 475.123456"]) expect(first).toContain(s);
      // On the cover, above the first section.
      expect(first.indexOf("Prairie Home Realty")).toBeLessThan(first.indexOf("The property"));
    }
  });

  it("follow a PATCH: a cleared field leaves the page and the PDF", async () => {
    const { id, token } = await shared(BRANDING);
    expect((await api.patch(`/v1/reports/${id}`, { brokerage_name: null, agent_license: "IL 999" })).status).toBe(200);
    const header = headerOf((await request(t.app).get(`/r/${token}`)).text);
    expect(header).not.toContain("Prairie Home Realty");
    expect(header).toContain("IL 999");
    const [first] = await pdfOf(`/r/${token}.pdf`);
    expect(first).not.toContain("Prairie Home Realty");
    expect(first).toContain("License IL 999");
  });
});

describe("the agent's photo and the brokerage's logo", () => {
  const jpeg = (r: number) => sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g: 90, b: 60 } } }).jpeg().toBuffer();
  async function photo(path: string, alt: string, r = 120): Promise<string> {
    const res = await request(t.app).post(path).set(team.auth).field("alt", alt).attach("file", await jpeg(r), "photo.jpg");
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  const imagesIn = (pdf: Buffer) => (pdf.toString("latin1").match(/\/Subtype\s*\/Image/g) ?? []).length;

  it("are photos of the report named on PATCH, shown in the header and on the PDF's cover, not among the property's photos", async () => {
    const { id } = await created({ custom_agent_name: "Jordan Agent", ...BRANDING });
    const house = await photo(`/v1/reports/${id}/photos`, "The front of the house");
    const face = await photo(`/v1/reports/${id}/photos`, "Portrait of the agent", 200);
    const logo = await photo(`/v1/reports/${id}/photos`, "The brokerage's logo", 30);
    const patched = await api.patch(`/v1/reports/${id}`, { agent_photo_id: face, brokerage_logo_id: logo });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ agent_photo_id: face, brokerage_logo_id: logo });
    expect((await gql(`query($id: ID!) { report(id: $id) { agentPhotoId brokerageLogoId } }`, { id })).data.report).toEqual({ agentPhotoId: face, brokerageLogoId: logo });

    const { token } = (await api.post(`/v1/reports/${id}/share-links`, {})).body.data;
    const html = (await request(t.app).get(`/r/${token}`)).text;
    const header = html.slice(html.indexOf('<header class="cover">'), html.indexOf("</header>"));
    const rest = html.slice(html.indexOf("</header>"));
    expect(header).toMatch(new RegExp(`<img class="logo" src="${token}/photos/${logo}-320\\.jpg"[^>]* alt="The brokerage&#39;s logo"`));
    expect(header).toMatch(new RegExp(`<img class="agent-photo" src="${token}/photos/${face}-320\\.jpg"[^>]* alt="Portrait of the agent"`));
    expect(rest).toContain(`/photos/${house}-`);
    expect(rest).not.toMatch(new RegExp(`${face}|${logo}`));
    expect(html).toMatch(new RegExp(`<meta property="og:image" content="[^"]*/photos/${house}-`)); // the preview is the house
    expect((await request(t.app).get(`/r/${token}/photos/${face}-320.jpg`)).status).toBe(200);

    const pdf = (await request(t.app).get(`/r/${token}.pdf`).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => done(null, Buffer.concat(chunks)));
    })).body as Buffer;
    expect(imagesIn(pdf)).toBe(3);
    const [first] = await pdfText(pdf);
    expect(first).toContain("The front of the house"); // the cover photo's caption
    expect(first).not.toContain("Portrait of the agent"); // drawn on the band, without a caption
    expect(first).not.toContain("The brokerage's logo");

    // Cleared: the photo is the property's again.
    expect((await api.patch(`/v1/reports/${id}`, { brokerage_logo_id: null })).body.data.brokerage_logo_id).toBeNull();
    expect((await request(t.app).get(`/r/${token}`)).text).not.toContain('class="logo"');
  });

  it("refuse another report's photo, a comparable's and a non-UUID, naming the field; a deleted photo leaves the field null", async () => {
    const mine = await created({});
    const other = await created({});
    const comparable = (await api.post(`/v1/reports/${mine.id}/comparables`, { address: "3 Comp Ct", price: 300000 })).body.data.id;
    const theirs = await photo(`/v1/reports/${other.id}/photos`, "Another report's photo");
    const compPhoto = await photo(`/v1/reports/${mine.id}/comparables/${comparable}/photos`, "A comparable");
    const must = (field: string) => ({ status: 400, message: `${field} must be the id of one of this report's own photos (not a comparable's)` });
    expect(errorOf(await api.patch(`/v1/reports/${mine.id}`, { agent_photo_id: theirs }))).toEqual(must("agent_photo_id"));
    expect(errorOf(await api.patch(`/v1/reports/${mine.id}`, { brokerage_logo_id: compPhoto }))).toEqual(must("brokerage_logo_id"));
    expect(errorOf(await api.patch(`/v1/reports/${mine.id}`, { agent_photo_id: "not-a-uuid" }))).toMatchObject({ status: 400, message: expect.stringContaining("agent_photo_id") });
    const viaGraphql = await gql(`mutation($id: ID!, $input: UpdateReportInput!) { updateReport(id: $id, input: $input) { id } }`, { id: mine.id, input: { agentPhotoId: theirs } });
    expect(viaGraphql.errors[0]).toMatchObject({ message: "agentPhotoId must be the id of one of this report's own photos (not a comparable's)", extensions: { code: "BAD_USER_INPUT" } });
    // Not taken at creation: the report has no photo yet (an unknown field there is ignored and named).
    expect((await api.post("/v1/reports", { address: "4 New St", agent_photo_id: theirs })).body.ignored_fields).toContain("agent_photo_id");

    const own = await photo(`/v1/reports/${mine.id}/photos`, "The agent");
    expect((await api.patch(`/v1/reports/${mine.id}`, { agent_photo_id: own })).status).toBe(200);
    expect((await api.delete(`/v1/reports/${mine.id}/photos/${own}`)).status).toBe(200);
    expect((await api.get(`/v1/reports/${mine.id}`)).body.data.agent_photo_id).toBeNull();
  });
});
