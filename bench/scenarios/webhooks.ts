// Scenario 7: report writes with 10 webhook endpoints subscribed to every event vs with none, alternated in rounds,
// and the delivery lag from the event's transaction to its receipt at a local receiver. Each write records its event
// in its own transaction either way (the team's event list); "on" adds one pending delivery per endpoint to that
// insert and the background deliveries of the same process. After each "on" round the backlog is drained before the
// next round starts, so an "off" round never pays for deliveries of the round before.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { call } from "../http";
import { compare, percentile, type Target } from "../load";
import { ratio2, rowsOf, spread } from "./overhead";
import type { ScenarioContext, ScenarioResult } from "./types";

const ENDPOINTS = 10;

/** The receiver process (bench/receiver.ts): one path per endpoint. */
async function startReceiver() {
  const child: ChildProcess = fork(path.join(__dirname, "../receiver.ts"), [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { port: number }));
    child.once("exit", (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  const stats = (takeLags = false) =>
    new Promise<{ delivered: number; quietMs: number; lags: number[] }>((resolve) => {
      child.once("message", (m) => resolve(m as { delivered: number; quietMs: number; lags: number[] }));
      child.send({ stats: true, takeLags });
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
  /** Each delivery status's count over the endpoints' logs (what to look at when deliveries went missing). */
  const deliveryStatuses = async () => {
    const statuses: Record<string, number> = {};
    for (const id of ids) {
      for (let offset = 0; ; offset += 100) {
        const page = (await call(ports.stack, `/v1/webhooks/${id}/deliveries?limit=100&offset=${offset}`, { key })).json() as unknown as { data: { status: string }[]; total: number };
        for (const d of page.data) statuses[d.status] = (statuses[d.status] ?? 0) + 1;
        if (offset + 100 >= page.total) break;
      }
    }
    return statuses;
  };
  try {
    for (const url of receiver.urls) {
      const res = await call(ports.stack, "/v1/webhooks", { method: "POST", key, body: { url, events: ["*"] } });
      if (res.status !== 201) throw new Error(`POST /v1/webhooks answered ${res.status}: ${res.text}`);
      ids.push((res.json().data as { id: string }).id);
    }
    let n = 0;
    const writes = (count: boolean) => {
      const target = {
        created: 0,
        port: ports.stack,
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        next: () => ({ path: "/v1/reports", body: { address: `${++n} Webhook Way`, city: "Austin", state: "TX", price: 450000, sqft: 1800 } }),
        // Only the "on" side counts its 201s: a late answer of an "off" round (written while the endpoints were off)
        // must not count as one the receiver should get.
        onResponse: (status: number) => void (count && status === 201 && target.created++),
      } satisfies Target & { created: number };
      return target;
    };
    const onTarget = writes(true);
    const lags: number[] = [];
    let before = 0;
    let drained = true;
    let shortfall = "";
    const c = await compare(
      {
        name: `${ENDPOINTS} endpoints`,
        target: onTarget,
        before: async () => {
          await toggle(true);
          onTarget.created = 0;
          before = await receiver.delivered();
        },
        // The round's deliveries all arrive before the next round starts; their lags are kept (not the warm-up's).
        after: async (_m, warmup) => {
          const expected = before + onTarget.created * ENDPOINTS;
          if (!(await receiver.drain(expected)) && !shortfall) {
            drained = false;
            shortfall = `${await receiver.delivered()} of ${expected} received; the delivery logs hold ${JSON.stringify(await deliveryStatuses())}`;
          }
          const stats = await receiver.stats(true);
          if (!warmup) lags.push(...stats.lags);
        },
      },
      { name: "no endpoint", target: writes(false), before: () => toggle(false) },
      { ...plan, connections: plan.writeConnections, seconds: plan.seconds * 2 },
      "rps",
    );
    lags.sort((a, b) => a - b);
    const lag = `commit → receipt p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`;
    const [onRow, offRow] = rowsOf(c);
    return {
      id: 7,
      title: `POST /v1/reports with ${ENDPOINTS} webhook endpoints subscribed vs none`,
      target: "≥ 0.85× writes/s; every delivery received",
      measured: `${ratio2(c.ratio)}×; lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`,
      pass: c.ratio >= 0.85 && c.a.errors + c.b.errors === 0 && drained,
      rows: [{ ...onRow, value: `${lags.length} deliveries; ${lag}` }, offRow],
      notes: [spread(c), drained ? "every delivery of every round received" : `some deliveries did not arrive within 120 s of their round (${shortfall})`],
    };
  } finally {
    await toggle(false).catch(() => undefined);
    receiver.close();
  }
}
