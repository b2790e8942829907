// One report with its showings and comparables.
import { useCallback, useEffect, useState } from "preact/hooks";
import { query } from "./api";
import { ReportDetailDocument as ReportDetail, type ReportDetailQuery } from "./gql/graphql";
import { money } from "./ReportList";

type Report = NonNullable<ReportDetailQuery["report"]>;

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "no date");

export function ReportPage({ id }: { id: string }) {
  const [report, setReport] = useState<Report>();
  const [error, setError] = useState<string>();
  const load = useCallback(() => query(ReportDetail, { id }).then((data) => setReport(data.report ?? undefined), (e: Error) => setError(e.message)), [id]);
  useEffect(() => void load(), [load]);

  if (error) return <p role="alert">{error}</p>;
  if (!report) return <p>Loading…</p>;
  const showings = report.showings ?? [];
  const comparables = report.comparables ?? [];
  return (
    <>
      <p>
        <a href="#/">All reports</a>
      </p>
      <h1>{report.address}</h1>
      <p>
        {[report.city, report.state].filter(Boolean).join(", ")} — {money(report.price)}, {report.status}
      </p>
      <h2>Showings ({showings.length})</h2>
      <ul aria-label="Showings">
        {showings.map((s) => (
          <li key={s.id}>
            {when(s.showingDate)}: {s.eventType === "open_house" ? "open house" : "showing"}
            {s.attendeeName ? ` with ${s.attendeeName}` : ""}
            {s.rating != null ? `, rated ${s.rating}/5` : ""}
          </li>
        ))}
      </ul>
      <h2>Comparables ({comparables.length})</h2>
      <table aria-label="Comparables">
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Price</th>
            <th scope="col">Square feet</th>
            <th scope="col">Distance</th>
          </tr>
        </thead>
        <tbody>
          {comparables.map((c) => (
            <tr key={c.id}>
              <td>{c.address}</td>
              <td>{money(c.price)}</td>
              <td>{c.sqft ?? "—"}</td>
              <td>{c.distanceMiles == null ? "—" : `${c.distanceMiles} mi`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
