// `WEB_CONCURRENCY=2`: one start command runs a primary and two server workers behind one port (src/cluster.ts).
// A worker killed with SIGKILL is replaced while the other keeps answering; SIGTERM stops the workers gracefully and
// the primary exits 0; the primary serves the workers' metrics summed; a start that cannot succeed (port in use) ends with an error instead of restarting forever.
// Needs PostgreSQL and Redis, as several processes do.
import { get as httpGet } from "node:http";
import { createServer } from "node:net";
import { randomUUID } from "node:crypto";
import { childEnv, cliTeamAndKey, startServer, startServerExpectingExit, type ServerProcess } from "../support/server";

const ready = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
if (!ready) {
  console.warn("test/system/cluster.test.ts skipped: it needs DATABASE_URL (PostgreSQL) and REDIS_URL (Redis) set, as .ci/run's second pass does.");
}

/** A GET on a connection of its own (so a request never rides a connection to a worker that was killed). */
function status(url: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(`${url}/v1/users/me`, { agent: false, headers: { Authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on("error", reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids of the "worker started" log lines so far, in order. */
const workerPids = (output: string) => [...output.matchAll(/"pid":(\d+)[^\n]*"msg":"worker started"/g)].map((m) => Number(m[1]));
const listening = (output: string) => output.split("\n").filter((line) => line.includes('"msg":"listening"')).length;

async function until(what: string, check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

(ready ? describe : describe.skip)("WEB_CONCURRENCY=2: one command, two server workers", () => {
  const env = childEnv("", { WEB_CONCURRENCY: "2", REDIS_KEY_PREFIX: `prs:test:${randomUUID()}`, SHUTDOWN_TIMEOUT_MS: "3000", METRICS_PORT: "0", METRICS_HOST: "127.0.0.1" });
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    ({ key } = await cliTeamAndKey(env));
    server = await startServer(env);
    await until("both workers listening", () => listening(server.output()) === 2);
  }, 180_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  it("prints the links once, not once per worker", () => {
    expect(server.output().split("\n").filter((line) => line.startsWith("Property Report Service: REST "))).toHaveLength(1);
  });

  it("serves both workers' metrics summed on the primary's metrics port", async () => {
    const port = Number(/"port":(\d+)[^\n]*"msg":"metrics listening"/.exec(server.output())?.[1]);
    const count = async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return Number(/^prs_http_request_duration_seconds_count\{method="GET",route="\/v1\/users\/me",status="200"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await count();
    // Each on a connection of its own: the primary hands connections to both workers in turn.
    for (let i = 0; i < 10; i++) expect(await status(server.url, key)).toBe(200);
    expect((await count()) - before).toBe(10);
  }, 60_000);

  it("replaces a worker killed with SIGKILL; the survivor answers meanwhile", async () => {
    const [first, second] = workerPids(server.output());
    expect([alive(first), alive(second)]).toEqual([true, true]);
    process.kill(first, "SIGKILL");
    // Once the primary has seen the death, the survivor answers while the replacement starts.
    await until("the death noticed", () => server.output().includes('"msg":"worker died; starting another"'));
    const answers: number[] = [];
    while (!(workerPids(server.output()).length === 3 && listening(server.output()) === 3)) answers.push(await status(server.url, key));
    for (let i = 0; i < 10; i++) answers.push(await status(server.url, key));
    expect(new Set(answers)).toEqual(new Set([200]));
    expect(alive(second)).toBe(true);
  }, 90_000);

  it("stops gracefully on SIGTERM: every worker exits and the primary exits 0", async () => {
    const pids = workerPids(server.output());
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(pids.filter(alive)).toEqual([]);
    expect(server.output()).toContain('"msg":"stopped"');
  }, 60_000);

  it("ends a start that cannot succeed (port in use) with exit code 1 instead of restarting workers", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, output } = await startServerExpectingExit(env, port);
      expect(code).toBe(1);
      expect(output).toContain(`Cannot listen: port ${port} is in use`);
      expect(output).toContain("a worker failed to start; stopping");
    } finally {
      taken.close();
    }
  }, 90_000);
});
