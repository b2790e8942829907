// Automatic persisted queries (docs/api.md "Automatic persisted queries") over HTTP: Apollo's
// extensions.persistedQuery { version: 1, sha256Hash }. A miss answers PersistedQueryNotFound; the query sent with
// its hash is kept for the team (and only that team); a hash that is not the text's is refused; a key limited to
// trusted documents runs registered documents by hash and nothing else; GET requests work too. PGlite, or
// PostgreSQL with Redis (the documents kept in Redis then).
import request from "supertest";
import { sha256Hex } from "../src/graphql-documents/documents";
import { APQ_PER_TEAM, apqStore } from "../src/graphql-documents/apq-store";
import { createTeam, seedReport, startTestApp, type TestApp, type TestTeam } from "./support/app";

let t: TestApp;
let team: TestTeam;
let reportId: string;

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam({ permissions: "reports:*,api_keys:*" });
  reportId = (await seedReport(team.teamId, "1 Persisted Place")).id;
});
afterAll(() => t.close());

const QUERY = `query PersistedReport($id: ID!) { report(id: $id) { id address } }`;
const persisted = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256Hex(query) } });
const post = (auth: Record<string, string>, body: object) => request(t.app).post("/graphql").set(auth).send(body);
const get = (auth: Record<string, string>, params: Record<string, string>) => request(t.app).get("/graphql").set(auth).set("Accept", "application/json").query(params);

describe("automatic persisted queries", () => {
  it("answers a hash it does not know PersistedQueryNotFound, keeps the query sent with its hash, then runs the hash alone", async () => {
    const query = `${QUERY} # ${Date.now()}`;
    const miss = await post(team.auth, { extensions: persisted(query), variables: { id: reportId } });
    expect(miss.status).toBe(200);
    expect(miss.body.errors).toEqual([{ message: "PersistedQueryNotFound", extensions: expect.objectContaining({ code: "PERSISTED_QUERY_NOT_FOUND" }) }]);
    const registered = await post(team.auth, { query, extensions: persisted(query), variables: { id: reportId } });
    expect(registered.body.data).toEqual({ report: { id: reportId, address: "1 Persisted Place" } });
    const hit = await post(team.auth, { extensions: persisted(query), variables: { id: reportId } });
    expect(hit.status).toBe(200);
    expect(hit.body.data).toEqual(registered.body.data);
    // Another team's clients do not find it.
    const other = await createTeam({ permissions: "reports:read" });
    expect((await post(other.auth, { extensions: persisted(query), variables: { id: reportId } })).body.errors[0].message).toBe("PersistedQueryNotFound");
  });

  it("refuses a hash that is not the query's, and malformed extensions, naming the problem", async () => {
    const wrong = await post(team.auth, { query: QUERY, extensions: persisted("{ __typename }"), variables: { id: reportId } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^provided sha does not match query/), extensions: { code: "PERSISTED_QUERY_HASH_MISMATCH" } });
    const version = await post(team.auth, { extensions: { persistedQuery: { version: 2, sha256Hash: sha256Hex(QUERY) } } });
    expect([version.status, version.body.errors[0].message]).toEqual([400, expect.stringMatching(/version must be 1/)]);
    const hash = await post(team.auth, { extensions: { persistedQuery: { version: 1, sha256Hash: "abc" } } });
    expect([hash.status, hash.body.errors[0].message]).toEqual([400, expect.stringMatching(/sha256Hash must be the 64 hex digits/)]);
    const both = await post(team.auth, { documentId: `sha256:${sha256Hex(QUERY)}`, extensions: persisted(QUERY) });
    expect([both.status, both.body.errors[0].message]).toEqual([400, "Send either documentId or extensions.persistedQuery, not both"]);
  });

  it("works over GET", async () => {
    const query = `query PersistedGet($id: ID!) { report(id: $id) { address } }`;
    const params = { variables: JSON.stringify({ id: reportId }), extensions: JSON.stringify(persisted(query)) };
    expect((await get(team.auth, params)).body.errors[0].message).toBe("PersistedQueryNotFound");
    const first = await get(team.auth, { ...params, query });
    expect(first.body.data).toEqual({ report: { address: "1 Persisted Place" } });
    const byHash = await get(team.auth, params);
    expect(byHash.body.data).toEqual(first.body.data);
    // The hash alone is cached as the text is: an ETag, a 304 while nothing changed, the new answer after a change.
    expect(byHash.headers["cache-control"]).toBe("private, no-cache");
    const etag = byHash.headers.etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await get(team.auth, params).set("If-None-Match", etag)).status).toBe(304);
    expect((await request(t.app).patch(`/v1/reports/${reportId}`).set(team.auth).send({ address: "2 Persisted Place" })).status).toBe(200);
    const changed = await get(team.auth, params).set("If-None-Match", etag);
    expect([changed.status, changed.body.data]).toEqual([200, { report: { address: "2 Persisted Place" } }]);
    await request(t.app).patch(`/v1/reports/${reportId}`).set(team.auth).send({ address: "1 Persisted Place" });
  });

  it("keeps at most APQ_PER_TEAM documents a team, the ones used last (the store the service uses: Redis or memory)", async () => {
    const store = apqStore();
    const busy = await createTeam({ permissions: "reports:read" });
    const texts = Array.from({ length: APQ_PER_TEAM + 1 }, (_, i) => `query Q${i} { __typename }`);
    await store.set(busy.teamId, sha256Hex(texts[0]), texts[0]);
    await store.set(busy.teamId, sha256Hex(texts[1]), texts[1]);
    expect(await store.get(busy.teamId, sha256Hex(texts[0]))).toBe(texts[0]); // used: kept over texts[1]
    for (const text of texts.slice(2)) await store.set(busy.teamId, sha256Hex(text), text);
    expect(await store.get(busy.teamId, sha256Hex(texts[1]))).toBeUndefined();
    expect(await store.get(busy.teamId, sha256Hex(texts[0]))).toBe(texts[0]);
    expect(await store.get(busy.teamId, sha256Hex(texts[APQ_PER_TEAM]))).toBe(texts[APQ_PER_TEAM]);
    // Through the API: the kept one runs by hash, the dropped one is not found.
    expect((await post(busy.auth, { extensions: persisted(texts[0]) })).body.data).toEqual({ __typename: "Query" });
    expect((await post(busy.auth, { extensions: persisted(texts[1]) })).body.errors[0].message).toBe("PersistedQueryNotFound");
  });
});

describe("a key limited to trusted documents", () => {
  let browser: Record<string, string>;
  beforeAll(async () => {
    expect((await request(t.app).post("/v1/graphql/documents").set(team.auth).send({ [sha256Hex(QUERY)]: QUERY })).status).toBe(201);
    const res = await post(team.auth, { query: `mutation { createApiKey(input: { name: "apq browser", permissions: ["reports:read"], trustedDocumentsOnly: true }) { key } }` });
    browser = { Authorization: `Bearer ${res.body.data.createApiKey.key}` };
  });

  it("runs a registered document by its hash", async () => {
    const res = await post(browser, { extensions: persisted(QUERY), variables: { id: reportId } });
    expect(res.body).toMatchObject({ data: { report: { id: reportId } } });
  });

  it("is refused any other document, sent with its hash or by hash alone, and nothing it sends is kept", async () => {
    const other = `query NotRegistered { reports { total } }`;
    const sent = await post(browser, { query: other, extensions: persisted(other) });
    expect([sent.status, sent.body.errors[0].message]).toEqual([403, "Permission denied: this key runs registered documents only"]);
    const byHash = await post(browser, { extensions: persisted(other) });
    expect(byHash.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^PersistedQueryNotFound: .* registered documents only/), extensions: { code: "PERSISTED_QUERY_NOT_FOUND" } });
    // The team's other keys have not had it kept either.
    expect((await post(team.auth, { extensions: persisted(other) })).body.errors[0].message).toBe("PersistedQueryNotFound");
  });
});
