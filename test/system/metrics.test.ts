// Prometheus metrics of a real server process: /metrics only where configured (a port of its own, or the main port
// with a bearer token; otherwise it answers like any unknown path), in text `promtool check metrics` accepts, with
// bounded labels (route templates, never ids or client-chosen operation names), scraped by a real Prometheus (Debian's
// `prometheus` package) and read back through its HTTP API. Skipped with a message when prometheus is not installed
// (.ci/run installs it).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { receiver } from "../support/receiver";
import { childEnv, cli, cliTeamAndKey, DELIVERING, sharedDatabase, startServer, tempDir, type ServerProcess } from "../support/server";
import { freePort } from "../support/ports";
import { ownDatabaseForFile } from "../support/own-database";

/** On PostgreSQL a database of this file's own: its server delivers webhooks (test/support/own-database.ts). */
const own = ownDatabaseForFile("metrics");

const PROMETHEUS = ["/usr/bin/prometheus", "/usr/local/bin/prometheus"].find((p) => existsSync(p));
const PROMTOOL = PROMETHEUS && path.join(path.dirname(PROMETHEUS), "promtool");
if (!PROMETHEUS && process.env.REQUIRE_PROMETHEUS) throw new Error("REQUIRE_PROMETHEUS is set but prometheus is not installed");
if (!PROMETHEUS) console.warn("test/system/metrics.test.ts: the Prometheus scrape is skipped: prometheus is not installed (apt-get install --no-install-recommends prometheus)");

const TOKEN = "metrics-token-0123456789abcdef";

let server: ServerProcess | null = null;
let prometheus: ChildProcess | null = null;
afterEach(async () => {
  prometheus?.kill("SIGKILL");
  prometheus = null;
  await server?.stop("SIGKILL");
  server = null;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The port of the "metrics listening" log line. */
async function metricsPort(s: ServerProcess): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const line = s
      .output()
      .split("\n")
      .find((l) => l.startsWith("{") && JSON.parse(l).msg === "metrics listening");
    if (line) return JSON.parse(line).port as number;
    await sleep(100);
  }
  throw new Error(`no "metrics listening" line:\n${s.output()}`);
}


/** A sample's value in Prometheus text (`series` written exactly as in the text, labels in their order). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Requests every series should see: REST by id (found and not), an unknown path, GraphQL, refusals, a delivery. */
async function traffic(url: string, key: string, freeKey: string, hookUrl: string): Promise<string> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  expect((await fetch(`${url}/v1/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: hookUrl, events: ["report.created"] }) })).status).toBe(201);
  const created = await fetch(`${url}/v1/reports`, { method: "POST", headers, body: JSON.stringify({ address: "1 Metrics Way" }) });
  expect(created.status).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  for (let i = 0; i < 2; i++) expect((await fetch(`${url}/v1/reports/${id}`, { headers })).status).toBe(200);
  expect((await fetch(`${url}/v1/reports/00000000-0000-4000-8000-000000000000`, { headers })).status).toBe(404);
  expect((await fetch(`${url}/no/such/path/${id}`, { headers })).status).toBe(404);
  const graphql = await fetch(`${url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: "query ClientChosenName { reports(limit: 1) { total } }" }) });
  expect(graphql.status).toBe(200);
  // Past the budget of a key (RATE_LIMIT_FREE=2) and of an address presenting wrong keys (RATE_LIMIT_ANONYMOUS=2).
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer ${freeKey}` } })).status);
  for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/v1/users/me`, { headers: { Authorization: `Bearer prs_sk_live_${"x".repeat(32)}` } })).status);
  expect(statuses).toEqual([200, 200, 429, 401, 401, 429]);
  return id;
}

it("serves /metrics on its own port only, with bounded labels, in text promtool accepts, scraped by a real Prometheus", async () => {
  const env = childEnv(path.join(tempDir("metrics"), "db"), { ...DELIVERING, ...own, METRICS_PORT: "0", RATE_LIMIT_FREE: "2", RATE_LIMIT_ANONYMOUS: "2", REDIS_KEY_PREFIX: `prs:test:${randomUUID()}` });
  const { key, teamId } = await cliTeamAndKey(env, ["--tier", "pro"]);
  const freeKey = (await cli(["key", "create", "--team", teamId, "--name", "free", "--tier", "free"], env)).at(-1)!;
  server = await startServer(env);
  const port = await metricsPort(server);
  const metricsUrl = `http://127.0.0.1:${port}/metrics`;

  // The main port does not serve them: /metrics answers as any unknown path does.
  const [onMain, unknown] = await Promise.all([fetch(`${server.url}/metrics`), fetch(`${server.url}/no-such-path`)]);
  expect(onMain.status).toBe(unknown.status);
  expect(await onMain.json()).toEqual({ error: { message: expect.any(String), status: unknown.status } });
  // Its own port serves nothing else.
  const other = await fetch(`http://127.0.0.1:${port}/v1/reports`);
  expect(other.status).toBe(404);
  expect(await other.json()).toEqual({ error: { message: "Not found: GET /v1/reports", status: 404 } });

  const hook = await receiver();
  try {
    const id = await traffic(server.url, key, freeKey, hook.url);
    await hook.count(1, 20_000);
    let text = "";
    for (let i = 0; i < 50; i++) {
      const res = await fetch(metricsUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      text = await res.text();
      if (sharedDatabase || text.includes('prs_webhook_delivery_duration_seconds_count{outcome="success"}')) break;
      await sleep(200);
    }
    const count = (labels: string) => sample(text, `prs_http_request_duration_seconds_count{${labels}}`);
    expect(count('method="GET",route="/v1/reports/:reportId",status="200"')).toBe(2);
    expect(count('method="GET",route="/v1/reports/:reportId",status="404"')).toBe(1);
    expect(count('method="POST",route="/v1/reports",status="201"')).toBe(1);
    expect(count('method="GET",route="unmatched",status="404"')).toBe(1);
    expect(count('method="POST",route="/graphql",status="200"')).toBe(1);
    // No id, raw path or client-chosen operation name in any label.
    expect(text).not.toContain(id);
    expect(text).not.toContain("no/such/path");
    expect(text).not.toContain("ClientChosenName");
    for (const phase of ["parse", "validate", "execute"]) expect(sample(text, `prs_graphql_${phase}_duration_seconds_count{operation_type="query"}`)).toBe(1);
    expect(sample(text, 'prs_rate_limit_refusals_total{reason="key"}')).toBe(1);
    expect(sample(text, 'prs_rate_limit_refusals_total{reason="ip"}')).toBe(1);
    // The delivery: on PostgreSQL any delivering process of the suite may have sent it (they share the database).
    if (!sharedDatabase) expect(sample(text, 'prs_webhook_delivery_duration_seconds_count{outcome="success"}')).toBe(1);
    expect(text).toContain("# TYPE prs_webhook_delivery_duration_seconds histogram");
    for (const backlog of ["prs_webhook_events_unsent", "prs_webhook_deliveries_pending", "prs_webhook_deliveries_due"]) expect(sample(text, backlog)).toEqual(expect.any(Number));
    if (sharedDatabase) {
      expect(sample(text, 'prs_db_pool_connections{state="idle"}')).toBeGreaterThan(0);
      expect(sample(text, "prs_db_pool_waiting")).toBe(0);
    }
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toEqual(expect.any(Number));
    expect(sample(text, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  } finally {
    await hook.close();
  }

  if (!PROMETHEUS) return;
  // promtool: 0 = fine, 3 = lint findings only (prom-client's nodejs_active_*_total gauges are named like counters),
  // 1 = invalid.
  const text = await (await fetch(metricsUrl)).text();
  const check = spawnSync(PROMTOOL!, ["check", "metrics"], { input: text, encoding: "utf8" });
  const findings = `${check.stdout}${check.stderr}`.split("\n").filter(Boolean);
  expect({ status: check.status, findings: findings.filter((f) => !/^nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(f)) }).toEqual({
    status: findings.length ? 3 : 0,
    findings: [],
  });

  // A real Prometheus scraping it every second, read back through its HTTP API.
  const dir = tempDir("prometheus");
  const webPort = await freePort();
  const config = path.join(dir, "prometheus.yml");
  writeFileSync(config, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: prs\n    static_configs:\n      - targets: ["127.0.0.1:${port}"]\n`);
  prometheus = spawn(PROMETHEUS, [`--config.file=${config}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${webPort}`], { stdio: "ignore" });
  const query = async (promql: string) => {
    const res = await fetch(`http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(promql)}`).catch(() => null);
    if (!res?.ok) return [];
    return ((await res.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }).data.result;
  };
  let result: Awaited<ReturnType<typeof query>> = [];
  for (let i = 0; i < 100 && result.length === 0; i++) {
    await sleep(300);
    result = await query('prs_http_request_duration_seconds_count{route="/v1/reports/:reportId",status="200"}');
  }
  expect(result).toEqual([{ metric: expect.objectContaining({ job: "prs", method: "GET", route: "/v1/reports/:reportId", status: "200" }), value: [expect.any(Number), "2"] }]);
  expect(await query('up{job="prs"}')).toEqual([{ metric: expect.objectContaining({ job: "prs" }), value: [expect.any(Number), "1"] }]);
}, 120_000);

it("serves /metrics on the main port to METRICS_TOKEN bearers only", async () => {
  server = await startServer(childEnv(path.join(tempDir("metrics-token"), "db"), { METRICS_TOKEN: TOKEN }));
  for (const authorization of [undefined, "Bearer wrong-token-0123456789abcdef", `Basic ${TOKEN}`]) {
    const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: "Metrics need the METRICS_TOKEN as a bearer token", status: 401 } });
  }
  const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain("# TYPE prs_http_request_duration_seconds histogram");
  const post = await fetch(`${server.url}/metrics`, { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } });
  expect(post.status).toBe(405);
  expect(server.output()).not.toContain("metrics listening");
}, 60_000);
