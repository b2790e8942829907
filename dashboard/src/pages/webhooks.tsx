// Webhooks: the team's endpoints (add or edit one with event types from the catalog, each with its description;
// the secret shown once; enable/disable; rotate the secret and delete, each after a confirmation; send a test event),
// each endpoint's delivery log with redelivery, and the team's recent events.
import { useRef, useState } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { ErrorMessage, Loading, messageOf, Pager, seconds, ShownOnce, Table, useLoad } from "../ui";

const ENDPOINTS = graphql(`
  query Endpoints {
    webhookEndpoints(limit: 100) { total items { id url description events enabled disabledReason createdAt } }
    webhookEventTypes { type description }
  }
`);
const CREATE = graphql(`
  mutation CreateEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) { secret endpoint { id url } }
  }
`);
const UPDATE = graphql(`
  mutation SetEnabled($id: ID!, $enabled: Boolean!) {
    updateWebhookEndpoint(id: $id, input: { enabled: $enabled }) { id enabled disabledReason }
  }
`);
const EDIT = graphql(`
  mutation EditEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(id: $id, input: $input) { id url events description }
  }
`);
const DELETE = graphql(`
  mutation DeleteEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id)
  }
`);
const EVENTS = graphql(`
  query RecentEvents {
    webhookEvents(limit: 20) { total items { id type createdAt } }
  }
`);
const ROTATE = graphql(`
  mutation Rotate($id: ID!) {
    rotateWebhookSecret(id: $id) { secret endpoint { id } }
  }
`);
const TEST = graphql(`
  mutation SendTest($id: ID!) {
    sendTestWebhook(id: $id) { id }
  }
`);
const DELIVERIES = graphql(`
  query Deliveries($endpointId: ID!, $status: String, $eventType: String, $limit: Int!, $offset: Int!) {
    webhookDeliveries(endpointId: $endpointId, status: $status, eventType: $eventType, limit: $limit, offset: $offset) {
      total
      items { id eventId eventType attempt status responseStatus durationMs error createdAt sentAt nextAttemptAt }
    }
  }
`);
/** Delivery attempts per page of the log. */
const LOG_PAGE = 50;
const STATUSES = ["pending", "succeeded", "retrying", "failed"];
const REDELIVER = graphql(`
  mutation Redeliver($endpointId: ID!, $deliveryId: ID!) {
    redeliverWebhook(endpointId: $endpointId, deliveryId: $deliveryId) { id }
  }
`);
type Endpoint = ResultOf<typeof ENDPOINTS>["webhookEndpoints"]["items"][number];
type EventType = { type: string; description: string };

/** A change to confirm before it is made: what the dialog asks, what it warns, and its button. */
interface Confirm {
  title: string;
  text: string;
  action: string;
  run: () => Promise<unknown>;
}

export function WebhooksPage(props: PageProps) {
  const api = client(props);
  const list = useLoad(() => api(ENDPOINTS), []);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  /** Runs an action on an endpoint; its error shows above the list, `done` (if any) in the status line. */
  const act = async (fn: () => Promise<unknown>, done?: string) => {
    try {
      await fn();
      setError(null);
      setStatus(done ?? null);
    } catch (err) {
      setError(messageOf(err));
      setStatus(null);
    }
    list.reload();
  };
  const ask = (c: Confirm) => {
    setConfirm(c);
    dialog.current?.showModal();
    cancel.current?.focus(); // start on Cancel: Enter must not delete or rotate
  };
  const types = list.data?.webhookEventTypes ?? [];

  return (
    <>
      <h1>Webhooks</h1>
      {list.data && (
        <EndpointForm
          props={props}
          types={types}
          onSaved={(url, value) => {
            if (value) setSecret({ label: `Signing secret of ${url}:`, value });
            list.reload();
          }}
        />
      )}
      {secret && <ShownOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      <section class="card" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        <p role="status" class="status">
          {status}
        </p>
        <ErrorMessage error={list.error ?? error} onRetry={list.error ? list.reload : undefined} />
        {!list.data && !list.error && <Loading what="endpoints" />}
        {list.data?.webhookEndpoints.items.length === 0 && <p>No endpoint yet.</p>}
        <ul class="endpoints">
          {list.data?.webhookEndpoints.items.map((e: Endpoint) => (
            <li key={e.id} class="endpoint" data-endpoint-id={e.id}>
              <h3>{e.url}</h3>
              <p>
                {e.enabled ? "Enabled" : `Disabled${e.disabledReason ? ` (${e.disabledReason})` : ""}`} · events: {e.events.join(", ")}
                {e.description && ` · ${e.description}`} · created {seconds(e.createdAt)}
              </p>
              <div class="row">
                <button type="button" class="secondary" aria-expanded={editing === e.id} onClick={() => setEditing(editing === e.id ? null : e.id)}>
                  Edit<span class="sr-only"> {e.url}</span>
                </button>
                <button type="button" class="secondary" onClick={() => act(() => api(UPDATE, { id: e.id, enabled: !e.enabled }))}>
                  {e.enabled ? "Disable" : "Enable"}
                  <span class="sr-only"> {e.url}</span>
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    ask({
                      title: `Rotate the signing secret of ${e.url}?`,
                      text: "A new secret signs every event from now on; the old one keeps signing beside it for 24 hours, time to give the new one to the receiver.",
                      action: "Rotate secret",
                      run: async () => {
                        const { rotateWebhookSecret } = await api(ROTATE, { id: e.id });
                        setSecret({ label: `New signing secret of ${e.url} (the old one keeps signing for 24 hours):`, value: rotateWebhookSecret.secret });
                      },
                    })
                  }
                >
                  Rotate secret<span class="sr-only"> of {e.url}</span>
                </button>
                <button
                  type="button"
                  onClick={() =>
                    act(async () => {
                      await api(TEST, { id: e.id });
                      setOpen(e.id);
                    }, `A webhook.test event is on its way to ${e.url}.`)
                  }
                >
                  Send test event<span class="sr-only"> to {e.url}</span>
                </button>
                <button type="button" class="secondary" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  {open === e.id ? "Hide deliveries" : "Show deliveries"}
                  <span class="sr-only"> of {e.url}</span>
                </button>
                <button
                  type="button"
                  class="danger"
                  onClick={() =>
                    ask({
                      title: `Delete the endpoint ${e.url}?`,
                      text: "No more events are sent to it, and its delivery log goes with it. This cannot be undone.",
                      action: "Delete endpoint",
                      run: () => api(DELETE, { id: e.id }),
                    })
                  }
                >
                  Delete<span class="sr-only"> {e.url}</span>
                </button>
              </div>
              {editing === e.id && (
                <EndpointForm
                  props={props}
                  types={types}
                  endpoint={e}
                  onSaved={() => {
                    setEditing(null);
                    setStatus(`Saved the changes to ${e.url}.`);
                    list.reload();
                  }}
                />
              )}
              {open === e.id && <Deliveries props={props} endpointId={e.id} types={types} />}
            </li>
          ))}
        </ul>
      </section>
      {list.data && <RecentEvents props={props} />}
      <dialog ref={dialog} aria-labelledby="confirm-title" onClose={() => setConfirm(null)}>
        <h2 id="confirm-title">{confirm?.title}</h2>
        <p>{confirm?.text}</p>
        <form method="dialog" class="row">
          <button type="submit" class="secondary" ref={cancel}>
            Cancel
          </button>
          <button
            type="button"
            class="danger"
            onClick={() => {
              const c = confirm;
              dialog.current?.close();
              if (c) void act(c.run, c.action === "Delete endpoint" ? "The endpoint is deleted." : undefined);
            }}
          >
            {confirm?.action}
          </button>
        </form>
      </dialog>
    </>
  );
}

/** Adds an endpoint, or with `endpoint` edits its URL, events and description. Each event type shows its description. */
function EndpointForm({ props, types, endpoint, onSaved }: { props: PageProps; types: EventType[]; endpoint?: Endpoint; onSaved: (url: string, secret?: string) => void }) {
  const api = client(props);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = endpoint ? `edit-${endpoint.id}` : "create-endpoint";
  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const input = { url: String(data.get("url")), description: String(data.get("description") ?? "") || null, events: data.getAll("event").map(String) };
    if (input.events.length === 0) return setError("Tick at least one event type (or every event).");
    setBusy(true);
    try {
      if (endpoint) {
        await api(EDIT, { id: endpoint.id, input });
        onSaved(input.url);
      } else {
        const { createWebhookEndpoint } = await api(CREATE, { input });
        form.reset();
        onSaved(createWebhookEndpoint.endpoint.url, createWebhookEndpoint.secret);
      }
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const fields = (
    <form onSubmit={onSubmit}>
      <div class="fields">
        <label>
          URL
          <input name="url" type="url" required maxLength={2000} placeholder="https://example.com/webhooks" defaultValue={endpoint?.url} />
        </label>
        <label>
          Description (optional)
          <input name="description" maxLength={1000} defaultValue={endpoint?.description ?? ""} />
        </label>
      </div>
      <fieldset>
        <legend>Events</legend>
        <div class="event-grid">
          <label class="check">
            <input type="checkbox" name="event" value="*" defaultChecked={endpoint?.events.includes("*")} />
            <span>
              every event (*)
              <small>Every type below, and any added later.</small>
            </span>
          </label>
          {types.map((t) => (
            <label key={t.type} class="check">
              <input type="checkbox" name="event" value={t.type} defaultChecked={endpoint?.events.includes(t.type)} />
              <span>
                {t.type}
                <small>{t.description}</small>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" disabled={busy}>
        {endpoint ? "Save changes" : "Add endpoint"}
      </button>
      <ErrorMessage error={error} />
    </form>
  );
  return endpoint ? (
    <div class="edit" aria-label={`Edit ${endpoint.url}`} role="group" id={id}>
      {fields}
    </div>
  ) : (
    <section class="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      {fields}
    </section>
  );
}

/** The team's latest events (kept 30 days): what happened, whatever endpoint it went to. */
function RecentEvents({ props }: { props: PageProps }) {
  const api = client(props);
  const events = useLoad(() => api(EVENTS), []);
  const page = events.data?.webhookEvents;
  return (
    <section class="card" aria-labelledby="events-title">
      <div class="row">
        <h2 id="events-title">Recent events</h2>
        <button type="button" class="secondary" onClick={events.reload}>
          Refresh events
        </button>
      </div>
      <ErrorMessage error={events.error} onRetry={events.error ? events.reload : undefined} />
      {page?.items.length === 0 && <p>No event in the last 30 days.</p>}
      {page && page.items.length > 0 && (
        <>
          <p>
            The latest {page.items.length} of {page.total.toLocaleString("en-US")} in the last 30 days.
          </p>
          <Table label="Recent events table" columns={["When", "Type", "Event id"]}>
            {page.items.map((ev) => (
              <tr key={ev.id} class="event">
                <td>{seconds(ev.createdAt)}</td>
                <td>{ev.type}</td>
                <td>
                  <code>{ev.id}</code>
                </td>
              </tr>
            ))}
          </Table>
        </>
      )}
    </section>
  );
}

function Deliveries({ props, endpointId, types }: { props: PageProps; endpointId: string; types: { type: string }[] }) {
  const api = client(props);
  const [status, setStatus] = useState("");
  const [eventType, setEventType] = useState("");
  const [offset, setOffset] = useState(0);
  const log = useLoad(
    () => api(DELIVERIES, { endpointId, status: status || null, eventType: eventType || null, limit: LOG_PAGE, offset }),
    [endpointId, status, eventType, offset],
  );
  const [error, setError] = useState<string | null>(null);
  const page = log.data?.webhookDeliveries;
  const filter = (set: (v: string) => void) => (e: Event) => (set((e.target as HTMLSelectElement).value), setOffset(0));
  return (
    <div class="deliveries">
      <div class="row">
        <h4>Delivery log</h4>
        <label class="inline">
          Status
          <select value={status} onChange={filter(setStatus)}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label class="inline">
          Event type
          <select value={eventType} onChange={filter(setEventType)}>
            <option value="">any</option>
            {types.map((t) => (
              <option key={t.type} value={t.type}>
                {t.type}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="secondary" onClick={log.reload}>
          Refresh log
        </button>
      </div>
      <ErrorMessage error={log.error ?? error} onRetry={log.error ? log.reload : undefined} />
      {page?.items.length === 0 && <p>{status || eventType ? "No delivery matches." : "No delivery yet."}</p>}
      {page && page.items.length > 0 && (
        <>
          <Table label="Delivery log" columns={["Event", "Status", "Response", "Duration", "Attempt", "Sent", "Next retry", ""]}>
            {page.items.map((d) => (
              <tr key={d.id} class="delivery" data-status={d.status}>
                <td>
                  {d.eventType} <code>{d.eventId}</code>
                </td>
                <td>{d.status}</td>
                <td>{d.responseStatus ?? d.error ?? "—"}</td>
                <td>{d.durationMs == null ? "—" : `${d.durationMs} ms`}</td>
                <td>{d.attempt}</td>
                <td class="sent">{d.sentAt ? seconds(d.sentAt) : `not yet (scheduled ${seconds(d.createdAt)})`}</td>
                <td>{seconds(d.nextAttemptAt)}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Redeliver ${d.eventType} attempt ${d.attempt}`}
                    onClick={async () => {
                      try {
                        await api(REDELIVER, { endpointId, deliveryId: d.id });
                        setError(null);
                      } catch (err) {
                        setError(messageOf(err));
                      }
                      log.reload();
                    }}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </Table>
          <Pager offset={offset} size={LOG_PAGE} total={page.total} onPage={setOffset} label="Delivery log pages" />
        </>
      )}
    </div>
  );
}
