// One report with its showings and comparables, kept up to date by the report's live events: a showing or
// comparable in an event replaces or joins the page's copy; any other change (a deletion, the report itself), and
// every (re)connection of the stream, reads the report again, so nothing committed while it was down is missed.
import { useEffect, useRef, useState } from "preact/hooks";
import { query, subscribe } from "./api";
import { ReportChangesDocument, ReportDetailDocument as ReportDetail, type ReportChangesSubscription, type ReportDetailQuery } from "./gql/graphql";
import { money } from "./ReportList";

type Report = NonNullable<ReportDetailQuery["report"]>;
type Change = ReportChangesSubscription["reportEvents"];

/** `item` in place of the one with its id, or added at the end (lists are oldest first). */
const upsert = <T extends { id: string }>(items: T[] | null, item: T): T[] => {
  const list = items ?? [];
  return list.some((i) => i.id === item.id) ? list.map((i) => (i.id === item.id ? item : i)) : [...list, item];
};

/** The report with the change's showing or comparable put in place, or the report as it was. */
const applied = (report: Report, change: Change): Report =>
  change.showing
    ? { ...report, showings: upsert(report.showings, change.showing) }
    : change.comparable
      ? { ...report, comparables: upsert(report.comparables, change.comparable) }
      : report;

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC" : "no date");

export function ReportPage({ id }: { id: string }) {
  const [report, setReport] = useState<Report | null>();
  const [error, setError] = useState<string>();
  const [live, setLive] = useState<"connecting" | "live" | "off">("connecting");
  const loads = useRef(0);

  useEffect(() => {
    const load = () => {
      const mine = ++loads.current; // an older read answering late does not replace a newer one
      query(ReportDetail, { id }).then(
        (data) => mine === loads.current && setReport(data.report),
        (e: Error) => setError(e.message),
      );
    };
    load();
    return subscribe(ReportChangesDocument, { reportId: id }, {
      // Read again once the stream is open (a change committed in between is in the answer) and after a reconnection.
      connected: () => {
        setLive("live");
        load();
      },
      next: ({ reportEvents: change }) => {
        if (change.showing || change.comparable) setReport((current) => current && applied(current, change));
        else load();
      },
      ended: () => {
        setLive("off");
        load();
      },
      error: (message) => {
        setLive("off");
        setError(`Live updates stopped: ${message}`);
      },
    });
  }, [id]);

  if (report === null) return <p role="alert">There is no such report. <a href="#/">All reports</a></p>;
  if (!report) return error ? <p role="alert">{error}</p> : <p>Loading…</p>;
  const showings = report.showings ?? [];
  const comparables = report.comparables ?? [];
  return (
    <>
      <p>
        <a href="#/">All reports</a>
      </p>
      <h1>{report.address}</h1>
      <p role="status">{live === "live" ? "Live: changes appear as they are made" : live === "connecting" ? "Connecting…" : "Not live"}</p>
      {error && <p role="alert">{error}</p>}
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
