// Scenario 2: SQL statements per request, read from the X-SQL-Statements header of a server started with
// SQL_STATEMENT_EVENTS=true (bench/statement-count.ts). The count includes the auth middleware's key lookup
// on PostgreSQL (on PGlite the key is cached: src/auth/key-lookup.ts).
import { STATEMENT_COUNT_HEADER } from "../statement-count";
import { bearer, call } from "../http";
import { measure, type Target } from "../load";
import type { Row, ScenarioContext, ScenarioResult } from "./types";

const MAX_STATEMENTS = 6;

export const NESTED_QUERY = `query BenchNested($limit: Int!) {
  reports(limit: $limit) {
    total
    items {
      id address price status showingsCount
      comparables(limit: 10) { id address price distanceMiles }
      showings(limit: 10) { id attendeeName eventType showingDate }
      socialMediaPosts(limit: 10) { id platform likes postedAt }
      agentInsights(limit: 10) { id title body }
    }
  }
}`;

interface Probe {
  label: string;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** Checks the response really holds what was asked for. */
  check(body: Record<string, unknown>): boolean;
}

const restList = (limit: number): Probe => ({
  label: `GET /v1/reports?limit=${limit}`,
  method: "GET",
  path: `/v1/reports?limit=${limit}`,
  check: (b) => Array.isArray(b.data) && b.data.length === limit,
});

type NestedItem = Record<"comparables" | "showings" | "socialMediaPosts" | "agentInsights", unknown[]>;
const graphqlNested = (limit: number): Probe => ({
  label: `GraphQL ${limit} reports × 4 collections × 10`,
  method: "POST",
  path: "/graphql",
  body: { query: NESTED_QUERY, variables: { limit } },
  check: (b) => {
    const items = (b.data as { reports?: { items?: NestedItem[] } } | undefined)?.reports?.items ?? [];
    return items.length === limit && items.every((i) => [i.comparables, i.showings, i.socialMediaPosts, i.agentInsights].every((c) => c?.length === 10));
  },
});

export const PROBES: Probe[] = [restList(1), restList(50), restList(100), graphqlNested(1), graphqlNested(50), graphqlNested(100)];

/** Runs on the server with statement events on: the most statements seen over a few calls of each probe. */
export async function statementCounts({ seed, ports }: Pick<ScenarioContext, "seed" | "ports">): Promise<ScenarioResult> {
  const { key } = seed.nested;
  const rows: Row[] = [];
  const notes: string[] = [];
  // The first authenticated request of a key also writes last_used_at (once a minute); not part of the steady state.
  await call(ports.stack, "/v1/users/me", { key });
  let worst = 0;
  for (const probe of PROBES) {
    let most = 0;
    for (let i = 0; i < 3; i++) {
      const res = await call(ports.stack, probe.path, { method: probe.method, key, body: probe.body });
      const header = res.headers.get(STATEMENT_COUNT_HEADER);
      if (res.status !== 200 || !probe.check(res.json())) notes.push(`${probe.label}: unexpected response ${res.status}`);
      if (header === null) notes.push(`${probe.label}: no ${STATEMENT_COUNT_HEADER} header`);
      most = Math.max(most, Number(header ?? Infinity));
    }
    worst = Math.max(worst, most);
    rows.push({ label: probe.label, value: `${most} statements` });
  }
  return {
    id: 2,
    title: "SQL statements per request (list, nested GraphQL)",
    target: `≤ ${MAX_STATEMENTS} at limit 1, 50, 100`,
    measured: `max ${worst}`,
    pass: worst <= MAX_STATEMENTS && notes.length === 0,
    rows,
    notes: [...new Set(notes)],
  };
}

/** On the production server: throughput of the two limit=50 requests, for the table (no target). */
export async function statementLoad({ seed, ports, plan }: ScenarioContext, result: ScenarioResult): Promise<void> {
  for (const probe of [PROBES[1], PROBES[4]]) {
    const target: Target = { port: ports.stack, method: probe.method, headers: bearer(seed.nested.key), next: () => ({ path: probe.path, body: probe.body }) };
    await measure(target, plan.connections, plan.warmupSeconds);
    const m = await measure(target, plan.connections, plan.seconds * 2);
    const row = result.rows.find((r) => r.label === probe.label);
    Object.assign(row ?? {}, { rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors });
    if (m.errors) result.pass = false;
  }
}
