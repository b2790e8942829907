// Scenarios 1 and 4: throughput of GET /v1/reports/{id} against a baseline, alternated in rounds.
import { bearer, call, cycle } from "../http";
import { compare, type Comparison, type Side } from "../load";
import type { Row, ScenarioContext, ScenarioResult } from "./types";

// Rounded down, so a ratio just under its target never prints as the target itself.
export const ratio2 = (n: number) => (Math.floor(n * 100) / 100).toFixed(2);

/** How far the rounds spread: the reader's measure of how much the median can be trusted on this machine. */
export const spread = (c: Comparison): string => {
  const sorted = [...c.ratios].sort((x, y) => x - y);
  return `${c.ratios.length} rounds, per-round ratio ${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)}`;
};

export const rowsOf = (c: Comparison): Row[] =>
  [c.a, c.b].map((s) => ({ label: s.name, rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors }));

function reportGet(port: number, key: string, ids: string[]): Side["target"] {
  const nextId = cycle(ids);
  return { port, headers: bearer(key), next: () => ({ path: `/v1/reports/${nextId()}` }) };
}

/** 1. The real stack (REST → in-process GraphQL → Pothos → Prisma) vs one hand-written Prisma call. */
export async function restOverhead({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const { key, reportIds } = seed.nested;
  const notes: string[] = [];
  // Same body or the comparison means nothing.
  for (const id of reportIds.slice(0, 3)) {
    const real = await call(ports.stack, `/v1/reports/${id}`, { key });
    const base = await call(ports.baseline, `/v1/reports/${id}`, { key });
    if (real.status !== 200 || base.status !== 200 || real.text !== base.text) {
      notes.push(`body mismatch for ${id}: stack ${real.status} (${real.text.length} B), baseline ${base.status} (${base.text.length} B)`);
    }
  }
  if (!notes.length) notes.push(`bodies identical (${(await call(ports.stack, `/v1/reports/${reportIds[0]}`, { key })).text.length} bytes, 40 nested items)`);
  const c = await compare(
    { name: "REST stack", target: reportGet(ports.stack, key, reportIds) },
    { name: "baseline route (1 Prisma call)", target: reportGet(ports.baseline, key, reportIds) },
    plan,
    "rps",
  );
  const ok = notes.length === 1 && notes[0].startsWith("bodies identical");
  notes.push(spread(c));
  return {
    id: 1,
    title: "GET /v1/reports/{id}: REST stack vs hand-written route",
    target: "≥ 0.90× baseline req/s",
    measured: `${ratio2(c.ratio)}×`,
    pass: ok && c.ratio >= 0.9 && c.a.errors + c.b.errors === 0,
    rows: rowsOf(c),
    notes,
  };
}

/** 4. The same GET with auth + rate limiting on vs a build with them off. */
export async function authCost({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const { key, reportIds } = seed.nested;
  const c = await compare(
    { name: "auth + rate limit on", target: reportGet(ports.stack, key, reportIds) },
    { name: "auth + rate limit off", target: reportGet(ports.noauth, key, reportIds) },
    { ...plan, rounds: plan.closeRounds },
    "rps",
  );
  return {
    id: 4,
    title: "GET /v1/reports/{id}: auth + rate limits on vs off",
    target: "≥ 0.90× req/s without",
    measured: `${ratio2(c.ratio)}×`,
    pass: c.ratio >= 0.9 && c.a.errors + c.b.errors === 0,
    rows: rowsOf(c),
    notes: [spread(c)],
  };
}
