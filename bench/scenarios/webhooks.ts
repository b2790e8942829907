// Scenario 7: report writes with 10 webhook endpoints subscribed to every event vs with none, alternated in rounds,
// and the delivery lag from the event's transaction to its receipt at a local receiver. Each write records its event
// in its own transaction either way (the team's event list); "on" adds one pending delivery per endpoint to that
// insert and the background deliveries of the same process. After each "on" round the backlog is drained before the
// next round starts, so an "off" round never pays for deliveries of the round before.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { call } from "../http";
import { measure, median, percentile, type Measurement, type Target } from "../load";
import type { ScenarioContext, ScenarioResult } from "./types";

const ENDPOINTS = 10;

/** The receiver process (bench/receiver.ts): one path per endpoint. */
async function startReceiver() {
  const child: ChildProcess = fork(path.join(__dirname, "../receiver.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { port: number }));
    child.once("exit", (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  const stats = (resetLags = false) =>
    new Promise<{ delivered: number; quietMs: number; lags: number[] }>((resolve) => {
      child.once("message", (m) => resolve(m as { delivered: number; quietMs: number; lags: number[] }));
      child.send({ stats: true, resetLags });
    });
  return {
    urls: Array.from({ length: ENDPOINTS }, (_, i) => `http://127.0.0.1:${port}/endpoint-${i}`),
    stats,
    delivered: async () => (await stats()).delivered,
    /** Resolves once `n` deliveries arrived and nothing more came for a second (in-flight writes of the round). */
    async drain(n: number, timeoutMs = 120_000): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const { delivered, quietMs } = await stats();
        if (delivered >= n && quietMs > 1000) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    },
    close: () => void child.disconnect(),
  };
}

export async function webhookWrites({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const { key } = seed.writes;
  const receiver = await startReceiver();
  const ids: string[] = [];
  const toggle = async (enabled: boolean) => {
    for (const id of ids) {
      const res = await call(ports.stack, `/v1/webhooks/${id}`, { method: "PATCH", key, body: { enabled } });
      if (res.status !== 200) throw new Error(`PATCH /v1/webhooks answered ${res.status}: ${res.text}`);
    }
  };
  try {
    for (const url of receiver.urls) {
      const res = await call(ports.stack, "/v1/webhooks", { method: "POST", key, body: { url, events: ["*"] } });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${res.text}`);
      ids.push((res.json().data as { id: string }).id);
    }
    let n = 0;
    // A target per round counting its own 201s: a late answer of the round before (written while the endpoints were
    // off) must not count as one the receiver should get.
    const writes = () => {
      const target = {
        created: 0,
        port: ports.stack,
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        next: () => ({ path: "/v1/reports", body: { address: `${++n} Webhook Way`, city: "Austin", state: "TX", price: 450000, sqft: 1800 } }),
        onResponse: (status: number) => void (status === 201 && target.created++),
      } satisfies Target & { created: number };
      return target;
    };
    const on: Measurement[] = [];
    const off: Measurement[] = [];
    let drained = true;
    let shortfall = "";
    const round = async (enabled: boolean, seconds: number) => {
      await toggle(enabled);
      const target = writes();
      const before = await receiver.delivered();
      const m = await measure(target, plan.writeConnections, seconds);
      if (enabled) {
        const expected = before + target.created * ENDPOINTS;
        if (!(await receiver.drain(expected)) && !shortfall) {
          drained = false;
          const statuses: Record<string, number> = {};
          for (const id of ids) {
            for (let offset = 0; ; offset += 100) {
              const page = (await call(ports.stack, `/v1/webhooks/${id}/deliveries?limit=100&offset=${offset}`, { key })).json() as unknown as { data: { status: string }[]; total: number };
              for (const d of page.data) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
              if (offset + 100 >= page.total) break;
            }
          }
          shortfall = `${await receiver.delivered()} of ${expected} received; the delivery logs hold ${JSON.stringify(statuses)}`;
        }
      }
      return m;
    };
    await round(true, plan.warmupSeconds);
    await round(false, plan.warmupSeconds);
    await receiver.stats(true);
    for (let i = 0; i < plan.rounds; i++) {
      for (const enabled of i % 2 ? [false, true] : [true, false]) (enabled ? on : off).push(await round(enabled, plan.seconds * 2));
    }
    const ratios = on.map((m, i) => m.rps / off[i].rps);
    const ratio = median(ratios);
    const lags = [...(await receiver.stats()).lags].sort((a, b) => a - b);
    const errors = [...on, ...off].reduce((sum, m) => sum + m.errors, 0);
    const side = (label: string, rounds: Measurement[]) => ({
      label,
      rps: median(rounds.map((m) => m.rps)),
      p50: median(rounds.map((m) => m.p50)),
      p99: median(rounds.map((m) => m.p99)),
      errors: rounds.reduce((sum, m) => sum + m.errors, 0),
    });
    const sorted = [...ratios].sort((a, b) => a - b);
    return {
      id: 7,
      title: `POST /v1/reports with ${ENDPOINTS} webhook endpoints subscribed vs none`,
      target: "≥ 0.85× writes/s; every delivery received",
      measured: `${(Math.floor(ratio * 100) / 100).toFixed(2)}×; lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`,
      pass: ratio >= 0.85 && errors === 0 && drained,
      rows: [
        { ...side(`${ENDPOINTS} endpoints`, on), value: `${lags.length} deliveries; commit → receipt p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms` },
        side("no endpoint", off),
      ],
      notes: [
        `${ratios.length} rounds, per-round ratio ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}`,
        drained ? "every delivery of every round received" : `some deliveries did not arrive within 120 s of their round (${shortfall})`,
      ],
    };
  } finally {
    await toggle(false).catch(() => undefined);
    receiver.close();
  }
}
