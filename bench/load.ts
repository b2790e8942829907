// Load generation with autocannon, and the "alternate both sides in short rounds, report the medians" protocol
// that every ratio target uses (the machine is shared and noisy; drift hits both sides alike).
import autocannon from "autocannon";

export interface Target {
  port: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Called for every request: path (and body for POST). Lets a run cycle through many ids or addresses. */
  next: () => { path: string; body?: unknown };
  /** Sees every complete response (status and body), e.g. to collect the ids of created rows. */
  onResponse?: (status: number, body: string) => void;
}

export interface Measurement {
  rps: number;
  /** Latency percentiles in ms, from every response (autocannon's own histogram has 1 ms resolution). */
  p50: number;
  p99: number;
  requests: number;
  /** Socket errors, timeouts and non-2xx responses. */
  errors: number;
  /** 2xx responses: the count check of scenario 5 compares it with the rows found afterwards. */
  ok: number;
  /** Responses by HTTP status (e.g. a side that must answer 304 only). */
  statuses: Record<number, number>;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export async function measure(target: Target, connections: number, seconds: number): Promise<Measurement> {
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const instance = autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: seconds,
    headers: { "content-type": "application/json", ...target.headers },
    requests: [
      {
        method: target.method ?? "GET",
        setupRequest: (req) => {
          const { path, body } = target.next();
          return { ...req, path, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
        },
        ...(target.onResponse ? { onResponse: target.onResponse } : {}),
      },
    ],
  });
  instance.on("response", (_client, status, _bytes, responseTime) => {
    latencies.push(responseTime);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    ok: result["2xx"],
    statuses,
  };
}

export interface Side {
  name: string;
  target: Target;
  /** Runs before each of the side's rounds, warm-up included (e.g. switches something on). */
  before?: () => Promise<void>;
  /** Runs after each of them with its measurement (e.g. waits for background work the round caused). */
  after?: (m: Measurement, warmup: boolean) => Promise<void>;
}

/** What sends a round's load: autocannon (`measure`) unless a plan names another (bench/wrk.ts). */
export type Load = (target: Target, connections: number, seconds: number) => Promise<Measurement>;

async function round(side: Side, connections: number, seconds: number, warmup: boolean, load: Load = measure): Promise<Measurement> {
  await side.before?.();
  const m = await load(side.target, connections, seconds);
  await side.after?.(m, warmup);
  return m;
}

export interface SideSummary {
  name: string;
  /** Medians over the rounds. */
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rounds: Measurement[];
}

export interface Comparison {
  a: SideSummary;
  b: SideSummary;
  /** Median over rounds of (a / b) for the chosen metric. */
  ratio: number;
  /** Each round's a / b, in round order. */
  ratios: number[];
}

/** Each round's a / b for `metric` (rounds paired by index: run alternately in one run) and their median. */
export function roundRatios(a: Measurement[], b: Measurement[], metric: "rps" | "p50"): { ratio: number; rounds: number[] } {
  const rounds = a.map((m, i) => m[metric] / b[i][metric]);
  return { ratio: median(rounds), rounds };
}

export interface RoundPlan {
  connections: number;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  /** The load generator (default: autocannon in this process). */
  load?: Load;
}

/**
 * Runs a and b alternately (a b, b a, a b, … so neither always goes first), `rounds` times each, after one warm-up
 * of each. `metric` picks what the ratio compares: requests/s or p50 latency.
 */
export async function compare(a: Side, b: Side, plan: RoundPlan, metric: "rps" | "p50"): Promise<Comparison> {
  await round(a, plan.connections, plan.warmupSeconds, true);
  await round(b, plan.connections, plan.warmupSeconds, true);
  const ra: Measurement[] = [];
  const rb: Measurement[] = [];
  for (let i = 0; i < plan.rounds; i++) {
    const order = i % 2 ? [b, a] : [a, b];
    for (const side of order) (side === a ? ra : rb).push(await round(side, plan.connections, plan.seconds, false));
  }
  const summary = (side: Side, rounds: Measurement[]): SideSummary => ({
    name: side.name,
    rps: median(rounds.map((m) => m.rps)),
    p50: median(rounds.map((m) => m.p50)),
    p99: median(rounds.map((m) => m.p99)),
    errors: rounds.reduce((n, m) => n + m.errors, 0),
    rounds,
  });
  const { ratio, rounds: ratios } = roundRatios(ra, rb, metric);
  return { a: summary(a, ra), b: summary(b, rb), ratio, ratios };
}

export interface MultiComparison {
  sides: SideSummary[];
  /** Per side after the first: median over rounds of (first / that side) for the chosen metric, and each round's. */
  ratios: { name: string; ratio: number; rounds: number[] }[];
}

/**
 * compare() for more than two sides, each ratio taken against the first: every round runs each side once, the
 * order rotating from round to round (a b c, b c a, c a b, …), after one warm-up of each.
 */
export async function compareMany(sides: Side[], plan: RoundPlan, metric: "rps" | "p50"): Promise<MultiComparison> {
  for (const side of sides) await round(side, plan.connections, plan.warmupSeconds, true, plan.load);
  const measured: Measurement[][] = sides.map(() => []);
  for (let i = 0; i < plan.rounds; i++) {
    for (let j = 0; j < sides.length; j++) {
      const k = (i + j) % sides.length;
      measured[k].push(await round(sides[k], plan.connections, plan.seconds, false, plan.load));
    }
  }
  const summaries = sides.map((side, k): SideSummary => ({
    name: side.name,
    rps: median(measured[k].map((m) => m.rps)),
    p50: median(measured[k].map((m) => m.p50)),
    p99: median(measured[k].map((m) => m.p99)),
    errors: measured[k].reduce((n, m) => n + m.errors, 0),
    rounds: measured[k],
  }));
  const ratios = sides.slice(1).map((side, s) => ({ name: side.name, ...roundRatios(measured[0], measured[s + 1], metric) }));
  return { sides: summaries, ratios };
}
