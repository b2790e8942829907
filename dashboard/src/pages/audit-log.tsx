// Audit log: who changed the team's keys, webhooks, share links and reports, when, from where, and what changed,
// newest first, filtered by action, a page at a time (the state in the URL, so Back and reload return to it). The
// actions to filter by are the schema's (auditActions).
import { graphql, client, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { href, navigate } from "../router";
import { date, ErrorMessage, Loading, Table, useLoad } from "../ui";

const PAGE_SIZE = 25;

const ACTIONS = graphql(`
  query AuditActions {
    auditActions
  }
`);

const LOG = graphql(`
  query AuditLog($first: Int, $after: String, $action: String) {
    auditLog(first: $first, after: $after, action: $action) {
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

const actorOf = (e: Entry) => (e.actor.type === "cli" ? "command line (prs)" : `${e.actor.keyName ?? "a deleted key"} (${e.actor.keyPrefix}…)`);

export function AuditLogPage(props: PageProps) {
  const api = client(props);
  const action = props.params.get("action") ?? "";
  const after = props.params.get("after") ?? "";
  // Loaded once, not with each page: the select keeps its options while a filtered page loads.
  const actions = useLoad(() => api(ACTIONS), []);
  const log = useLoad(() => api(LOG, { first: PAGE_SIZE, after: after || null, action: action || null }), [action, after]);
  const page = log.data?.auditLog;
  return (
    <>
      <h1>Audit log</h1>
      <p>Every change to the team's keys, webhooks, share links, trusted documents and reports (created, updated, published, deleted, summary saved): who made it, from where, and what changed. Entries cannot be changed or deleted.</p>
      <form class="row" onSubmit={(e) => e.preventDefault()}>
        <label>
          Action
          <select value={action} onChange={(e) => navigate(["audit-log"], { action: (e.target as HTMLSelectElement).value })}>
            <option value="">All actions</option>
            {(actions.data?.auditActions ?? (action ? [action] : [])).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
      </form>
      <section class="card" aria-labelledby="audit-title">
        <h2 id="audit-title">{page ? `${page.totalCount.toLocaleString("en-US")} ${page.totalCount === 1 ? "entry" : "entries"}, newest first` : "Entries"}</h2>
        <ErrorMessage error={log.error} onRetry={log.reload} />
        {!page && !log.error && <Loading what="the audit log" />}
        {page && (
          <>
            <Table label="Audit log entries" columns={["When", "Action", "By", "Target", "Changes", "From"]}>
              {page.edges.map(({ node: e }) => (
                <tr key={e.id} data-entry-id={e.id}>
                  <td>{date(e.createdAt)}</td>
                  <td>
                    <code>{e.action}</code>
                  </td>
                  <td>{actorOf(e)}</td>
                  <td>
                    {e.target.type} <code>{e.target.id}</code>
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
              {after && <a href={href(["audit-log"], { action })}>Newest entries</a>}
              {page.pageInfo.hasNextPage && <a href={href(["audit-log"], { action, after: page.pageInfo.endCursor })}>Older entries</a>}
            </div>
          </>
        )}
      </section>
    </>
  );
}
