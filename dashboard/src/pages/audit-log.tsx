// Audit log: who changed the team's keys, webhooks, share links and reports, when, from where, and what changed,
// newest first, filtered by action and by days (in the viewer's zone), a page at a time; each target links to what it
// names (the state in the URL, so Back and reload return to it). The
// actions to filter by are the schema's (auditActions).
import { graphql, client, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { href, navigate } from "../router";
import { ErrorMessage, Loading, Table, useLoad, When } from "../ui";

const PAGE_SIZE = 25;

const ACTIONS = graphql(`
  query AuditActions {
    auditActions
  }
`);

const LOG = graphql(`
  query AuditLog($first: Int, $after: String, $action: String, $from: DateTime, $to: DateTime) {
    auditLog(first: $first, after: $after, action: $action, from: $from, to: $to) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { node { id action actor { type keyName keyPrefix } target { type id } changes ip requestId createdAt } }
    }
  }
`);
type Entry = ResultOf<typeof LOG>["auditLog"]["edges"][number]["node"];

const shown = (value: unknown): string => (value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value));

function Changes({ changes }: { changes: Entry["changes"] }) {
  const fields = Object.entries(changes as unknown as Record<string, { before: unknown; after: unknown }>);
  if (!fields.length) return <>—</>;
  return (
    <ul>
      {fields.map(([field, { before, after }]) => (
        <li key={field}>
          <code>{field}</code>: {shown(before)} → {shown(after)}
        </li>
      ))}
    </ul>
  );
}

/** The target as a link to what it names, where the dashboard shows it (a report, the keys, the webhooks). */
function Target({ type, id }: { type: string; id: string }) {
  const to = type === "report" ? href(["reports", id]) : type === "api_key" ? href(["keys"]) : type === "webhook" ? href(["webhooks"]) : null;
  const words = type.replace(/_/g, " ");
  if (!to) {
    return (
      <>
        {words} <code>{id}</code>
      </>
    );
  }
  return (
    <a href={to}>
      {words} <code>{id}</code>
    </a>
  );
}

/** "api_key.created", "api_key.revoked" … → "api key: created, revoked; …": what the log records, from the schema. */
const recorded = (actions: string[]): string => {
  const groups = new Map<string, string[]>();
  for (const a of actions) {
    const [object, verb] = a.split(".");
    groups.set(object, [...(groups.get(object) ?? []), verb.replace(/_/g, " ")]);
  }
  return [...groups].map(([object, verbs]) => `${object.replace(/_/g, " ")}: ${verbs.join(", ")}`).join("; ");
};

/** yyyy-mm-dd (the viewer's day) → the instant it starts, in the viewer's zone; `next`: the day after's. */
const dayStart = (day: string, next = false): string | null => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
};

const actorOf = (e: Entry) => (e.actor.type === "cli" ? "command line (prs)" : `${e.actor.keyName ?? "a deleted key"} (${e.actor.keyPrefix}…)`);

export function AuditLogPage(props: PageProps) {
  const api = client(props);
  const action = props.params.get("action") ?? "";
  const after = props.params.get("after") ?? "";
  const from = props.params.get("from") ?? "";
  const to = props.params.get("to") ?? "";
  const go = (change: Record<string, string>) => navigate(["audit-log"], { action, from, to, ...change });
  // Loaded once, not with each page: the select keeps its options while a filtered page loads.
  const actions = useLoad(() => api(ACTIONS), []);
  const log = useLoad(() => api(LOG, { first: PAGE_SIZE, after: after || null, action: action || null, from: dayStart(from), to: dayStart(to, true) }), [action, after, from, to]);
  const page = log.data?.auditLog;
  return (
    <>
      <h1>Audit log</h1>
      <p>
        What is recorded (who did it, from which address, what changed; entries cannot be changed or deleted):{" "}
        <span data-testid="recorded">{actions.data ? recorded(actions.data.auditActions) : "…"}</span>. Nothing else is: not reads, nor changes to showings,
        comparables, agent insights or social posts.
      </p>
      {/* Folded while no filter is set: the entries' links are then a few Tabs from the heading, not past 7 date fields. */}
      <details class="filters" open={Boolean(action || from || to)}>
        <summary>Filter by action or day{action || from || to ? " (filtered)" : ""}</summary>
        <form class="row" onSubmit={(e) => e.preventDefault()}>
          <label>
            Action
            <select value={action} onChange={(e) => go({ action: (e.target as HTMLSelectElement).value })}>
              <option value="">All actions</option>
              {(actions.data?.auditActions ?? (action ? [action] : [])).map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </label>
          <label>
            From (your time zone)
            <input type="date" value={from} max={to || undefined} onChange={(e) => go({ from: (e.target as HTMLInputElement).value })} />
          </label>
          <label>
            To (the whole day)
            <input type="date" value={to} min={from || undefined} onChange={(e) => go({ to: (e.target as HTMLInputElement).value })} />
          </label>
        </form>
      </details>
      <section class="card" aria-labelledby="audit-title">
        <h2 id="audit-title">{page ? `${page.totalCount.toLocaleString("en-US")} ${page.totalCount === 1 ? "entry" : "entries"}, newest first` : "Entries"}</h2>
        <ErrorMessage error={log.error} onRetry={log.reload} />
        {!page && !log.error && <Loading what="the audit log" />}
        {page && (
          <>
            <Table label="Audit log entries" columns={["When", "Action", "By", "Target", "Changes", "From"]}>
              {page.edges.map(({ node: e }) => (
                <tr key={e.id} data-entry-id={e.id}>
                  <td>
                    <When iso={e.createdAt} />
                  </td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{actorOf(e)}</td>
                  <td>
                    <Target type={e.target.type} id={e.target.id} />
                  </td>
                  <td class="changes">
                    <Changes changes={e.changes} />
                  </td>
                  <td>
                    {e.ip ?? "—"}
                    {e.requestId && <span class="sub">request {e.requestId}</span>}
                  </td>
                </tr>
              ))}
            </Table>
            <div class="row">
              {after && <a href={href(["audit-log"], { action, from, to })}>Newest entries</a>}
              {page.pageInfo.hasNextPage && <a href={href(["audit-log"], { action, from, to, after: page.pageInfo.endCursor })}>Older entries</a>}
            </div>
          </>
        )}
      </section>
    </>
  );
}
