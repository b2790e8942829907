// Trusted documents (docs/api.md "Trusted documents"): a team registers a code
// generator's manifest through REST, GraphQL or the CLI's commands; clients run a document by documentId over GET or
// POST; a key created trustedDocumentsOnly runs nothing else.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import request from "supertest";
import { prisma } from "../src/db";
import { listDocuments, registerDocuments } from "../src/cli/commands";
import { addKey, createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const REPORTS = `query Reports($limit: Int! = 10) { reports(limit: $limit) { total items { id address } } }`;
const REPORT = `query Report($id: ID!) { report(id: $id) { id address showings { id } } }`;
// Within the limits with its default (1 per level), past them at run time with limit 100 (100 × 100 × 100 objects).
const WIDE = `query Wide($n: Int = 1) { reports(limit: $n) { items { showings(limit: $n) { report { showings(limit: $n) { id } } } } } }`;
const manifest = { [sha(REPORTS)]: REPORTS, [sha(REPORT)]: REPORT, [sha(WIDE)]: WIDE };

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ permissions: "reports:*,showings:*,api_keys:*" });
  const report = await prisma.report.create({
    data: { teamId: team.teamId, address: "1 Trusted Way", addressKey: "1 trusted way", searchKey: "1 trusted way", listingAgent: "A", createdBy: "B" },
  });
  reportId = report.id;
});
afterAll(() => t.close());

const register = (body: unknown, auth = team.auth) => request(t.app).post("/v1/graphql/documents").set(auth).send(body as object);
const gql = (auth: Record<string, string>, body: object) => request(t.app).post("/graphql").set(auth).set("Accept", "application/graphql-response+json").send(body);

describe("registering a manifest", () => {
  it("answers 201 with how many documents were new and how many the team held already", async () => {
    const first = await register({ [sha(REPORTS)]: REPORTS });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ data: { registered: 1, unchanged: 0 } });
    const again = await register(manifest);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ data: { registered: 2, unchanged: 1 } });
  });

  it("takes keys written as document ids, sha256:<hex>, as GraphQL Code Generator's client preset writes them", async () => {
    const other = await createTeam({ permissions: "reports:read,api_keys:create" });
    const text = `query Prefixed { reports(limit: 1) { total } }`;
    const res = await register({ [`sha256:${sha(text)}`]: text }, other.auth);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ data: { registered: 1, unchanged: 0 } });
    const run = await gql(other.auth, { documentId: `sha256:${sha(text)}` });
    expect(run.body).toEqual({ data: { reports: { total: 0 } }, extensions: { cost: expect.anything() } });
    expect((await register({ [`sha1:${sha(text)}`]: text }, other.auth)).body.error.message).toMatch(/manifest key "sha1:[0-9a-f]+" is not a SHA-256 hash/);
  });

  it("refuses a hash that does not match its text, naming it, and registers nothing of that manifest", async () => {
    const other = `{ reports { total } }`;
    const wrong = "0".repeat(64);
    const res = await register({ [sha(other)]: other, [wrong]: REPORTS });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(`manifest document ${wrong} does not match its hash`);
    expect(await prisma.graphqlDocument.count({ where: { teamId: team.teamId, hash: sha(other) } })).toBe(0);
  });

  it("refuses keys that are not hashes, values that are not text, and bodies that are not manifests", async () => {
    expect((await register({ "not-a-hash": REPORTS })).body.error.message).toMatch(/manifest key "not-a-hash" is not a SHA-256 hash/);
    expect((await register({ [sha(REPORTS)]: 42 })).body.error.message).toBe(`manifest document ${sha(REPORTS)} must be a string`);
    expect((await register({})).body.error.message).toBe("manifest must hold at least one document");
    expect((await register([REPORTS])).status).toBe(400);
  });

  it("checks each document against the schema and the query limits once, at registration, with the limit's message", async () => {
    let deep = "id";
    for (let i = 0; i < 7; i++) deep = `showings { report { ${deep} } }`;
    const tooDeep = `{ reports { items { ${deep} } } }`;
    const res = await register({ [sha(tooDeep)]: tooDeep });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(new RegExp(`^manifest document ${sha(tooDeep)}: Query too complex: depth \\d+, the limit is 12$`));
    const aliases = `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: reports { total }`).join(" ")} }`;
    expect((await register({ [sha(aliases)]: aliases })).body.error.message).toMatch(/Query too complex: 31 aliases, the limit is 30/);
    const invalid = `{ reports { nope } }`;
    expect((await register({ [sha(invalid)]: invalid })).body.error.message).toMatch(/Cannot query field "nope"/);
  });

  it("needs api_keys:create to register and api_keys:read to list", async () => {
    const reader = await addKey(team.teamId, "reports:read");
    const res = await register(manifest, reader);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe("Permission denied: api_keys:create");
    expect((await request(t.app).get("/v1/graphql/documents").set(reader)).body.error.message).toBe("Permission denied: api_keys:read");
  });

  it("lists the team's documents, oldest first, with the id clients send", async () => {
    const res = await request(t.app).get("/v1/graphql/documents").set(team.auth);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(3);
    expect(res.body.data.map((d: { id: string }) => d.id).sort()).toEqual(Object.keys(manifest).map((h) => `sha256:${h}`).sort());
    expect(res.body.data.find((d: { hash: string }) => d.hash === sha(REPORT)).document).toBe(REPORT);
  });

  it("registers through GraphQL too, and the audit log records the registration", async () => {
    const text = `query Count { reports { total } }`;
    const res = await gql(team.auth, {
      query: `mutation($m: JSON!) { registerGraphQLDocuments(manifest: $m) { registered unchanged } }`,
      variables: { m: { [sha(text)]: text } },
    });
    expect(res.body).toEqual({ data: { registerGraphQLDocuments: { registered: 1, unchanged: 0 } }, extensions: { cost: expect.anything() } });
    const entry = await prisma.auditLogEntry.findFirst({ where: { teamId: team.teamId, action: "graphql_documents.registered" }, orderBy: { createdAt: "desc" } });
    expect(entry?.changes).toEqual({ registered: { before: null, after: 1 }, unchanged: { before: null, after: 0 } });
  });

  it("takes at most 500 documents a registration: 413 naming the cap, nothing checked or stored", async () => {
    const other = await createTeam({ permissions: "reports:read,api_keys:*" });
    const many = (n: number, from = 0) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => `query Capped${from + i} { reports(limit: 1) { total } }`).map((text) => [sha(text), text]));
    const res = await register(many(501), other.auth);
    expect(errorOf(res)).toEqual({ status: 413, message: "Too many documents: a registration takes at most 500 documents, this manifest holds 501; send it in parts" });
    const graphql = await gql(other.auth, { query: `mutation($m: JSON!) { registerGraphQLDocuments(manifest: $m) { registered } }`, variables: { m: many(501) } });
    expect(graphql.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Too many documents: .* at most 500 documents/), extensions: { code: "PAYLOAD_TOO_LARGE" } });
    expect(await prisma.graphqlDocument.count({ where: { teamId: other.teamId } })).toBe(0);
    const full = await register(many(500), other.auth);
    expect(full.status).toBe(201);
    expect(full.body).toEqual({ data: { registered: 500, unchanged: 0 } });
  });

  it("holds at most 5,000 documents a team, counting those it holds: 400 naming the cap, nothing stored", async () => {
    const other = await createTeam({ permissions: "reports:read,api_keys:*" });
    const text = (i: number) => `query Held${i} { reports(limit: 1) { total } }`;
    await prisma.graphqlDocument.createMany({ data: Array.from({ length: 4_990 }, (_, i) => ({ teamId: other.teamId, hash: sha(text(i)), text: text(i) })) });
    // Ten documents it holds and eleven new ones: 5,001.
    const manifestOf = (from: number, to: number) => Object.fromEntries(Array.from({ length: to - from }, (_, i) => [sha(text(from + i)), text(from + i)]));
    const over = await register(manifestOf(4_980, 5_001), other.auth);
    expect(errorOf(over)).toEqual({
      status: 400,
      message: "Document limit reached: a team holds at most 5,000 registered documents; it holds 4,990 and this manifest adds 11",
    });
    const graphql = await gql(other.auth, { query: `mutation($m: JSON!) { registerGraphQLDocuments(manifest: $m) { registered } }`, variables: { m: manifestOf(4_990, 5_001) } });
    expect(graphql.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Document limit reached/), extensions: { code: "BAD_USER_INPUT" } });
    expect(await prisma.graphqlDocument.count({ where: { teamId: other.teamId } })).toBe(4_990);
    // Up to the cap, and documents it holds already, are taken.
    expect((await register(manifestOf(4_980, 5_000), other.auth)).body).toEqual({ data: { registered: 10, unchanged: 10 } });
    expect((await register(manifestOf(0, 1), other.auth)).body).toEqual({ data: { registered: 0, unchanged: 1 } });
    expect(await prisma.graphqlDocument.count({ where: { teamId: other.teamId } })).toBe(5_000);
  });

  it("registers and lists through the CLI's commands", async () => {
    const other = await createTeam();
    const text = `query CliReports { reports { total } }`;
    const path = `${tmpdir()}/manifest-${other.teamId}.json`;
    writeFileSync(path, JSON.stringify({ [sha(text)]: text }));
    expect(await registerDocuments(other.teamId, path)).toEqual([`Registered 1 document (0 already registered) for team ${other.teamId}.`]);
    expect((await listDocuments(other.teamId)).join("\n")).toContain(`sha256:${sha(text)}`);
  });
});

describe("running a document by documentId", () => {
  it("runs it over GET with variables and over POST", async () => {
    const got = await request(t.app)
      .get("/graphql")
      .query({ documentId: `sha256:${sha(REPORT)}`, variables: JSON.stringify({ id: reportId }) })
      .set(team.auth)
      .set("Accept", "application/graphql-response+json");
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: { report: { id: reportId, address: "1 Trusted Way", showings: [] } }, extensions: { cost: expect.anything() } });
    const posted = await gql(team.auth, { documentId: `sha256:${sha(REPORTS)}`, variables: { limit: 1 } });
    expect(posted.body).toEqual({ data: { reports: { total: 1, items: [{ id: reportId, address: "1 Trusted Way" }] } }, extensions: { cost: expect.anything() } });
  });

  it("answers an unknown id (or another team's) 400 PERSISTED_QUERY_NOT_FOUND", async () => {
    const other = await createTeam();
    for (const auth of [team.auth, other.auth]) {
      const id = auth === team.auth ? `sha256:${"a".repeat(64)}` : `sha256:${sha(REPORTS)}`;
      const res = await gql(auth, { documentId: id });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
      expect(res.body.errors[0].message).toContain(id);
    }
  });

  it("refuses a malformed id and a request sending both a query and a documentId", async () => {
    const malformed = await gql(team.auth, { documentId: sha(REPORTS) });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].message).toMatch(/^documentId must be "sha256:"/);
    const both = await gql(team.auth, { documentId: `sha256:${sha(REPORTS)}`, query: REPORTS });
    expect(both.status).toBe(400);
    expect(both.body.errors[0].message).toBe("Send either query or documentId, not both");
  });

  it("still estimates each request: variables can make a registered document too large", async () => {
    const res = await gql(team.auth, { documentId: `sha256:${sha(WIDE)}`, variables: { n: 100 } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe("QUERY_TOO_COMPLEX");
    expect((await gql(team.auth, { documentId: `sha256:${sha(WIDE)}`, variables: { n: 2 } })).body.errors).toBeUndefined();
  });
});

describe("a key limited to registered documents", () => {
  let browserKey: { Authorization: string };
  beforeAll(async () => {
    const res = await gql(team.auth, {
      query: `mutation { createApiKey(input: { name: "browser app", permissions: ["reports:read", "showings:read"], trustedDocumentsOnly: true }) { key apiKey { trustedDocumentsOnly } } }`,
    });
    expect(res.body.data.createApiKey.apiKey.trustedDocumentsOnly).toBe(true);
    browserKey = { Authorization: `Bearer ${res.body.data.createApiKey.key}` };
  });

  it("runs registered documents by id", async () => {
    const res = await gql(browserKey, { documentId: `sha256:${sha(REPORT)}`, variables: { id: reportId } });
    expect(res.status).toBe(200);
    expect(res.body.data.report.id).toBe(reportId);
  });

  it("is refused any other document, over POST and GET, and REST", async () => {
    const posted = await gql(browserKey, { query: REPORTS });
    expect(posted.status).toBe(403);
    expect(posted.body.errors[0].message).toBe("Permission denied: this key runs registered documents only");
    const got = await request(t.app).get("/graphql").query({ query: REPORTS }).set(browserKey).set("Accept", "application/json");
    expect(got.status).toBe(403);
    const rest = await request(t.app).get("/v1/reports").set(browserKey);
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ error: { message: "Permission denied: this key runs registered documents only", status: 403 } });
  });

  it("cannot make an unlimited key", async () => {
    const mutation = `mutation { createApiKey(input: { name: "escape", permissions: ["reports:read"], trustedDocumentsOnly: false }) { key } }`;
    await register({ [sha(mutation)]: mutation });
    const res = await gql(browserKey, { documentId: `sha256:${sha(mutation)}` });
    expect(res.body.errors[0].message).toMatch(/^Permission denied: (api_keys:create|trustedDocumentsOnly)/);
  });
});
