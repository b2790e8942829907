// Database faults (and the statement time budget), against real server processes on
// PostgreSQL: an outage made with a TCP proxy in front of PostgreSQL that the test cuts and restores, and a
// statement held past DB_TIMEOUT_MS by a row lock the test takes. PostgreSQL only: the embedded database lives in
// the server's own process and cannot become unreachable.
import net from "node:net";
import pg from "pg";
import { childEnv, cliTeamAndKey, startServer, type ServerProcess } from "../support/server";

const url = process.env.DATABASE_URL;
if (!url) console.warn("test/system/robustness-database.test.ts skipped: it needs DATABASE_URL (PostgreSQL); the embedded PGlite cannot be made unreachable.");

/** A TCP proxy to PostgreSQL: cut() refuses new connections and drops open ones, restore() listens again. */
class CuttableProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }
  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server!.close(resolve));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
  restore = () => this.start();
}

const json = async (res: Response) => ({ status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as unknown });
const unavailable = { error: { message: "Service temporarily unavailable", status: 503 } };
const UNKNOWN_KEY = "prs_sk_live_" + "x".repeat(32);

(url ? describe : describe.skip)("the database", () => {
  let key: string;
  const auth = () => ({ Authorization: `Bearer ${key}`, "Content-Type": "application/json" });

  beforeAll(async () => {
    ({ key } = await cliTeamAndKey(childEnv("")));
  }, 60_000);

  describe("unreachable (a proxy in front of PostgreSQL is cut, then restored)", () => {
    // (describe.skip still runs this body: nothing here may need DATABASE_URL.)
    const target = url ? new URL(url) : null;
    const proxy = new CuttableProxy({ host: target?.hostname ?? "127.0.0.1", port: Number(target?.port || 5432) });
    let server: ServerProcess;

    beforeAll(async () => {
      await proxy.start();
      const proxied = new URL(url!);
      proxied.port = String(proxy.port);
      server = await startServer(childEnv("", { DATABASE_URL: proxied.toString() }));
    }, 120_000);
    afterAll(async () => {
      expect(await server?.stop()).toBe(0);
      await proxy.cut().catch(() => undefined);
    });

    it("answers 503 with Retry-After while it is down, says so on /ready, and recovers by itself", async () => {
      const get = (path: string, headers: Record<string, string> = auth()) => fetch(`${server.url}${path}`, { headers });
      const createReport = () => fetch(`${server.url}/v1/reports`, { method: "POST", headers: auth(), body: JSON.stringify({ address: "1 Outage Way" }) });
      expect((await get("/v1/users/me")).status).toBe(200);
      expect(await json(await get("/ready"))).toMatchObject({ status: 200, body: { status: "ready", checks: { database: "ok" } } });

      await proxy.cut();
      for (const res of [await get("/v1/users/me"), await get("/v1/reports"), await createReport(), await get("/v1/users/me", { Authorization: `Bearer ${UNKNOWN_KEY}` })]) {
        expect(await json(res)).toEqual({ status: 503, retryAfter: "5", body: unavailable });
      }
      const graphql = await fetch(`${server.url}/graphql`, { method: "POST", headers: auth(), body: JSON.stringify({ query: "{ reports { total } }" }) });
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get("retry-after")).toBe("5");
      const ready = await json(await get("/ready", {}));
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: "unavailable", checks: { database: "unreachable", redis: process.env.REDIS_URL ? "ok" : "not configured" } });
      expect(await json(await get("/health", {}))).toMatchObject({ status: 200, body: { status: "ok" } });

      await proxy.restore();
      // The pool reconnects on its own; /ready is what a load balancer polls.
      let readyAgain = 0;
      for (let i = 0; i < 60 && readyAgain !== 200; i++) {
        readyAgain = (await get("/ready", {})).status;
        if (readyAgain !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(readyAgain).toBe(200);
      expect((await get("/v1/users/me")).status).toBe(200);
      const created = await createReport();
      expect(created.status).toBe(201);
      // Nothing from the outage was stored: the only "1 Outage Way" report is the one created after it.
      const list = (await (await get("/v1/reports?limit=100")).json()) as { data: Array<{ address: string }> };
      expect(list.data.filter((r) => r.address === "1 Outage Way")).toHaveLength(1);
    }, 120_000);
  });

  describe("past its time budget (DB_TIMEOUT_MS)", () => {
    let server: ServerProcess;
    const locker = new pg.Client({ connectionString: url }); // connects in beforeAll

    beforeAll(async () => {
      server = await startServer(childEnv("", { DB_TIMEOUT_MS: "300" }));
      await locker.connect();
    }, 120_000);
    afterAll(async () => {
      await locker.end();
      expect(await server?.stop()).toBe(0);
    });

    it("cancels the statement and answers 504 Request timed out, storing nothing", async () => {
      const created = await fetch(`${server.url}/v1/reports`, { method: "POST", headers: auth(), body: JSON.stringify({ address: "9 Slow Lane", price: 100 }) });
      expect(created.status).toBe(201);
      const { data } = (await created.json()) as { data: { id: string } };

      // Another session holds the row: the update waits on the lock until statement_timeout cancels it.
      await locker.query("BEGIN");
      await locker.query("SELECT id FROM reports WHERE id = $1 FOR UPDATE", [data.id]);
      try {
        const patch = await fetch(`${server.url}/v1/reports/${data.id}`, { method: "PATCH", headers: auth(), body: JSON.stringify({ price: 200 }) });
        expect(await json(patch)).toEqual({ status: 504, retryAfter: null, body: { error: { message: "Request timed out", status: 504 } } });
        const graphql = await fetch(`${server.url}/graphql`, {
          method: "POST",
          headers: auth(),
          body: JSON.stringify({ query: `mutation($id: ID!) { updateReport(id: $id, input: { price: 300 }) { id } }`, variables: { id: data.id } }),
        });
        expect(graphql.status).toBe(504);
        expect(((await graphql.json()) as { errors: Array<{ message: string }> }).errors[0].message).toBe("Request timed out");
      } finally {
        await locker.query("COMMIT");
      }
      const after = await fetch(`${server.url}/v1/reports/${data.id}`, { headers: auth() });
      expect(((await after.json()) as { data: { price: number } }).data.price).toBe(100);
    }, 60_000);
  });
});
