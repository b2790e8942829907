// Scenario 5: POST /v1/reports and POST /v1/showings at the same time for a sustained period; no errors, and
// afterwards the lists hold exactly as many more rows as there were 201s (every created row is readable).
import { bearer, call } from "../http";
import { measure, type Target } from "../load";
import type { ScenarioContext, ScenarioResult } from "./types";

async function total(port: number, key: string, path: string): Promise<number> {
  const res = await call(port, path, { key });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`);
  return Number(res.json().total);
}

export async function sustainedWrites({ seed, ports, plan }: ScenarioContext): Promise<ScenarioResult> {
  const { key, reportIds } = seed.writes;
  const reportId = reportIds[0];
  const reportsPath = "/v1/reports?limit=1";
  const showingsPath = `/v1/showings?report_id=${reportId}&limit=1`;
  const before = { reports: await total(ports.stack, key, reportsPath), showings: await total(ports.stack, key, showingsPath) };

  const run = `${process.pid}-${Date.now()}`;
  let n = 0;
  const reports: Target = {
    port: ports.stack,
    method: "POST",
    headers: bearer(key),
    next: () => ({
      path: "/v1/reports",
      body: { address: `${++n} Benchmark Blvd`, city: "Austin", state: "TX", zip: "78701", price: 450000, beds: 3, baths: 2.5, sqft: 1800, year_built: 2004, property_type: "Single Family", description: "Created under load." },
    }),
  };
  const showings: Target = {
    port: ports.stack,
    method: "POST",
    headers: bearer(key),
    next: () => ({
      path: "/v1/showings",
      body: { report_id: reportId, showing_date: new Date().toISOString(), attendee_name: "Load Visitor", attendee_email: "visitor@example.com", event_type: "showing", rating: 4, unique_showing_key: `bench-${run}-${++n}` },
    }),
  };
  const [r, s] = await Promise.all([measure(reports, plan.writeConnections, plan.writeSeconds), measure(showings, plan.writeConnections, plan.writeSeconds)]);

  const after = { reports: await total(ports.stack, key, reportsPath), showings: await total(ports.stack, key, showingsPath) };
  const found = { reports: after.reports - before.reports, showings: after.showings - before.showings };
  const countsMatch = found.reports === r.ok && found.showings === s.ok;
  return {
    id: 5,
    title: `POST /v1/reports + POST /v1/showings, ${plan.writeSeconds} s concurrently`,
    target: "0 errors; created rows == 201s",
    measured: `${r.errors + s.errors} errors; ${countsMatch ? "counts match" : "COUNT MISMATCH"}`,
    pass: r.errors + s.errors === 0 && countsMatch && r.ok > 0 && s.ok > 0,
    rows: [
      { label: "POST /v1/reports", rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, value: `${r.ok} created, ${found.reports} found` },
      { label: "POST /v1/showings", rps: s.rps, p50: s.p50, p99: s.p99, errors: s.errors, value: `${s.ok} created, ${found.showings} found` },
    ],
    notes: [],
  };
}
