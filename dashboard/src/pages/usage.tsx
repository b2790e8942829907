// Usage: the team's calls this month on its plan, each key's remaining hourly quota and requests in the last
// 7 days, and a chart of requests per hour per key (chart.js; the table beside it holds the same totals).
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from "chart.js";
import { useEffect, useRef } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { date, ErrorMessage, Loading, Table, useLoad } from "../ui";

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

const HOURS = 168;
const USAGE = graphql(`
  query Usage($hours: Int!) {
    me { subscription { plan status apiUsage { callsThisMonth resetsAt } } }
    apiKeys { id name prefix revokedAt quota { limit remaining resetsAt } }
    apiKeyUsage(hours: $hours) { keyId hour count }
  }
`);
type Usage = ResultOf<typeof USAGE>;

const COLORS = ["#1b5e9e", "#b3261e", "#1e7b34", "#7a4fb3", "#a15c00", "#00727a", "#5d5d5d"];

/** The last HOURS clock hours (UTC), oldest first, and each key's count in each of them (0 when none). */
function series(usage: Usage) {
  const now = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  const hours = Array.from({ length: HOURS }, (_, i) => new Date(now - (HOURS - 1 - i) * 3_600_000).toISOString());
  const index = new Map(hours.map((h, i) => [h, i]));
  const perKey = new Map<string, number[]>();
  for (const row of usage.apiKeyUsage) {
    const i = index.get(new Date(row.hour).toISOString());
    if (i === undefined) continue;
    const counts = perKey.get(row.keyId) ?? perKey.set(row.keyId, new Array(HOURS).fill(0)).get(row.keyId)!;
    counts[i] += row.count;
  }
  return { hours, perKey };
}

function UsageChart({ usage }: { usage: Usage }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  const { hours, perKey } = series(usage);
  const keys = usage.apiKeys.filter((k) => perKey.has(k.id));
  const total = [...perKey.values()].reduce((n, c) => n + c.reduce((a, b) => a + b, 0), 0);
  useEffect(() => {
    const labels = hours.map((h) => `${h.slice(5, 10)} ${h.slice(11, 13)}h`);
    const datasets = keys.map((k, i) => ({
      label: `${k.name} (${k.prefix})`,
      data: perKey.get(k.id)!,
      borderColor: COLORS[i % COLORS.length],
      backgroundColor: COLORS[i % COLORS.length],
      pointRadius: 0,
      borderWidth: 2,
      tension: 0,
    }));
    if (!chart.current) {
      chart.current = new Chart(canvas.current!, {
        type: "line",
        data: { labels, datasets },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          interaction: { mode: "index", intersect: false },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: "requests per hour" } }, x: { ticks: { maxTicksLimit: 8 } } },
        },
      });
    } else {
      chart.current.data.labels = labels;
      chart.current.data.datasets = datasets;
      chart.current.update();
    }
  });
  useEffect(() => () => chart.current?.destroy(), []);
  return (
    <figure class="chart" data-total={total}>
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`Requests per hour over the last 7 days, per key: ${total} requests in all`} />
      </div>
      <figcaption>Requests per hour (UTC) over the last 7 days, per key: {total} in all.</figcaption>
    </figure>
  );
}

export function UsagePage(props: PageProps) {
  const api = client(props);
  const usage = useLoad(() => api(USAGE, { hours: HOURS }), []);
  const data = usage.data;
  const totals = data ? series(data).perKey : new Map<string, number[]>();
  return (
    <>
      <h1>Usage</h1>
      <div class="row">
        <button type="button" onClick={usage.reload}>
          Refresh
        </button>
      </div>
      <ErrorMessage error={usage.error} />
      {!data && !usage.error && <Loading what="usage" />}
      {data && (
        <>
          <section class="card" aria-labelledby="month-title">
            <h2 id="month-title">This month</h2>
            <p class="big" data-testid="calls-this-month">
              {data.me.subscription.apiUsage.callsThisMonth.toLocaleString("en-US")} calls
            </p>
            <p>
              Plan <strong>{data.me.subscription.plan}</strong> ({data.me.subscription.status}); the count starts again on {date(data.me.subscription.apiUsage.resetsAt)}.
            </p>
          </section>
          <section class="card" aria-labelledby="keys-usage-title">
            <h2 id="keys-usage-title">Keys this hour and this week</h2>
            <Table label="Usage per key" columns={["Key", "Remaining this hour", "Requests, last 7 days"]}>
              {data.apiKeys.map((k) => (
                <tr key={k.id} data-key-id={k.id}>
                  <td>
                    {k.name} <code>{k.prefix}</code>
                    {k.revokedAt && " (revoked)"}
                  </td>
                  <td>{k.quota ? `${k.quota.remaining.toLocaleString("en-US")} of ${k.quota.limit.toLocaleString("en-US")}` : "—"}</td>
                  <td class="week">{(totals.get(k.id) ?? []).reduce((a, b) => a + b, 0)}</td>
                </tr>
              ))}
            </Table>
          </section>
          <section class="card" aria-labelledby="chart-title">
            <h2 id="chart-title">Requests per hour</h2>
            <UsageChart usage={data} />
          </section>
        </>
      )}
    </>
  );
}
