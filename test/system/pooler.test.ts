// Behind a transaction pooler: two real server processes, the CLI and the webhook worker on a fresh PostgreSQL
// database reached only through Debian's PgBouncer 1.18 in transaction mode (a server connection serves another
// client after every transaction), with no setting of the service changed. Mixed reads and writes all answer, and a
// statement held up by a row lock is still cancelled by its time budget (504). Needs PostgreSQL (DATABASE_URL) and
// Debian's pgbouncer (.ci/run installs it and sets REQUIRE_PGBOUNCER).
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/db/open";
import { PLAN_FUNCTION_PREFIX, planFunctionName } from "../../src/db/plan-functions";
import { preparedName } from "../../src/db/prepared";
import { ownDatabase } from "../support/own-database";
import { pgbouncerPath, startPgBouncer, type PgBouncer } from "../support/pgbouncer";
import { receiver, type Receiver } from "../support/receiver";
import { childEnv, cliTeamAndKey, DELIVERING, startServer, type ServerProcess } from "../support/server";

const direct = process.env.DATABASE_DIRECT_URL ?? process.env.DATABASE_URL;
const missing = !direct ? "DATABASE_URL (PostgreSQL)" : !pgbouncerPath() ? "Debian's pgbouncer (apt-get install pgbouncer)" : null;
if (missing && process.env.REQUIRE_PGBOUNCER && direct) throw new Error(`test/system/pooler.test.ts needs ${missing} (REQUIRE_PGBOUNCER is set)`);
if (missing) console.warn(`test/system/pooler.test.ts skipped: it needs ${missing}.`);

const REQUESTS = 1500;
const CONNECTIONS = 10;

(missing ? describe.skip : describe)("behind PgBouncer in transaction mode", () => {
  const database = ownDatabase("pooler");
  let pooler: PgBouncer;
  let env: NodeJS.ProcessEnv;
  let servers: ServerProcess[] = [];
  let hooks: Receiver;
  let key: string;
  let name: string;
  const reportIds: string[] = [];
  const headers = () => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

  beforeAll(async () => {
    await database!.create();
    // Three server connections for every client of the database: requests queue in the pooler, as in production.
    pooler = await startPgBouncer(direct!, 3);
    name = new URL(database!.url).pathname.slice(1);
    env = childEnv("", { DATABASE_URL: pooler.url(name), REDIS_KEY_PREFIX: `prs:test:${randomUUID()}`, ...DELIVERING, WEBHOOK_POLL_MS: "50" });
    delete env.DATABASE_DIRECT_URL; // the service's settings as they are: the migrations go through the pooler too
    ({ key } = await cliTeamAndKey(env, ["--tier", "enterprise"]));
    servers = await Promise.all([startServer(env), startServer(env)]);
    hooks = await receiver();
    const endpoint = await fetch(`${servers[0].url}/v1/webhooks`, { method: "POST", headers: headers(), body: JSON.stringify({ url: hooks.url, events: ["report.created"] }) });
    expect(endpoint.status).toBe(201);
    for (let i = 0; i < 20; i++) {
      const created = await fetch(`${servers[i % 2].url}/v1/reports`, { method: "POST", headers: headers(), body: JSON.stringify({ address: `${i} Pooler Road`, price: 100_000 + i }) });
      expect(created.status).toBe(201);
      reportIds.push(((await created.json()) as { data: { id: string } }).data.id);
    }
  }, 180_000);

  afterAll(async () => {
    await hooks?.close();
    const codes = await Promise.all(servers.map((s) => s.stop()));
    await pooler?.stop();
    await database?.drop();
    expect(codes).toEqual(servers.map(() => 0));
  }, 60_000);

  /** The i-th request of the mix: REST detail and list, the GraphQL nested page, and writes. */
  function request(i: number): { path: string; init?: RequestInit } {
    const id = reportIds[i % reportIds.length];
    const body = (method: string, value: object) => ({ method, headers: headers(), body: JSON.stringify(value) });
    switch (i % 10) {
      case 0:
      case 1:
      case 2:
        return { path: `/v1/reports/${id}`, init: { headers: headers() } };
      case 3:
      case 4:
        return { path: "/v1/reports?limit=20", init: { headers: headers() } };
      case 5:
      case 6: {
        const query = `query($limit: Int!) { reports(limit: $limit) { total items { id address comparables { id } showings { id attendeeName } socialMediaPosts { id } agentInsights { id } } } }`;
        return { path: "/graphql", init: body("POST", { query, variables: { limit: 10 } }) };
      }
      case 7:
        return { path: `/v1/reports/${id}`, init: body("PATCH", { price: 200_000 + i }) };
      case 8:
        return { path: "/v1/showings", init: body("POST", { report_id: id, showing_date: new Date().toISOString(), attendee_name: `Visitor ${i}`, attendee_email: "visitor@example.com" }) };
      default:
        return { path: `/v1/showings?report_id=${id}`, init: { headers: headers() } };
    }
  }

  it(`answers ${REQUESTS} mixed requests from ${CONNECTIONS} connections across two processes, each one successfully`, async () => {
    const outcomes = new Map<string, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let i = next++; i < REQUESTS; i = next++) {
          const { path, init } = request(i);
          const res = await fetch(`${servers[i % 2].url}${path}`, init);
          const text = await res.text();
          // A GraphQL error answers 200 with `errors`: counted apart, with its message.
          const errors = path === "/graphql" ? (JSON.parse(text) as { errors?: Array<{ message: string }> }).errors : undefined;
          const outcome = res.status >= 300 || errors ? `${res.status} ${errors?.[0]?.message ?? text.slice(0, 200)}` : String(res.status);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
      }),
    );
    const ok = REQUESTS / 10;
    expect(Object.fromEntries(outcomes)).toEqual({ "200": 9 * ok, "201": ok });
    // With no setting each process started with named statements and switched to unnamed ones, once, by itself.
    expect(servers.map((s) => fallbacks(s.output()).length)).toEqual([1, 1]);
  }, 180_000);

  it("runs the webhook worker: each report.created event delivered once", async () => {
    await hooks.count(reportIds.length, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // no second copy comes late
    expect(new Set(hooks.received.map((d) => d.json.data.id))).toEqual(new Set(reportIds));
    expect(hooks.received).toHaveLength(reportIds.length);
  }, 60_000);

  describe("named statements on a pooler with one server connection (every client's statements meet there)", () => {
    let single: PgBouncer;
    /** A query through the pooler: it runs on its one server connection. */
    const onServerConnection = async <Row>(sql: string, params: unknown[] = []): Promise<Row[]> => {
      const client = new pg.Client({ connectionString: single.url(name) });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as Row[];
      } finally {
        await client.end();
      }
    };
    const serviceNames = async () =>
      (await onServerConnection<{ name: string }>("SELECT name FROM pg_prepared_statements")).map((r) => r.name).filter((n) => /^(prs_|sqljson_)/.test(n));

    beforeAll(async () => {
      single = await startPgBouncer(direct!, 1);
      await withDirect((c) => c.query("CREATE TABLE prepared_retry (id serial PRIMARY KEY, label text NOT NULL)"));
    }, 60_000);
    afterAll(() => single?.stop());
    beforeEach(() => onServerConnection("DEALLOCATE ALL"));

    const withDirect = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: database!.url });
      await client.connect();
      try {
        return await fn(client);
      } finally {
        await client.end();
      }
    };
    const labelled = async (label: string) =>
      Number((await withDirect((c) => c.query("SELECT count(*)::int AS n FROM prepared_retry WHERE label = $1", [label]))).rows[0].n);
    const insert = { name: "prs_test_retry_insert", text: "INSERT INTO prepared_retry (label) VALUES ($1) RETURNING label" };

    it('"already exists" (another client prepared that name there): the write is sent again unnamed and stored once', async () => {
      await onServerConnection(`PREPARE ${preparedName(insert)} AS ${insert.text}`);
      const db = openDatabase({ url: single.url(name), poolSize: 2 });
      const probe = { name: "prs_test_probe", text: "SELECT 1 AS one" };
      try {
        expect(await db.query(probe, [])).toEqual([{ one: 1 }]); // named: no setting, no ?pgbouncer=true
        expect((await serviceNames()).sort()).toEqual([preparedName(insert), preparedName(probe)].sort());
        expect(await db.query(insert, ["exists"])).toEqual([{ label: "exists" }]);
        expect(await db.query(insert, ["exists"])).toEqual([{ label: "exists" }]);
      } finally {
        await db.close();
      }
      expect(await labelled("exists")).toBe(2);
    });

    it('"does not exist" (the server connection lost it): the write is sent again unnamed and stored once', async () => {
      const db = openDatabase({ url: single.url(name), poolSize: 1 });
      try {
        expect(await db.query(insert, ["missing"])).toEqual([{ label: "missing" }]); // prepared on the server connection
        expect(await serviceNames()).toEqual([preparedName(insert)]);
        await onServerConnection("DEALLOCATE ALL"); // as another client's turn on it might leave it
        expect(await db.query(insert, ["missing"])).toEqual([{ label: "missing" }]); // Bind by name: refused, sent again
        expect(await db.query(insert, ["missing"])).toEqual([{ label: "missing" }]);
      } finally {
        await db.close();
      }
      expect(await labelled("missing")).toBe(3);
      expect(await serviceNames()).toEqual([]); // unnamed since
    });

    it("a create whose key lookup met another process's statement answers 201 and stores one report", async () => {
      const quiet = { ...env, DATABASE_URL: single.url(name), WEBHOOK_CONCURRENCY: "0" };
      // A first process reads a report: its key lookup is prepared on the one server connection, and stays there.
      const first = await startServer(quiet);
      try {
        expect((await fetch(`${first.url}/v1/reports/${reportIds[0]}`, { headers: headers() })).status).toBe(200);
      } finally {
        expect(await first.stop()).toBe(0);
      }
      expect(await serviceNames()).toEqual(expect.arrayContaining([expect.stringMatching(/^prs_find_api_keys_/)]));
      const second = await startServer(quiet);
      try {
        const address = `${randomUUID()} Retry Road`;
        const created = await fetch(`${second.url}/v1/reports`, { method: "POST", headers: headers(), body: JSON.stringify({ address, price: 123_000 }) });
        expect(created.status).toBe(201);
        const rows = await withDirect((c) => c.query("SELECT count(*)::int AS n FROM reports WHERE address = $1", [address]));
        expect(rows.rows[0].n).toBe(1);
        expect(fallbacks(second.output())).toEqual([expect.objectContaining({ code: "42P05", statement: expect.stringMatching(/^prs_find_api_keys_/) })]);
      } finally {
        expect(await second.stop()).toBe(0);
      }
    }, 120_000);

    it("a large read is planned once per server connection: in a function made from its first run, called by name", async () => {
      const read = { name: "prs_test_read", text: "SELECT $1::int + 1 AS n, upper($2::text) AS label", keepPlan: true };
      const fn = planFunctionName(read.text);
      const functions = () => onServerConnection<{ proname: string }>("SELECT proname FROM pg_proc WHERE proname = $1", [fn]);
      // Through the pooler of three server connections: the first runs below meet the database at once.
      const db = openDatabase({ url: `${pooler.url(name)}?pgbouncer=true`, poolSize: 4 });
      try {
        // Eight first runs at once, unnamed: the function follows, made once (not eight times, seven of them failing).
        const first = await Promise.all(Array.from({ length: 8 }, (_, i) => db.query(read, [i, "first"])));
        expect(first).toEqual(Array.from({ length: 8 }, (_, i) => [{ n: i + 1, label: "FIRST" }]));
        for (let i = 0; i < 50 && !(await functions()).length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await functions()).toEqual([{ proname: fn }]);
        expect(await db.query(read, [2, "second"])).toEqual([{ n: 3, label: "SECOND" }]);
        // Answered by the function: one that answers otherwise is what the next read returns.
        await onServerConnection(
          `CREATE OR REPLACE FUNCTION ${fn}(integer, text) RETURNS TABLE (n integer, label text) LANGUAGE sql AS $$ SELECT 40 + $1, 'from the function' $$`,
        );
        expect(await db.query(read, [3, "third"])).toEqual([{ n: 43, label: "from the function" }]);
        // Dropped (as a migration drops them): the statement itself answers.
        await onServerConnection(`DROP FUNCTION ${fn}(integer, text)`);
        expect(await db.query(read, [4, "fourth"])).toEqual([{ n: 5, label: "FOURTH" }]);
        expect(await serviceNames()).toEqual([]);
      } finally {
        await db.close();
      }
    });

    it("applying a migration drops the functions of the reads' plans (made again against the new schema)", async () => {
      await onServerConnection(`CREATE FUNCTION ${PLAN_FUNCTION_PREFIX}test_stale(integer) RETURNS integer LANGUAGE sql AS $$ SELECT $1 $$`);
      const dir = mkdtempSync(path.join(tmpdir(), "prs-migration-"));
      mkdirSync(path.join(dir, "20990101000000_test_plans"));
      writeFileSync(path.join(dir, "20990101000000_test_plans", "migration.sql"), "CREATE TABLE plans_migrated (id int)");
      const db = openDatabase({ url: database!.url });
      try {
        expect(await db.migrate(dir)).toEqual(["20990101000000_test_plans"]);
      } finally {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      }
      expect(await onServerConnection("SELECT proname FROM pg_proc WHERE starts_with(proname, $1)", [PLAN_FUNCTION_PREFIX])).toEqual([]);
    });

    it("?pgbouncer=true in DATABASE_URL: the service names no statement", async () => {
      const server = await startServer({ ...env, DATABASE_URL: `${single.url(name)}?pgbouncer=true`, WEBHOOK_CONCURRENCY: "0" });
      try {
        for (const path of [`/v1/reports/${reportIds[1]}`, "/v1/reports?limit=5", `/v1/showings?report_id=${reportIds[1]}`]) {
          expect((await fetch(`${server.url}${path}`, { headers: headers() })).status).toBe(200);
        }
        expect(await serviceNames()).toEqual([]);
        expect(fallbacks(server.output())).toEqual([]);
      } finally {
        expect(await server.stop()).toBe(0);
      }
    }, 120_000);
  });

  describe("a statement past its time budget (DB_TIMEOUT_MS)", () => {
    let server: ServerProcess;
    let locker: pg.Client;

    beforeAll(async () => {
      server = await startServer({ ...env, DB_TIMEOUT_MS: "500", WEBHOOK_CONCURRENCY: "0" });
      locker = new pg.Client({ connectionString: pooler.url(name) });
      await locker.connect();
    }, 120_000);
    afterAll(async () => {
      await locker?.end();
      expect(await server?.stop()).toBe(0);
    });

    it("is cancelled through the pooler: 504 Request timed out, nothing stored", async () => {
      const id = reportIds[0];
      const before = ((await (await fetch(`${server.url}/v1/reports/${id}`, { headers: headers() })).json()) as { data: { price: number } }).data.price;
      // Another session holds the row: the update waits on the lock until the budget cancels it.
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM reports WHERE id = $1 FOR UPDATE", [id]);
      try {
        const patch = await fetch(`${server.url}/v1/reports/${id}`, { method: "PATCH", headers: headers(), body: JSON.stringify({ price: 1 }) });
        expect({ status: patch.status, body: await patch.json() }).toEqual({ status: 504, body: { error: { message: "Request timed out", status: 504 } } });
      } finally {
        await locker.query("COMMIT");
      }
      // The pooled connection that was cancelled serves the next requests.
      for (let i = 0; i < 5; i++) {
        const after = await fetch(`${server.url}/v1/reports/${id}`, { headers: headers() });
        expect(((await after.json()) as { data: { price: number } }).data.price).toBe(before);
      }
    }, 60_000);
  });
});

/** The service's log lines saying it switched to unnamed statements. */
function fallbacks(output: string): Array<{ code?: string; statement?: string }> {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes("statements are unnamed from now on"))
    .map((line) => JSON.parse(line) as { code?: string; statement?: string });
}

(direct ? describe : describe.skip)("DATABASE_PREPARED_STATEMENTS (a direct connection)", () => {
  const statement = { name: "prs_test_prepared", text: "SELECT $1::int AS n" };
  const preparedNames = async (preparedStatements: boolean | undefined, url = direct!) => {
    const db = openDatabase({ url, poolSize: 1, preparedStatements });
    try {
      expect(await db.query(statement, [7])).toEqual([{ n: 7 }]);
      expect(await db.query(statement, [8])).toEqual([{ n: 8 }]);
      return (await db.query<{ name: string }>({ text: "SELECT name FROM pg_prepared_statements" }, [])).map((r) => r.name);
    } finally {
      await db.close();
    }
  };

  it("unset: prepares each named statement once on the connection", async () => {
    expect(await preparedNames(undefined)).toEqual([preparedName(statement)]);
  });

  it("true: the same", async () => {
    expect(await preparedNames(true)).toEqual([preparedName(statement)]);
  });

  it("false: statements are unnamed, nothing stays on the connection", async () => {
    expect(await preparedNames(false)).toEqual([]);
  });

  it("unset, with ?pgbouncer=true in the URL: unnamed from the start (and the parameter never reaches pg)", async () => {
    const url = new URL(direct!);
    url.searchParams.set("pgbouncer", "true");
    expect(await preparedNames(undefined, url.toString())).toEqual([]);
  });
});
