// The team's reports, newest first.
import { useEffect, useState } from "preact/hooks";
import { query } from "./api";
import { ReportsDocument as Reports, type ReportsQuery } from "./gql/graphql";

export const money = (n: number | null | undefined) => (n == null ? "no price" : `$${n.toLocaleString("en-US")}`);

export function ReportList() {
  const [reports, setReports] = useState<ReportsQuery["reports"]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    query(Reports, { limit: 50 }).then((data) => setReports(data.reports), (e: Error) => setError(e.message));
  }, []);
  return (
    <>
      <h1>Reports</h1>
      {error && <p role="alert">{error}</p>}
      {!reports && !error && <p>Loading…</p>}
      {reports && (
        <>
          <p>{reports.total === 1 ? "1 report" : `${reports.total} reports`}</p>
          <ul>
            {reports.items.map((r) => (
              <li key={r.id}>
                <a href={`#/reports/${encodeURIComponent(r.id)}`}>{[r.address, r.city, r.state].filter(Boolean).join(", ")}</a> — {money(r.price)},{" "}
                {r.status}, {r.showingsCount === 1 ? "1 showing" : `${r.showingsCount} showings`}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
