// Open-house sign-in and attendee encryption (BENCHMARKS.md "Open-house sign-in and attendee encryption"), one
// process, on the embedded database in memory or on DATABASE_URL (a database of its own: it adds teams each run).
// 1. Sign-ins: 50 visitors sign in on one link at once (25 e-mails, each twice; an address each), five rounds on
//    new showings: each sign-in's time (p50, p99, max) and whether every round kept 25 attendees and 50 sign-ins.
// 2. Encryption's cost on reads: the REST detail of a report with 10 showings whose attendee name, e-mail and phone
//    are stored (30 encrypted values opened per answer) against the same report whose showings hold none, and the
//    GraphQL page of 10 such reports with the attendee fields (300 values) against 10 without; one request at a
//    time, blocks alternated; the process's CPU and the wall time per request (client and server in this process:
//    the difference is the values' decryption).
//   TRUST_PROXY=true PGLITE_DATA_DIR=memory:// LOG_LEVEL=silent npx tsx bench/open-house.ts
//   TRUST_PROXY=true DATABASE_URL=postgresql://…/prs_bench_open_house LOG_LEVEL=silent npx tsx bench/open-house.ts
import { hash, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createApiKey } from "../src/auth/api-keys";
import { ALL_PERMISSIONS } from "../src/auth/permissions";
import { createRateLimiter } from "../src/auth/rate-limit";
import { buildApp } from "../src/app";
import { config } from "../src/config";
import { database, prisma } from "../src/db";
import { createAppServer } from "../src/http/server";
import { signStart } from "../src/schema/resources/sign-in/token";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, read field by field below
type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

async function signIns(base: string, api: Api, reportId: string) {
  const showing = (await api("POST", "/v1/showings", { report_id: reportId, event_type: "open_house" })).body.data.id as string;
  const { token } = (await api("POST", `/v1/showings/${showing}/sign-in-links`, {})).body.data as { token: string };
  const page = await (await fetch(`${base}/s/${token}`)).text();
  const at = Number(/name="started" value="(\d+)\./.exec(page)![1]);
  const { formSecret } = await prisma.signInLink.findUniqueOrThrow({ where: { tokenHash: hash("sha256", token, "hex") }, select: { formSecret: true } });
  const started = signStart(formSecret, at - 3000); // past the 2 s minimum fill time
  const times = await Promise.all(
    Array.from({ length: 50 }, async (_v, i) => {
      const sent = performance.now();
      const res = await fetch(`${base}/s/${token}`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `203.0.113.${i + 1}` },
        body: new URLSearchParams({ name: `Visitor ${i}`, email: `v${i % 25}@example.com`, working_with_agent: "unsaid", started }).toString(),
      });
      await res.arrayBuffer();
      if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
      return performance.now() - sent;
    }),
  );
  const attendees = await prisma.attendee.count({ where: { showingId: showing } });
  const total = (await prisma.attendee.aggregate({ where: { showingId: showing }, _sum: { signIns: true } }))._sum.signIns;
  return { times, kept: attendees === 25 && total === 50, attendees, total };
}

async function perRequest(send: () => Promise<void>, n: number) {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let i = 0; i < n; i++) await send();
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / n, wallUs: ((performance.now() - wall) * 1000) / n };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

async function main(): Promise<void> {
  if (!config.DATABASE_URL && config.PGLITE_DATA_DIR !== "memory://") throw new Error("run it with PGLITE_DATA_DIR=memory://, or DATABASE_URL naming a database of its own");
  if (!config.TRUST_PROXY) throw new Error("run it with TRUST_PROXY=true (each visitor's address is X-Forwarded-For)");
  await database.migrate();
  const rateLimiter = createRateLimiter({ keyPrefix: `prs:bench:${randomUUID()}` });
  const { server } = createAppServer(buildApp({ rateLimiter }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const team = await prisma.team.create({ data: { name: `Bench open house ${randomUUID().slice(0, 8)}`, adminName: "Bench" } });
  const { key } = await createApiKey({ teamId: team.id, name: "bench", permissions: ALL_PERMISSIONS, tier: "enterprise" });
  const api: Api = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, { method, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  const report = (await api("POST", "/v1/reports", { address: "1 Open House Way" })).body.data.id as string;
  const times: number[] = [];
  const kept: string[] = [];
  for (let round = 0; round < 5; round++) {
    const r = await signIns(base, api, report);
    times.push(...r.times);
    kept.push(`${r.attendees} attendees / ${r.total} sign-ins`);
  }
  console.log(`sign-ins, 50 at once on one link, 5 rounds: p50 ${pct(times, 50).toFixed(0)} ms, p99 ${pct(times, 99).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms; kept ${kept.join(", ")}`);

  // Twin reports: 10 showings each, attendee fields stored on one side only.
  const twins: Record<"with" | "without", string[]> = { with: [], without: [] };
  for (const side of ["with", "without"] as const) {
    for (let r = 0; r < 10; r++) {
      const id = (await api("POST", "/v1/reports", { address: `${r} ${side} attendees` })).body.data.id as string;
      for (let s = 0; s < 10; s++) {
        const person = side === "with" ? { attendee_name: `Visitor ${r}.${s}`, attendee_email: `v${r}.${s}@example.com`, attendee_phone: `+1 555 01${r}${s}` } : {};
        const res = await api("POST", "/v1/showings", { report_id: id, event_type: "showing", ...person });
        if (res.status !== 201) throw new Error(`showing: ${res.status} ${JSON.stringify(res.body)}`);
      }
      twins[side].push(id);
    }
  }
  const page = (ids: string[]) =>
    JSON.stringify({ query: `{ ${ids.map((id, i) => `r${i}: report(id: "${id}") { id showings { id attendeeName attendeeEmail attendeePhone } }`).join(" ")} }` });
  const detail = (id: string) => async () => void (await (await fetch(`${base}/v1/reports/${id}`, { headers: { Authorization: `Bearer ${key}` } })).arrayBuffer());
  const nested = (ids: string[]) => async () =>
    void (await (await fetch(`${base}/graphql`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: page(ids) })).arrayBuffer());
  const probe = await (await fetch(`${base}/graphql`, { method: "POST", headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" }, body: page(twins.with) })).json();
  if (!probe.data) throw new Error(`nested page: ${JSON.stringify(probe.errors)}`);
  const rows: Record<string, Array<{ cpuUs: number; wallUs: number }>> = {};
  const cases: Array<[string, () => Promise<void>, number]> = [
    ["REST detail, 10 showings with attendee fields (30 values)", detail(twins.with[0]), 1000],
    ["REST detail, 10 showings without", detail(twins.without[0]), 1000],
    ["GraphQL page of 10 reports × 10 showings with attendee fields (300 values)", nested(twins.with), 300],
    ["GraphQL page of 10 reports × 10 showings without", nested(twins.without), 300],
  ];
  for (const [, send, n] of cases) await perRequest(send, Math.floor(n / 5)); // warm-up
  for (let block = 0; block < 3; block++) for (const [name, send, n] of cases) (rows[name] ??= []).push(await perRequest(send, n));
  for (const [name, runs] of Object.entries(rows)) {
    const cpu = runs.map((r) => r.cpuUs).sort((a, b) => a - b)[1];
    const wall = runs.map((r) => r.wallUs).sort((a, b) => a - b)[1];
    console.log(`${name}: ${cpu.toFixed(0)} µs CPU, ${wall.toFixed(0)} µs wall per request (median of 3 blocks)`);
  }
  server.close();
  await rateLimiter.close();
  await database.close();
}

void main().then(() => process.exit(0));
