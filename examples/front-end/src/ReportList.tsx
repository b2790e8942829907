// The team's reports, newest first, a page at a time: "More reports" reads the page after the last one shown (a
// Relay connection's cursor, so reports added meanwhile neither repeat nor push others off).
import { useEffect, useState } from "preact/hooks";
import { query } from "./api";
import { ReportsDocument as Reports, type ReportsQuery } from "./gql/graphql";

const PAGE = 10;

type Connection = ReportsQuery["reportsConnection"];
type Report = Connection["edges"][number]["node"];

export const money = (n: number | null | undefined) => (n == null ? "no price" : `$${n.toLocaleString("en-US")}`);

export function ReportList() {
  const [reports, setReports] = useState<Report[]>([]);
  const [page, setPage] = useState<Omit<Connection, "edges">>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const more = (after: string | null) => {
    setBusy(true);
    query(Reports, { first: PAGE, after }).then(
      ({ reportsConnection: { edges, ...rest } }) => {
        setReports((shown) => [...shown, ...edges.map((e) => e.node)]);
        setPage(rest);
        setBusy(false);
      },
      (e: Error) => setError(e.message),
    );
  };
  useEffect(() => more(null), []);

  return (
    <>
      <h1>Reports</h1>
      {error && <p role="alert">{error}</p>}
      {!page && !error && <p>Loading…</p>}
      {page && (
        <>
          <p>{page.totalCount === 1 ? "1 report" : `${page.totalCount} reports`}</p>
          <ul aria-label="Reports">
            {reports.map((r) => (
              <li key={r.id}>
                <a href={`#/reports/${encodeURIComponent(r.id)}`}>{[r.address, r.city, r.state].filter(Boolean).join(", ")}</a> — {money(r.price)},{" "}
                {r.status}, {r.showingsCount === 1 ? "1 showing" : `${r.showingsCount} showings`}
              </li>
            ))}
          </ul>
          {page.pageInfo.hasNextPage && (
            <button type="button" disabled={busy} onClick={() => more(page.pageInfo.endCursor)}>
              More reports
            </button>
          )}
        </>
      )}
    </>
  );
}
