// Usage: the team's calls this month on its plan, each key's remaining hourly quota and read-cost points (none for a
// revoked key) and its requests over the chosen period (24 hours by hour, 7 days or this month by day), a bar chart per key with each
// bar's total written on it and a table twin of the chart (chart.js; horizontal bars on a phone), and a download
// of the usage export (GET /v1/usage as CSV, the same counts) per hour or per day; and each key's answers per route
// over the period by outcome (GET /v1/usage/routes, also downloadable).
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type Plugin } from "chart.js";
import { useEffect, useRef, useState } from "preact/hooks";
import { client, graphql, restFetch, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { date, ErrorMessage, Loading, messageOf, num, Table, useLoad } from "../ui";

Chart.register(BarController, BarElement, LinearScale, CategoryScale, Legend, Tooltip);

const USAGE = graphql(`
  query Usage($hours: Int!, $from: DateTime!, $monthStart: DateTime!) {
    me { subscription { plan status apiUsage { callsThisMonth resetsAt } } }
    thisMonth: usageByRoute(from: $monthStart) { route total rateLimited }
    apiKeys { id name prefix revokedAt quota { limit remaining resetsAt } points { limit used remaining mode } }
    apiKeyUsage(hours: $hours) { keyId hour count }
    usageByRoute(from: $from) { keyId keyName keyPrefix route succeeded clientErrors rateLimited serverErrors total }
  }
`);
type Usage = ResultOf<typeof USAGE>;

/**
 * A key's read-cost points this hour (docs/api.md "Read cost"): what it spent of its budget while the price is only
 * measured, what it has left once it is enforced.
 */
const pointsText = (p: { limit: number; used: number; remaining: number; mode: string }): string =>
  p.mode === "enforce" ? `${num(p.remaining)} of ${num(p.limit)} left` : `${num(p.used)} of ${num(p.limit)} used (measured, not enforced)`;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The periods the page offers: the last 24 clock hours by hour, the last 7 UTC days and this UTC month by day. */
const PERIODS = {
  day: { label: "24 hours", phrase: "the last 24 hours", title: "Requests per hour, last 24 hours (UTC)", unit: "hour" },
  week: { label: "7 days", phrase: "the last 7 days", title: "Requests per day, last 7 days (UTC)", unit: "day" },
  month: { label: "This month", phrase: "this month", title: "Requests per day, this month (UTC)", unit: "day" },
} as const;
type Period = keyof typeof PERIODS;

const LIGHT = ["#1b5e9e", "#b3261e", "#1e7b34", "#7a4fb3", "#a15c00", "#00727a", "#5d5d5d"];
const DARK = ["#8cc4ff", "#ff9b93", "#7fd68e", "#c9a7ff", "#ffc46b", "#6fd6df", "#c4c4c4"];

/** The buckets of a period: where they start, their length, how many, and the hours to ask the API for. */
function bucketsOf(period: Period, now = Date.now()) {
  const hour = Math.floor(now / HOUR) * HOUR;
  const today = Math.floor(now / DAY) * DAY;
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const start = period === "day" ? hour - 23 * HOUR : period === "week" ? today - 6 * DAY : monthStart;
  const step = period === "day" ? HOUR : DAY;
  const count = period === "day" ? 24 : Math.floor((today - start) / DAY) + 1;
  return { start, step, count, hours: Math.min(744, Math.floor((hour - start) / HOUR) + 1) };
}

/** Each bucket's label and each key's count in each bucket (0 when none). */
function series(usage: Usage, period: Period) {
  const { start, step, count } = bucketsOf(period);
  const labels = Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * step);
    return step === HOUR ? at.toISOString().slice(11, 16) : at.toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  });
  const perKey = new Map<string, number[]>();
  for (const row of usage.apiKeyUsage) {
    const i = Math.floor((new Date(row.hour).getTime() - start) / step);
    if (i < 0 || i >= count) continue;
    const counts = perKey.get(row.keyId) ?? perKey.set(row.keyId, new Array(count).fill(0)).get(row.keyId)!;
    counts[i] += row.count;
  }
  return { labels, perKey };
}

/** Writes each bar's total at its end, so the numbers read without hovering. */
const totalsOnBars: Plugin<"bar"> = {
  id: "totalsOnBars",
  afterDatasetsDraw(chart) {
    const last = chart.getDatasetMeta(chart.data.datasets.length - 1);
    if (!last || chart.data.datasets.length === 0) return;
    const horizontal = chart.options.indexAxis === "y";
    const { ctx } = chart;
    ctx.save();
    ctx.fillStyle = String(Chart.defaults.color);
    ctx.font = "12px system-ui, sans-serif";
    ctx.textAlign = horizontal ? "left" : "center";
    ctx.textBaseline = horizontal ? "middle" : "bottom";
    last.data.forEach((bar, i) => {
      const total = chart.data.datasets.reduce((n, d) => n + Number(d.data[i] ?? 0), 0);
      if (total > 0) ctx.fillText(num(total), horizontal ? bar.x + 4 : bar.x, horizontal ? bar.y : bar.y - 3);
    });
    ctx.restore();
  },
};

const css = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** The chart and its table twin; `twin`: whether the table is open (kept by the page across periods). */
function UsageChart({ usage, period, twin, onTwin }: { usage: Usage; period: Period; twin: boolean; onTwin: (open: boolean) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<"bar"> | null>(null);
  const { labels, perKey } = series(usage, period);
  const keys = usage.apiKeys.filter((k) => perKey.has(k.id));
  const total = [...perKey.values()].reduce((n, c) => n + c.reduce((a, b) => a + b, 0), 0);
  // A phone gets horizontal bars, one line per period, so every number has room.
  const narrow = window.matchMedia("(max-width: 600px)").matches;
  // The canvas takes its colours when drawn: draw again when the system's colour scheme or the width changes.
  const [, redraw] = useState(0);
  useEffect(() => {
    const queries = ["(prefers-color-scheme: dark)", "(max-width: 600px)"].map((q) => window.matchMedia(q));
    const onChange = () => redraw((n) => n + 1);
    queries.forEach((q) => q.addEventListener("change", onChange));
    return () => queries.forEach((q) => q.removeEventListener("change", onChange));
  }, []);
  useEffect(() => {
    const dark = window.matchMedia("(prefers-color-scheme: dark)").matches;
    const colors = dark ? DARK : LIGHT;
    Chart.defaults.color = css("--fg") || "#1a1a1a";
    Chart.defaults.borderColor = css("--line") || "#c9ced6";
    const datasets = keys.map((k, i) => ({ label: `${k.name} (${k.prefix})`, data: perKey.get(k.id)!, backgroundColor: colors[i % colors.length], stack: "keys" }));
    chart.current?.destroy();
    chart.current = new Chart(canvas.current!, {
      type: "bar",
      data: { labels, datasets },
      plugins: [totalsOnBars],
      options: {
        indexAxis: narrow ? "y" : "x",
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        layout: { padding: { top: 16, right: narrow ? 40 : 8 } },
        scales: {
          [narrow ? "x" : "y"]: { stacked: true, beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: `requests per ${PERIODS[period].unit}` } },
          [narrow ? "y" : "x"]: { stacked: true, ticks: { autoSkip: !narrow } },
        },
      },
    });
  });
  useEffect(() => () => chart.current?.destroy(), []);
  const height = narrow ? Math.max(160, labels.length * 22 + 80) : 320;
  return (
    <figure class="chart" data-total={total}>
      <div class="chart-box" style={{ height: `${height}px` }}>
        <canvas ref={canvas} role="img" aria-label={`${PERIODS[period].title}, per key: ${num(total)} requests in all. The table below holds the same numbers.`} />
      </div>
      <figcaption>
        {PERIODS[period].title}, per key: {num(total)} in all.
      </figcaption>
      <details class="twin" open={twin} onToggle={(e) => onTwin((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>The chart's numbers as a table</summary>
        <Table label="Requests per period and key" columns={[PERIODS[period].unit === "hour" ? "Hour (UTC)" : "Day (UTC)", ...keys.map((k) => k.name), "All keys"]}>
          {labels.map((label, i) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {keys.map((k) => (
                <td key={k.id}>{num(perKey.get(k.id)![i])}</td>
              ))}
              <td>{num(keys.reduce((n, k) => n + perKey.get(k.id)![i], 0))}</td>
            </tr>
          ))}
        </Table>
      </details>
    </figure>
  );
}

/** Each key's answers per route over the period, by outcome (what the key's callers met: refusals and 429s too). */
/**
 * The month's calls made by this dashboard (its requests are counted as "… (dashboard)" routes; a refused 429 is no
 * call), so a team can tell them from its integrations' calls.
 */
function ownCallsText(routes: Usage["thisMonth"]): string {
  const own = routes.filter((r) => r.route.endsWith(" (dashboard)")).reduce((n, r) => n + r.total - r.rateLimited, 0);
  return own === 0 ? "None of them by this dashboard." : `${num(own)} of them by this dashboard (its own pages), the rest by the team's integrations.`;
}

function ByRoute({ usage, period }: { usage: Usage; period: Period }) {
  const rows = usage.usageByRoute;
  return (
    <section class="card" aria-labelledby="routes-title">
      <h2 id="routes-title">Answers per route, {PERIODS[period].phrase}</h2>
      {rows.length === 0 ? (
        <p>No requests in this period.</p>
      ) : (
        <Table label="Answers per key and route" columns={["Key", "Route", "Below 400", "4xx", "429", "5xx", "All"]}>
          {rows.map((r) => (
            <tr key={`${r.keyId} ${r.route}`} data-route-key={r.keyId} data-route={r.route}>
              <td>
                {r.keyName} <code>{r.keyPrefix}</code>
              </td>
              <td>
                <code>{r.route}</code>
              </td>
              <td class="succeeded">{num(r.succeeded)}</td>
              <td class="client-errors">{num(r.clientErrors)}</td>
              <td class="rate-limited">{num(r.rateLimited)}</td>
              <td class="server-errors">{num(r.serverErrors)}</td>
              <td>{num(r.total)}</td>
            </tr>
          ))}
        </Table>
      )}
      <p>Below 400 counts 304 revalidations; 429 is a key past its hourly budget (or its read points).</p>
    </section>
  );
}

/** Fetches a usage export of `period` (until now) as CSV with the key (in a header, never a URL) and saves it as a file. */
async function downloadCsv(props: PageProps, granularity: string, period: Period): Promise<void> {
  const to = new Date();
  const from = new Date(bucketsOf(period, to.getTime()).start);
  const byRoute = granularity === "route";
  const query = new URLSearchParams({ format: "csv", ...(byRoute ? {} : { granularity }), from: from.toISOString(), to: to.toISOString() });
  const res = await restFetch(props, `/v1/usage${byRoute ? "/routes" : ""}?${query}`, "Download");
  const url = URL.createObjectURL(await res.blob());
  const link = Object.assign(document.createElement("a"), { href: url, download: `usage-${period}-per-${granularity}-${to.toISOString().slice(0, 10)}.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The usage export of the page's period (one period picker for the whole page), per hour, day or route. */
function Download({ props, period }: { props: PageProps; period: Period }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <section class="card" aria-labelledby="download-title">
      <h2 id="download-title">Download usage, {PERIODS[period].phrase}</h2>
      <form
        class="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget as HTMLFormElement);
          setBusy(true);
          setError(null);
          try {
            await downloadCsv(props, String(data.get("granularity")), period);
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="usage-granularity">Per</label>
        <select id="usage-granularity" name="granularity" defaultValue="hour">
          <option value="hour">hour</option>
          <option value="day">day</option>
          <option value="route">route and outcome</option>
        </select>
        <button type="submit" disabled={busy}>
          Download CSV
        </button>
      </form>
      <p>
        The period chosen above. Per hour or day: one line per key and period with requests (key_id, key_name,
        key_prefix, period_start in UTC, requests). Per route: one line per key and route called (succeeded,
        client_errors, rate_limited, server_errors, total). Up to 90 days at once: <code>GET /v1/usage</code> and{" "}
        <code>GET /v1/usage/routes</code> with <code>from</code> and <code>to</code>.
      </p>
      <ErrorMessage error={error} />
    </section>
  );
}

export function UsagePage(props: PageProps) {
  const api = client(props);
  const [period, setPeriod] = useState<Period>("day");
  const [twin, setTwin] = useState(false);
  const usage = useLoad(
    () => api(USAGE, { hours: bucketsOf(period).hours, from: new Date(bucketsOf(period).start).toISOString(), monthStart: new Date(bucketsOf("month").start).toISOString() }),
    [period],
  );
  const data = usage.data;
  const totals = data ? series(data, period).perKey : new Map<string, number[]>();
  return (
    <>
      <h1>Usage</h1>
      <div class="row">
        <fieldset class="periods">
          <legend>Period</legend>
          {(Object.keys(PERIODS) as Period[]).map((p) => (
            <label key={p} class="check">
              <input type="radio" name="period" value={p} checked={period === p} onChange={() => setPeriod(p)} />
              {PERIODS[p].label}
            </label>
          ))}
        </fieldset>
        <button type="button" onClick={usage.reload}>
          Refresh
        </button>
      </div>
      <ErrorMessage error={usage.error} onRetry={usage.error ? usage.reload : undefined} />
      {!data && !usage.error && <Loading what="usage" />}
      {data && (
        <>
          <section class="card" aria-labelledby="month-title">
            <h2 id="month-title">This month</h2>
            <p class="big" data-testid="calls-this-month">
              {data.me.subscription.apiUsage.callsThisMonth.toLocaleString("en-US")} calls
            </p>
            <p data-testid="dashboard-calls">{ownCallsText(data.thisMonth)}</p>
            <p>
              Plan <strong>{data.me.subscription.plan}</strong> ({data.me.subscription.status}); the count starts again on {date(data.me.subscription.apiUsage.resetsAt)}.
            </p>
          </section>
          <section class="card" aria-labelledby="keys-usage-title">
            <h2 id="keys-usage-title">Keys this hour and over {PERIODS[period].phrase}</h2>
            <Table label="Usage per key" columns={["Key", "Remaining this hour", "Read points this hour", `Requests, ${PERIODS[period].phrase}`]}>
              {data.apiKeys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td>
                    {k.name} <code>{k.prefix}</code>
                    {k.revokedAt && " (revoked)"}
                  </td>
                  <td class="remaining">{k.revokedAt ? "— (revoked: no requests)" : k.quota ? `${num(k.quota.remaining)} of ${num(k.quota.limit)}` : "—"}</td>
                  <td class="points">{k.revokedAt || !k.points ? "—" : pointsText(k.points)}</td>
                  <td class="week">{num((totals.get(k.id) ?? []).reduce((a, b) => a + b, 0))}</td>
                </tr>
              ))}
            </Table>
          </section>
          <section class="card" aria-labelledby="chart-title">
            <h2 id="chart-title">Requests per {PERIODS[period].unit}</h2>
            <UsageChart usage={data} period={period} twin={twin} onTwin={setTwin} />
          </section>
          <ByRoute usage={data} period={period} />
          <Download props={props} period={period} />
        </>
      )}
    </>
  );
}
