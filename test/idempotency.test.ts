// Idempotency-Key on REST POSTs (docs/api.md "Robustness"), against the real stack on the suite's database: retries
// after a dropped response, concurrent retries, reuse with another request, expiry, abandoned claims, scoping.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { createApiKey } from "../src/auth/api-keys";
import { buildApp } from "../src/app";
import { prisma } from "../src/db";
import { pruneExpiredIdempotencyKeys } from "../src/http/idempotency";
import { createTeam, errorOf, type TestApp, type TestTeam } from "./support/app";
import { teamApp } from "./support/team-app";
import { doc, expectDocumented } from "./support/openapi";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "./support/server";

let t: TestApp, team: TestTeam;
beforeAll(async () => ({ t, team } = await teamApp()));
afterAll(() => t.close());

const post = (path: string, body: unknown, key?: string, auth = team.auth) => {
  const req = request(t.app).post(path).set(auth);
  if (key !== undefined) req.set("Idempotency-Key", key);
  return req.send(body as object);
};
const reportsAt = (address: string, teamId = team.teamId) => prisma.report.count({ where: { teamId, address } });
const rowsOf = (key: string) => prisma.idempotencyKey.findMany({ where: { key } });
const replayed = (res: request.Response) => res.headers["idempotent-replayed"];

const REUSED = { status: 422, message: "Idempotency-Key reused with a different request" };
const IN_PROGRESS = { status: 409, message: "A request with this Idempotency-Key is in progress" };

describe("a POST with an Idempotency-Key", () => {
  it("runs once: a retry gets the first answer again, marked Idempotent-Replayed, and creates nothing", async () => {
    const key = randomUUID();
    const first = expectDocumented(await post("/v1/reports", { address: "1 Retry Road", beds: 3 }, key));
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeUndefined();
    const again = expectDocumented(await post("/v1/reports", { address: "1 Retry Road", beds: 3 }, key));
    expect(again.status).toBe(201);
    expect(replayed(again)).toBe("true");
    expect(again.headers["content-type"]).toMatch(/^application\/json/);
    expect(again.text).toBe(first.text);
    expect(await reportsAt("1 Retry Road")).toBe(1);
  });

  describe("a client whose connection drops", () => {
    let server: http.Server;
    let port: number;
    beforeAll(async () => {
      server = http.createServer(t.app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    /** Sends a POST and destroys the connection, without reading any answer, once `dropWhen` resolves. */
    const sendAndDrop = (key: string, body: unknown, dropWhen: () => Promise<unknown>) =>
      new Promise<void>((resolve) => {
        const req = http.request({
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/reports",
          headers: { ...team.auth, "Content-Type": "application/json", "Idempotency-Key": key },
        });
        req.on("error", () => undefined);
        req.end(JSON.stringify(body), () => void dropWhen().then(() => (req.destroy(), resolve())));
      });

    /** Retries (409 while the first still runs) within a generous bound. */
    async function retry(key: string, body: unknown): Promise<request.Response> {
      for (let i = 0; ; i++) {
        const res = await post("/v1/reports", body, key);
        if (res.status !== 409 || i === 400) return res;
        expect(errorOf(res)).toEqual(IN_PROGRESS);
        await new Promise((r) => setTimeout(r, 25));
      }
    }

    it("gets the answer it never received on retry, and the report is created once", async () => {
      const key = randomUUID();
      // Dropped once the server has claimed the key (the request is then running or answered).
      const claimed = async () => {
        for (let i = 0; i < 400 && (await rowsOf(key)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      };
      await sendAndDrop(key, { address: "2 Dropped Lane" }, claimed);
      const again = await retry(key, { address: "2 Dropped Lane" });
      expect({ status: again.status, replayed: replayed(again) }).toEqual({ status: 201, replayed: "true" });
      const [report] = await prisma.report.findMany({ where: { teamId: team.teamId, address: "2 Dropped Lane" } });
      expect(again.body).toEqual({ data: expect.objectContaining({ id: report.id, address: "2 Dropped Lane" }), message: "Report created successfully", ignored_fields: [] });
      expect(await reportsAt("2 Dropped Lane")).toBe(1);
    });

    it("leaves the key free when it drops before its body is read: the retry runs, once", async () => {
      const key = randomUUID();
      // The connection fails as the request arrives (the server's end of the socket is destroyed): the app goes on
      // handling a request whose body can no longer be read.
      const cut = (req: http.IncomingMessage) => void (req.headers["idempotency-key"] === key && req.socket.destroy());
      server.on("request", cut);
      try {
        await sendAndDrop(key, { address: "2 Early Drop Lane" }, () => new Promise((r) => setTimeout(r, 200)));
      } finally {
        server.off("request", cut);
      }
      const again = await retry(key, { address: "2 Early Drop Lane" });
      expect({ status: again.status, replayed: replayed(again) }).toEqual({ status: 201, replayed: undefined });
      expect(await reportsAt("2 Early Drop Lane")).toBe(1);
      expect(await rowsOf(key)).toEqual([expect.objectContaining({ status: 201 })]);
    });
  });

  it("runs one of several concurrent requests with one key: one 201, the others replayed or 409, one row", async () => {
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post("/v1/reports", { address: "3 Crowd Court" }, key)));
    const ran = answers.filter((a) => a.status === 201 && replayed(a) === undefined);
    expect(ran).toHaveLength(1);
    for (const a of answers) {
      if (a === ran[0]) continue;
      if (a.status === 409) expect(errorOf(a)).toEqual(IN_PROGRESS);
      else expect({ status: a.status, replayed: replayed(a), text: a.text }).toEqual({ status: 201, replayed: "true", text: ran[0].text });
    }
    expect(await reportsAt("3 Crowd Court")).toBe(1);
  });

  it("refuses the same key with another body or another path (422), and still replays the first request", async () => {
    const key = randomUUID();
    const first = await post("/v1/reports", { address: "4 Reuse Row" }, key);
    expect(first.status).toBe(201);
    expect(errorOf(expectDocumented(await post("/v1/reports", { address: "4 Reuse Row", beds: 2 }, key)))).toEqual(REUSED);
    expect(errorOf(await post("/v1/reports?x=1", { address: "4 Reuse Row" }, key))).toEqual(REUSED);
    const showing = expectDocumented(await post("/v1/showings", { report_id: first.body.data.id }, key));
    expect(errorOf(showing)).toEqual(REUSED);
    expect(await prisma.showing.count({ where: { reportId: first.body.data.id } })).toBe(0);
    expect(await reportsAt("4 Reuse Row")).toBe(1);
    const again = await post("/v1/reports", { address: "4 Reuse Row" }, key);
    expect({ status: again.status, replayed: replayed(again), text: again.text }).toEqual({ status: 201, replayed: "true", text: first.text });
  });

  it("compares bodies as parsed JSON: another key order or whitespace is the same request", async () => {
    const key = randomUUID();
    const send = (raw: string) =>
      request(t.app).post("/v1/reports").set(team.auth).set("Idempotency-Key", key).set("Content-Type", "application/json").send(raw);
    const first = await send('{"address":"5 Order Street","beds":3,"extra":{"b":1,"a":[1,{"y":2,"x":1}]}}');
    expect(first.status).toBe(201);
    const again = await send('{\n  "extra": { "a": [1, {"x": 1, "y": 2.0}], "b": 1 },\n  "beds": 3,\n  "address": "5 Order Street"\n}');
    expect({ status: again.status, replayed: replayed(again), text: again.text }).toEqual({ status: 201, replayed: "true", text: first.text });
    expect(errorOf(await send('{"address":"5 Order Street","beds":3,"extra":{"b":1,"a":[{"y":2,"x":1},1]}}'))).toEqual(REUSED);
    expect(await reportsAt("5 Order Street")).toBe(1);
  });

  it("is scoped to the API key: another key (same team or another) with the same Idempotency-Key runs anew", async () => {
    const key = randomUUID();
    expect((await post("/v1/reports", { address: "6 Scope Square" }, key)).status).toBe(201);
    const sameTeam = await createApiKey({ teamId: team.teamId, name: "second key", permissions: { reports: ["create", "read"] } });
    const second = await post("/v1/reports", { address: "6 Scope Square" }, key, { Authorization: `Bearer ${sameTeam.key}` });
    expect({ status: second.status, replayed: replayed(second) }).toEqual({ status: 201, replayed: undefined });
    expect(await reportsAt("6 Scope Square")).toBe(2);
    const other = await createTeam();
    const third = await post("/v1/reports", { address: "6 Scope Square" }, key, other.auth);
    expect({ status: third.status, replayed: replayed(third) }).toEqual({ status: 201, replayed: undefined });
    expect(await reportsAt("6 Scope Square", other.teamId)).toBe(1);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["a non-ASCII character", "caf\u00e9"],
    ["a tab", "a\tb"],
  ])("refuses a key that is %s with 400 and runs nothing", async (_label, key) => {
    const res = expectDocumented(await post("/v1/reports", { address: "7 Invalid Key Way" }, key));
    expect(errorOf(res)).toEqual({ status: 400, message: "Idempotency-Key header must be 1 to 255 printable ASCII characters" });
    expect(await reportsAt("7 Invalid Key Way")).toBe(0);
  });

  it("accepts 255 printable ASCII characters, spaces and punctuation included", async () => {
    const key = ` ~!"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}`.padEnd(255, "x").replace(/^ /, "!");
    expect(key).toHaveLength(255);
    expect((await post("/v1/reports", { address: "8 Long Key Lane" }, key)).status).toBe(201);
    expect(replayed(await post("/v1/reports", { address: "8 Long Key Lane" }, key))).toBe("true");
    expect(await reportsAt("8 Long Key Lane")).toBe(1);
  });

  it("keeps a 400 validation answer and replays it; the same key cannot then be used for a corrected body", async () => {
    const key = randomUUID();
    const first = expectDocumented(await post("/v1/reports", { address: "9 Invalid Body Blvd", beds: -1 }, key));
    expect(errorOf(first)).toEqual({ status: 400, message: "beds must be at least 0" });
    const again = expectDocumented(await post("/v1/reports", { address: "9 Invalid Body Blvd", beds: -1 }, key));
    expect({ status: again.status, replayed: replayed(again), text: again.text }).toEqual({ status: 400, replayed: "true", text: first.text });
    expect(errorOf(await post("/v1/reports", { address: "9 Invalid Body Blvd", beds: 1 }, key))).toEqual(REUSED);
    expect(await rowsOf(key)).toEqual([expect.objectContaining({ status: 400 })]);
  });

  it("does not keep a 403: the key is released and a retry runs again", async () => {
    const key = randomUUID();
    const reader = await createApiKey({ teamId: team.teamId, name: "reader", permissions: { reports: ["read"] } });
    const auth = { Authorization: `Bearer ${reader.key}` };
    for (let i = 0; i < 2; i++) {
      const res = await post("/v1/reports", { address: "10 Forbidden Fork" }, key, auth);
      expect({ ...errorOf(res), replayed: replayed(res) }).toEqual({ status: 403, message: "Permission denied: reports:create", replayed: undefined });
    }
    expect(await rowsOf(key)).toEqual([]);
  });

  it("counts a replay against the rate limit like any request", async () => {
    const key = randomUUID();
    const first = await post("/v1/reports", { address: "11 Budget Bend" }, key);
    const again = await post("/v1/reports", { address: "11 Budget Bend" }, key);
    expect(replayed(again)).toBe("true");
    expect(Number(again.headers["x-ratelimit-remaining"])).toBe(Number(first.headers["x-ratelimit-remaining"]) - 1);
  });

  it("holds beyond one app instance: the answer is kept in the database", async () => {
    const key = randomUUID();
    const first = await post("/v1/reports", { address: "12 Restart Row" }, key);
    const otherInstance = buildApp({ rateLimiter: t.rateLimiter });
    const again = await request(otherInstance).post("/v1/reports").set(team.auth).set("Idempotency-Key", key).send({ address: "12 Restart Row" });
    expect({ status: again.status, replayed: replayed(again), text: again.text }).toEqual({ status: 201, replayed: "true", text: first.text });
    expect(await reportsAt("12 Restart Row")).toBe(1);
  });

  it("forgets a key after 24 hours: the same key then runs anew (the old row is replaced, and pruned in bulk)", async () => {
    const key = randomUUID();
    expect((await post("/v1/reports", { address: "13 Expiry Avenue" }, key)).status).toBe(201);
    await prisma.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE key = ${key}`;
    const later = await post("/v1/reports", { address: "13 Expiry Avenue" }, key);
    expect({ status: later.status, replayed: replayed(later) }).toEqual({ status: 201, replayed: undefined });
    expect(await reportsAt("13 Expiry Avenue")).toBe(2);
    expect(await rowsOf(key)).toHaveLength(1);
    expect(replayed(await post("/v1/reports", { address: "13 Expiry Avenue" }, key))).toBe("true");
    // Expired with another body: the key is free again, not a 422.
    await prisma.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${key}`;
    expect((await post("/v1/reports", { address: "13 Expiry Avenue", beds: 4 }, key)).status).toBe(201);

    // Pruning deletes expired rows of every key and keeps the others.
    const stale = randomUUID();
    const fresh = randomUUID();
    await post("/v1/reports", { address: "13 Expiry Avenue" }, stale);
    await post("/v1/reports", { address: "13 Expiry Avenue" }, fresh);
    await prisma.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = ${stale}`;
    expect(await pruneExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
    expect(await rowsOf(stale)).toEqual([]);
    expect(await rowsOf(fresh)).toHaveLength(1);
  });

  it("answers 409 while the first request runs, and treats a claim unanswered for over 60 s as abandoned", async () => {
    const key = randomUUID();
    expect((await post("/v1/reports", { address: "14 Crash Close" }, key)).status).toBe(201);
    // As a process that died while running it would leave the row: claimed, no answer.
    await prisma.$executeRaw`UPDATE idempotency_keys SET status = NULL, body = NULL, created_at = now() - interval '30 seconds' WHERE key = ${key}`;
    expect(errorOf(expectDocumented(await post("/v1/reports", { address: "14 Crash Close" }, key)))).toEqual(IN_PROGRESS);
    expect(errorOf(await post("/v1/reports", { address: "14 Crash Close", beds: 9 }, key))).toEqual(REUSED);
    await prisma.$executeRaw`UPDATE idempotency_keys SET created_at = now() - interval '61 seconds' WHERE key = ${key}`;
    const retry = await post("/v1/reports", { address: "14 Crash Close" }, key);
    expect({ status: retry.status, replayed: replayed(retry) }).toEqual({ status: 201, replayed: undefined });
    expect(await reportsAt("14 Crash Close")).toBe(2);
    expect(replayed(await post("/v1/reports", { address: "14 Crash Close" }, key))).toBe("true");
  });

  it("applies to every POST route, showings included", async () => {
    const reportId = (await post("/v1/reports", { address: "15 Showing Street" })).body.data.id;
    const key = randomUUID();
    const first = expectDocumented(await post("/v1/showings", { report_id: reportId, attendee_name: "Sam" }, key));
    expect(first.status).toBe(201);
    const again = expectDocumented(await post("/v1/showings", { report_id: reportId, attendee_name: "Sam" }, key));
    expect({ status: again.status, replayed: replayed(again), text: again.text }).toEqual({ status: 201, replayed: "true", text: first.text });
    expect(await prisma.showing.count({ where: { reportId } })).toBe(1);
  });

  it("leaves other methods alone, and a request without the header behaves as before", async () => {
    const key = randomUUID();
    expect((await post("/v1/reports", { address: "16 Plain Place" })).status).toBe(201);
    expect((await post("/v1/reports", { address: "16 Plain Place" })).status).toBe(201);
    expect(await reportsAt("16 Plain Place")).toBe(2);
    const get = await request(t.app).get("/v1/users/me").set(team.auth).set("Idempotency-Key", key);
    expect({ status: get.status, replayed: replayed(get) }).toEqual({ status: 200, replayed: undefined });
    expect(await rowsOf(key)).toEqual([]);
  });

  it("is documented on every POST operation of the OpenAPI document", () => {
    const posts = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.post ? [[path, ops.post] as const] : []));
    expect(posts.length).toBeGreaterThanOrEqual(2);
    for (const [path, op] of posts) {
      const { parameters, responses } = op as unknown as { parameters?: Array<{ in: string; name: string; required?: boolean }>; responses: Record<string, unknown> };
      expect({ path, header: parameters?.find((p) => p.in === "header" && p.name === "Idempotency-Key") }).toEqual({
        path,
        header: expect.objectContaining({ required: false }),
      });
      expect({ path, codes: Object.keys(responses) }).toEqual({ path, codes: expect.arrayContaining(["409", "422"]) });
    }
  });
});

// Two server processes on one PostgreSQL: a key claimed by one is not run by the other.
const pg = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
(pg ? describe : describe.skip)("two server processes on one PostgreSQL", () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  let teamId: string;
  const env = childEnv("", { REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });

  beforeAll(async () => {
    ({ teamId, key } = await cliTeamAndKey(env));
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it("run a request sent to both at once with one Idempotency-Key exactly once", async () => {
    for (let round = 0; round < 5; round++) {
      const idem = randomUUID();
      const address = `${round} Two Process Path`;
      const answers = await Promise.all(
        [a, b, a, b, a, b].map((server) =>
          fetch(`${server.url}/v1/reports`, {
            method: "POST",
            headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json", "Idempotency-Key": idem },
            body: JSON.stringify({ address }),
          }).then(async (res) => ({ status: res.status, replayed: res.headers.get("idempotent-replayed") })),
        ),
      );
      expect(answers.filter((x) => x.status === 201 && x.replayed === null)).toHaveLength(1);
      expect(answers.every((x) => x.status === 409 || (x.status === 201 && (x.replayed === "true" || x.replayed === null)))).toBe(true);
      expect(await reportsAt(address, teamId)).toBe(1);
    }
  }, 60_000);
});
