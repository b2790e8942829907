// The example front-end: the team's reports, and a report's showings and comparables, from documents registered as
// trusted documents and a key that runs nothing else. Routes are the URL's hash: #/ and #/reports/<id>.
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ReportList } from "./ReportList";
import { ReportPage } from "./ReportPage";
import "./styles.css";

const routeOf = (hash: string) => /^#\/reports\/([^/]+)$/.exec(hash)?.[1];

function App() {
  const [reportId, setReportId] = useState(routeOf(location.hash));
  useEffect(() => {
    const onHash = () => setReportId(routeOf(location.hash));
    addEventListener("hashchange", onHash);
    return () => removeEventListener("hashchange", onHash);
  }, []);
  return reportId ? <ReportPage id={decodeURIComponent(reportId)} /> : <ReportList />;
}

render(<App />, document.getElementById("app")!);
