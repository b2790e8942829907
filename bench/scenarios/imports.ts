// Scenario 6: the social engagement import. Statements per import for 1, 100 and 500 records (read from the
// X-SQL-Statements header of the statement-counting server, as scenario 2), which must be the same number; then
// 500-record re-imports of one report's posts, sustained (each one updates every post: newer metrics_at).
import { bearer, call } from "../http";
import { measure, type Target } from "../load";
import { STATEMENT_COUNT_HEADER } from "../statement-count";
import type { Row, ScenarioContext, ScenarioResult } from "./types";

const SIZES = [1, 100, 500];

/** `n` records of distinct posts, counts read at `at` (the counts grow with it, so every import changes every post). */
const records = (n: number, at: Date) =>
  Array.from({ length: n }, (_, i) => ({
    platform: i % 2 ? "instagram" : "tiktok",
    external_id: `bench-import-${i}`,
    caption: `Post ${i} about the listing`,
    posted_at: "2026-05-01T12:00:00Z",
    likes: 100 + i + (at.getTime() % 100_000),
    comments: i,
    shares: i % 7,
    views: 10_000 + i * 10,
    metrics_at: at.toISOString(),
  }));

const importPath = (reportId: string) => `/v1/reports/${reportId}/social-posts/import`;

/**
 * On the statement-counting server: the fewest statements of three imports of each size (a request can also carry
 * a timed housekeeping write — usage counts, last_used_at — that is not the import's).
 */
export async function importStatements({ seed, ports }: Pick<ScenarioContext, "seed" | "ports">): Promise<ScenarioResult> {
  const { key, reportIds } = seed.writes;
  const rows: Row[] = [];
  const notes: string[] = [];
  const counts: number[] = [];
  // The first authenticated request of a key also writes last_used_at (once a minute); not part of the steady state.
  await call(ports.stack, "/v1/users/me", { key });
  let clock = Date.now();
  for (const n of SIZES) {
    let fewest = Infinity;
    for (let i = 0; i < 3; i++) {
      const res = await call(ports.stack, importPath(reportIds[1] ?? reportIds[0]), { method: "POST", key, body: { posts: records(n, new Date(++clock)) } });
      const body = res.json() as { data?: { failed?: number } };
      if (res.status !== 200 || body.data?.failed !== 0) notes.push(`${n} records: unexpected response ${res.status} ${res.text.slice(0, 200)}`);
      fewest = Math.min(fewest, Number(res.headers.get(STATEMENT_COUNT_HEADER) ?? Infinity));
    }
    counts.push(fewest);
    rows.push({ label: `POST …/social-posts/import, ${n} records`, value: `${fewest} statements` });
  }
  return {
    id: 6,
    title: "Engagement import: statements per import, sustained 500-record imports",
    target: "same statement count for 1 to 500 records; 0 errors",
    measured: counts.every((c) => c === counts[0]) ? `${counts[0]} statements at every size` : `${counts.join(" / ")} statements`,
    pass: counts.every((c) => c === counts[0]) && notes.length === 0,
    rows,
    notes: [...new Set(notes)],
  };
}

/** On the production server: 500-record imports for the writes' duration (each a newer re-import of the same posts). */
export async function importLoad({ seed, ports, plan }: ScenarioContext, result: ScenarioResult): Promise<void> {
  const { key, reportIds } = seed.writes;
  let clock = Date.now();
  let bad = 0;
  const target: Target = {
    port: ports.stack,
    method: "POST",
    headers: bearer(key),
    next: () => ({ path: importPath(reportIds[1] ?? reportIds[0]), body: { posts: records(500, new Date(++clock)) } }),
    onResponse: (status, text) => void (status === 200 && (JSON.parse(text) as { data: { failed: number } }).data.failed === 0 ? 0 : bad++),
  };
  const m = await measure(target, plan.writeConnections, plan.writeSeconds);
  result.rows.push({ label: "POST …/social-posts/import, 500 records, sustained", rps: m.rps, p50: m.p50, p99: m.p99, errors: m.errors + bad, value: `${Math.round(m.rps * 500)} records/s` });
  if (m.errors + bad > 0 || m.ok === 0) result.pass = false;
}
