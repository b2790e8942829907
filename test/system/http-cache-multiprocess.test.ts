// HTTP caching across processes: two real server processes on one PostgreSQL and one Redis share
// the response cache and the team versions, so a change committed through either one is seen on the next request to
// the other — never a 304 or a cached answer from before it — and an answer cached by one is served by the other.
// Trusted documents registered through one (or the CLI) run on the other. Needs both services.
import { createHash } from "node:crypto";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { childEnv, cli, cliTeamAndKey, startServer, tempDir, type ServerProcess } from "../support/server";

const ready = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!ready) {
  console.warn("test/system/http-cache-multiprocess.test.ts skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) set, as .ci/run's second pass does.");
}

const PAGE = `query Page { reports(limit: 5) { total items { id address showings { attendee_name: attendeeName } } } }`;
/** An answer without the budget left in its cost (which every request changes). */
const sameButBudget = (body: any) => ({ ...body, extensions: { ...body.extensions, cost: { ...body.extensions?.cost, throttleStatus: { ...body.extensions?.cost?.throttleStatus, currentlyAvailable: 0 } } } });
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

(ready ? describe : describe.skip)("HTTP caching with two server processes on one PostgreSQL and one Redis", () => {
  const env = childEnv("", { REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });
  let a: ServerProcess;
  let b: ServerProcess;
  let teamId: string;
  let key: string;

  beforeAll(async () => {
    ({ teamId, key } = await cliTeamAndKey(env, ["--permissions", "reports:*,showings:*,api_keys:*"]));
    const manifest = path.join(tempDir("manifest"), "documents.json");
    writeFileSync(manifest, JSON.stringify({ [sha(PAGE)]: PAGE }));
    expect(await cli(["documents", "register", "--team", teamId, manifest], env)).toContain(`Registered 1 document (0 already registered) for team ${teamId}.`);
    const started = await Promise.allSettled([startServer(env), startServer(env)]);
    [a, b] = started.map((s) => (s.status === "fulfilled" ? s.value : undefined!));
    for (const s of started) if (s.status === "rejected") throw s.reason;
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  const auth = () => ({ Authorization: `Bearer ${key}` });
  const page = (server: ServerProcess, etag?: string) =>
    fetch(`${server.url}/graphql?documentId=sha256:${sha(PAGE)}`, { headers: { ...auth(), Accept: "application/json", ...(etag ? { "If-None-Match": etag } : {}) } });
  const rest = (server: ServerProcess, method: string, route: string, body?: unknown) =>
    fetch(`${server.url}${route}`, { method, headers: { ...auth(), "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

  it("a 304 and the cached answer of one process hold on the other until a change commits through either", async () => {
    const created = await rest(a, "POST", "/v1/reports", { address: "9 Two Process Rd", city: "Springfield", state: "IL", zip_code: "62701" });
    expect(created.status).toBe(201);
    const reportId = ((await created.json()) as { data: { id: string } }).data.id;

    const first = await page(a);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(first.headers.get("cache-control")).toBe("private, no-cache");
    const body = await first.json();
    expect((await page(b, etag)).status).toBe(304);
    const fromB = await page(b);
    expect(fromB.headers.get("etag")).toBe(etag);
    // The same answer; only its cost's budget is of now (a kept answer is charged again: docs/api.md "Read cost").
    expect(sameButBudget(await fromB.json())).toEqual(sameButBudget(body));

    const showing = await rest(b, "POST", "/v1/showings", { report_id: reportId, attendee_name: "Sam Second", scheduled_at: "2027-02-01T10:00:00Z" });
    expect(showing.status).toBe(201);
    for (const server of [a, b]) {
      const after = await page(server, etag);
      expect(after.status).toBe(200);
      const data = (await after.json()) as { data: { reports: { items: Array<{ showings: Array<{ attendee_name: string }> }> } } };
      expect(data.data.reports.items[0].showings).toEqual([{ attendee_name: "Sam Second" }]);
    }
  }, 60_000);

  it("REST reads: a 304 from one process turns into the new answer on the other after a change", async () => {
    const list = await rest(a, "GET", "/v1/reports");
    const etag = list.headers.get("etag")!;
    const reportId = ((await list.json()) as { data: Array<{ id: string }> }).data[0].id;
    expect((await fetch(`${b.url}/v1/reports`, { headers: { ...auth(), "If-None-Match": etag } })).status).toBe(304);
    expect((await rest(a, "PATCH", `/v1/reports/${reportId}`, { city: "Capital City" })).status).toBe(200);
    const after = await fetch(`${b.url}/v1/reports`, { headers: { ...auth(), "If-None-Match": etag } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { data: Array<{ city: string }> }).data[0].city).toBe("Capital City");
  }, 60_000);
});
