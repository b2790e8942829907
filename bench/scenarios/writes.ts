// Scenario 5: POST /v1/reports and POST /v1/showings at the same time for a sustained period. Passes when no
// request failed and every row answered with a 201 is listed afterwards. The lists may hold a few more rows than
// 201s counted: requests in flight when the load generator stops are written but their answers are not read.
import { bearer, call } from "../http";
import { measure, type Target } from "../load";
import type { ScenarioContext, ScenarioResult } from "./types";

/** Every id of a paged list (limit 100). */
async function listIds(port: number, key: string, path: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (let offset = 0; ; offset += 100) {
    const res = await call(port, `${path}${path.includes("?") ? "&" : "?"}limit=100&offset=${offset}`, { key });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`);
    const body = res.json() as { data: { id: string }[]; total: number };
    for (const item of body.data) ids.add(item.id);
    if (offset + 100 >= body.total) return ids;
  }
}

/** A POST target that records the id of every row it was told was created. */
function creating(port: number, key: string, path: string, body: () => unknown): Target & { created: string[] } {
  const created: string[] = [];
  return {
    port,
    method: "POST",
    headers: bearer(key),
    next: () => ({ path, body: body() }),
    onResponse: (status, text) => void (status === 201 && created.push((JSON.parse(text) as { data: { id: string } }).data.id)),
    created,
  };
}

export async function sustainedWrites({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const { key, reportIds } = seed.writes;
  const reportId = reportIds[0];
  const showingsPath = `/v1/showings?report_id=${reportId}`;
  const before = { reports: (await listIds(ports.stack, key, "/v1/reports")).size, showings: (await listIds(ports.stack, key, showingsPath)).size };

  const run = `${process.pid}-${Date.now()}`;
  let n = 0;
  const reports = creating(ports.stack, key, "/v1/reports", () => ({
    address: `${++n} Benchmark Blvd`, city: "Austin", state: "TX", zip: "78701", price: 450000, beds: 3, baths: 2.5, sqft: 1800,
    year_built: 2004, property_type: "Single Family", description: "Created under load.",
  }));
  const showings = creating(ports.stack, key, "/v1/showings", () => ({
    report_id: reportId, showing_date: new Date().toISOString(), attendee_name: "Load Visitor", attendee_email: "visitor@example.com",
    event_type: "showing", rating: 4, unique_showing_key: `bench-${run}-${++n}`,
  }));
  const [r, s] = await Promise.all([measure(reports, plan.writeConnections, plan.writeSeconds), measure(showings, plan.writeConnections, plan.writeSeconds)]);

  const listed = { reports: await listIds(ports.stack, key, "/v1/reports"), showings: await listIds(ports.stack, key, showingsPath) };
  const missing = { reports: reports.created.filter((id) => !listed.reports.has(id)).length, showings: showings.created.filter((id) => !listed.showings.has(id)).length };
  const inFlight = { reports: listed.reports.size - before.reports - reports.created.length, showings: listed.showings.size - before.showings - showings.created.length };
  const countsOk = (["reports", "showings"] as const).every((k) => missing[k] === 0 && inFlight[k] >= 0 && inFlight[k] <= plan.writeConnections);
  const value = (k: "reports" | "showings", created: number) => `${created} × 201, ${missing[k]} missing, +${inFlight[k]} in flight at stop`;
  return {
    id: 5,
    title: `POST /v1/reports + POST /v1/showings, ${plan.writeSeconds} s concurrently`,
    target: "0 errors; every 201 row listed",
    measured: `${r.errors + s.errors} errors, ${missing.reports + missing.showings} missing`,
    pass: r.errors + s.errors === 0 && countsOk && r.ok > 0 && s.ok > 0,
    rows: [
      { label: "POST /v1/reports", rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, value: value("reports", reports.created.length) },
      { label: "POST /v1/showings", rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors, value: value("showings", showings.created.length) },
    ],
    notes: [],
  };
}
