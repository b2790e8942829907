// Webhooks: the team's endpoints (add or edit one with event types from the catalog, each with its description;
// the secret shown once; enable/disable; rotate the secret and delete, each after a confirmation; send a test event),
// each endpoint's delivery log with redelivery, and the team's recent events.
import type { ComponentChildren, RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import { useTeamEvents } from "../live";
import type { PageProps } from "../page";
import { href } from "../router";
import { ErrorMessage, Loading, messageOf, Pager, seconds, ShownOnce, Table, useLoad, When, whenClosed } from "../ui";

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
  query EventDeliveries($endpointId: ID!, $state: String, $eventType: String, $limit: Int!, $offset: Int!) {
    webhookEventDeliveries(endpointId: $endpointId, state: $state, eventType: $eventType, limit: $limit, offset: $offset) {
      total
      items {
        state
        nextAttemptAt
        event { id type createdAt }
        attempts { id attempt status responseStatus durationMs error createdAt sentAt nextAttemptAt }
      }
    }
  }
`);
/** Events per page of the log. */
const LOG_PAGE = 20;
/** Where an event stands at the endpoint (the API's states), as the filter offers them. */
const STATES = ["pending", "retrying", "delivered", "failed"];
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
  const createDialog = useRef<HTMLDialogElement>(null);
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
      <div class="row page-head">
        <h1>Webhooks</h1>
        <button type="button" disabled={!list.data} onClick={() => createDialog.current?.showModal()}>
          Add an endpoint
        </button>
      </div>
      <dialog ref={createDialog} class="wide" aria-labelledby="create-endpoint-title">
        {list.data && (
          <EndpointForm
            props={props}
            types={types}
            onCancel={() => createDialog.current?.close()}
            onSaved={(url, value) => {
              createDialog.current?.close();
              if (value) setSecret({ label: `Signing secret of ${url}:`, value });
              list.reload();
            }}
          />
        )}
      </dialog>
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
              <EndpointActions
                props={props}
                e={e}
                editing={editing === e.id}
                onEdit={() => setEditing(editing === e.id ? null : e.id)}
                open={open === e.id}
                onOpen={(on) => setOpen(on ? e.id : null)}
                act={act}
                ask={ask}
                onSecret={setSecret}
              />
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
      <ConfirmDialog
        dialog={dialog}
        cancel={cancel}
        confirm={confirm}
        onClose={() => setConfirm(null)}
        onConfirm={(c) => void act(c.run, c.action === "Delete endpoint" ? "The endpoint is deleted." : undefined)}
      />
    </>
  );
}

/** An endpoint's buttons: edit, enable or disable, rotate its secret, send a test event, its deliveries, delete. */
function EndpointActions({
  props,
  e,
  editing,
  onEdit,
  open,
  onOpen,
  act,
  ask,
  onSecret,
}: {
  props: PageProps;
  e: Endpoint;
  editing: boolean;
  onEdit: () => void;
  open: boolean;
  onOpen: (on: boolean) => void;
  act: (fn: () => Promise<unknown>, done?: string) => Promise<void>;
  ask: (c: Confirm) => void;
  onSecret: (secret: { label: string; value: string }) => void;
}) {
  const api = client(props);
  return (
    <div class="row">
      <button type="button" class="secondary" aria-expanded={editing} onClick={onEdit}>
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
              onSecret({ label: `New signing secret of ${e.url} (the old one keeps signing for 24 hours):`, value: rotateWebhookSecret.secret });
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
            onOpen(true);
          }, `A webhook.test event is on its way to ${e.url}.`)
        }
      >
        Send test event<span class="sr-only"> to {e.url}</span>
      </button>
      <button type="button" class="secondary" aria-expanded={open} onClick={() => onOpen(!open)}>
        {open ? "Hide deliveries" : "Show deliveries"}
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
  );
}

/** Asks before a change that cannot be taken back (rotate, delete); it opens on Cancel. */
function ConfirmDialog({
  dialog,
  cancel,
  confirm,
  onClose,
  onConfirm,
}: {
  dialog: RefObject<HTMLDialogElement>;
  cancel: RefObject<HTMLButtonElement>;
  confirm: Confirm | null;
  onClose: () => void;
  onConfirm: (c: Confirm) => void;
}) {
  return (
    <dialog ref={dialog} aria-labelledby="confirm-title" onClose={whenClosed(onClose)}>
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
            if (c) onConfirm(c);
          }}
        >
          {confirm?.action}
        </button>
      </form>
    </dialog>
  );
}

/** Adds an endpoint, or with `endpoint` edits its URL, events and description. Each event type shows its description. */
function EndpointForm({
  props,
  types,
  endpoint,
  onSaved,
  onCancel,
}: {
  props: PageProps;
  types: EventType[];
  endpoint?: Endpoint;
  onSaved: (url: string, secret?: string) => void;
  onCancel?: () => void;
}) {
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
      <ErrorMessage error={error} />
      <div class="row">
        {onCancel && (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" disabled={busy}>
          {endpoint ? "Save changes" : "Add endpoint"}
        </button>
      </div>
    </form>
  );
  return endpoint ? (
    <div class="edit" aria-label={`Edit ${endpoint.url}`} role="group" id={id}>
      {fields}
    </div>
  ) : (
    <>
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      {fields}
    </>
  );
}

/** The team's latest events (kept 30 days): what happened, whatever endpoint it went to. */
function RecentEvents({ props }: { props: PageProps }) {
  const api = client(props);
  const events = useLoad(() => api(EVENTS), []);
  useTeamEvents(props.apiKey, () => events.reload());
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
                <td>
                  <When iso={ev.createdAt} precise />
                </td>
                <td>
                  <a href={href(["webhooks", "events", ev.id])}>{ev.type}</a>
                </td>
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

const EVENT = graphql(`
  query EventDetail($id: ID!) {
    webhookEvent(id: $id) {
      id type createdAt data
      deliveries {
        endpointId state nextAttemptAt
        event { id type createdAt }
        attempts { id attempt status responseStatus durationMs error createdAt sentAt nextAttemptAt requestHeaders responseBody }
      }
    }
    webhookEndpoints(limit: 100) { items { id url enabled } }
    crmDestinations(limit: 100) { items { id kind url } }
  }
`);

/** How a CRM destination is named where an event's deliveries are listed (it has no page of its own here). */
const crmName = (d: { kind: string; url: string }) => (d.kind === "follow_up_boss" ? "Follow Up Boss (CRM destination)" : `${d.url} (CRM destination)`);

/**
 * One event (#/webhooks/events/<id>): its payload as the receivers get it, and its delivery to each endpoint with
 * every attempt; Redeliver from there (asking first when that endpoint already received it).
 */
export function EventPage(props: PageProps & { id: string }) {
  const api = client(props);
  const found = useLoad(() => api(EVENT, { id: props.id }), [props.id]);
  const redelivery = useRedelivery(props, found.reload);
  const ev = found.data?.webhookEvent;
  const urls = new Map(found.data?.webhookEndpoints.items.map((e) => [e.id, e.url]) ?? []);
  const crm = new Map(found.data?.crmDestinations.items.map((d) => [d.id, crmName(d)]) ?? []);
  useReloadOnEvents(props.apiKey, found.reload);
  useReloadWhenDue(ev?.deliveries, found.reload);
  return (
    <>
      <p>
        <a href={href(["webhooks"])}>← Webhooks</a>
      </p>
      <h1>Event {ev ? ev.type : props.id}</h1>
      <ErrorMessage error={found.error ?? redelivery.error} onRetry={found.error ? found.reload : undefined} />
      {!found.data && !found.error && <Loading what="the event" />}
      <p role="status" class="status">
        {redelivery.done}
      </p>
      {ev && (
        <>
          <dl class="facts">
            <dt>Id (webhook-id)</dt>
            <dd>
              <code>{ev.id}</code>
            </dd>
            <dt>Happened</dt>
            <dd>
              <When iso={ev.createdAt} precise />
            </dd>
          </dl>
          <section class="card" aria-labelledby="deliveries-title">
            <h2 id="deliveries-title">Deliveries</h2>
            {ev.deliveries.length === 0 && <p>No endpoint was sent this event (none subscribed to {ev.type} when it happened).</p>}
            {ev.deliveries.length > 0 && (
              <Table label="Deliveries of this event" columns={["Sent to", "State", "Attempts", ""]}>
                {ev.deliveries.map((d) => {
                  // A CRM destination's attempts are redelivered from its own log (docs/api.md "CRM destinations").
                  const url = urls.get(d.endpointId) ?? crm.get(d.endpointId) ?? "a deleted endpoint";
                  const again = { question: `Send this event to ${url} again?`, done: `The event is being sent to ${url} again.` };
                  return (
                    <DeliveryRow
                      key={d.endpointId}
                      d={d}
                      label={`Redeliver to ${url}`}
                      onRedeliver={urls.has(d.endpointId) ? () => redelivery.redeliver(d.endpointId, d, again) : undefined}
                    >
                      <td data-label="Sent to">
                        <code>{url}</code>
                      </td>
                    </DeliveryRow>
                  );
                })}
              </Table>
            )}
          </section>
          <AttemptsSent deliveries={ev.deliveries} nameOf={(id) => urls.get(id) ?? crm.get(id) ?? "a deleted endpoint"} />
          <section class="card" aria-labelledby="payload-title">
            <h2 id="payload-title">Payload</h2>
            <p class="hint">The body each endpoint receives (its data is the object as it was when the event happened).</p>
            <pre class="payload" tabIndex={0} aria-label="Payload">
              {JSON.stringify({ id: ev.id, type: ev.type, timestamp: ev.createdAt, data: ev.data }, null, 2)}
            </pre>
          </section>
        </>
      )}
      <RedeliverDialog id="event-redeliver-title" redelivery={redelivery} />
    </>
  );
}

type SentAttempt = NonNullable<ResultOf<typeof EVENT>["webhookEvent"]>["deliveries"][number]["attempts"][number];

/**
 * What each attempt of an event sent (its headers, an Authorization redacted) and what came back (status and the first
 * KiB of the body), one disclosure per attempt, below the deliveries so that their rows' actions stay a few Tabs away.
 */
function AttemptsSent({ deliveries, nameOf }: { deliveries: { endpointId: string; attempts: SentAttempt[] }[]; nameOf: (endpointId: string) => string }) {
  const sent = deliveries.flatMap((d) => d.attempts.filter((a) => a.requestHeaders || a.error).map((a) => ({ a, to: nameOf(d.endpointId) })));
  if (sent.length === 0) return null;
  return (
    <section class="card" aria-labelledby="attempts-title">
      <h2 id="attempts-title">Requests and answers</h2>
      {sent.map(({ a, to }) => (
        <details key={a.id} class="attempt-detail">
          <summary>
            #{a.attempt} to <code>{to}</code> · {a.responseStatus != null ? `HTTP ${a.responseStatus}` : (a.error ?? a.status)}
          </summary>
          <h3>Request headers</h3>
          {a.requestHeaders ? (
            <dl class="headers">
              {Object.entries(a.requestHeaders as Record<string, unknown>).map(([name, value]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>
                    <code>{String(value)}</code>
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <p>Nothing was sent.</p>
          )}
          <h3>Answer</h3>
          {a.responseBody ? (
            <pre class="payload answer" tabIndex={0} aria-label={`Answer to attempt ${a.attempt}`}>
              {a.responseBody}
            </pre>
          ) : (
            <p>{a.responseStatus != null ? "An empty body." : "No answer."}</p>
          )}
        </details>
      ))}
    </section>
  );
}

type EventDelivery = ResultOf<typeof DELIVERIES>["webhookEventDeliveries"]["items"][number];
type Attempt = EventDelivery["attempts"][number];

/** Where an event stands, in words: "Delivered", "Retrying at 12:09:25 PM", "Failed", "Sending". */
function StateText({ d }: { d: Pick<EventDelivery, "state" | "nextAttemptAt"> }) {
  if (d.state === "delivered") return <>Delivered</>;
  if (d.state === "failed") return <>Failed</>;
  const label = d.state === "retrying" ? "Retrying at" : "Sending at";
  return (
    <>
      {label} <When iso={d.nextAttemptAt} precise />
    </>
  );
}

/** One attempt in a line: "#2 succeeded · 200 · 31 ms · sent 12:04:30 PM". */
function AttemptLine({ a }: { a: Attempt }) {
  const outcome = a.status === "pending" ? "waiting" : a.status === "retrying" ? "failed, retried" : a.status;
  return (
    <li class="attempt" data-status={a.status}>
      #{a.attempt} {outcome}
      {a.responseStatus != null && ` · HTTP ${a.responseStatus}`}
      {a.error && a.responseStatus == null && ` · ${a.error}`}
      {a.durationMs != null && ` · ${a.durationMs} ms`}
      {" · "}
      {a.sentAt ? (
        <>
          sent <When iso={a.sentAt} precise />
        </>
      ) : (
        <>
          due <When iso={a.nextAttemptAt ?? a.createdAt} precise />
        </>
      )}
    </li>
  );
}

/** A delivery as a table row: the first cell (`children`, what was sent or where), its state, its attempts, Redeliver. */
function DeliveryRow({ d, label, onRedeliver, children }: { d: Pick<EventDelivery, "state" | "nextAttemptAt"> & { attempts: Attempt[] }; label: string; onRedeliver?: () => void; children: ComponentChildren }) {
  return (
    <tr class="delivery" data-state={d.state}>
      {children}
      <td data-label="State" class="state">
        <StateText d={d} />
      </td>
      <td data-label="Attempts">
        <ol class="attempts">
          {d.attempts.map((a) => (
            <AttemptLine key={a.id} a={a} />
          ))}
        </ol>
      </td>
      <td class="actions">
        {onRedeliver && (
          <button type="button" class="secondary" aria-label={label} onClick={onRedeliver}>
            Redeliver
          </button>
        )}
      </td>
    </tr>
  );
}

/** How often an attempt that is being sent (due, claimed by a worker, outcome not yet written) is read again (ms). */
const SENDING_RELOAD_MS = 2_000;

/**
 * Keeps a list of deliveries current between the team's live events (a retry's outcome is no live event of the
 * team): while an attempt waits, reads again once it is due; while one is being sent, every SENDING_RELOAD_MS.
 */
function useReloadWhenDue(deliveries: Pick<EventDelivery, "nextAttemptAt" | "state">[] | undefined, reload: () => void) {
  const open = deliveries?.filter((d) => d.state === "pending" || d.state === "retrying") ?? [];
  const due = open.map((d) => (d.nextAttemptAt ? Date.parse(d.nextAttemptAt) : Date.now())).reduce((a, b) => Math.min(a, b), Infinity);
  useEffect(() => {
    if (due === Infinity) return;
    const timer = setTimeout(reload, Math.min(Math.max(due - Date.now() + 500, SENDING_RELOAD_MS), 15_000));
    return () => clearTimeout(timer);
  }, [due, deliveries]);
}

/**
 * Reads again on each of the team's live events, and once more FAN_OUT_MS later: a change records its event in its
 * own transaction, and the delivery worker makes the event's deliveries just after, so the first read can come
 * before them.
 */
function useReloadOnEvents(apiKey: string, reload: () => void) {
  const later = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(later.current), []);
  useTeamEvents(apiKey, () => {
    reload();
    clearTimeout(later.current);
    later.current = setTimeout(reload, FAN_OUT_MS);
  });
}
/** See useReloadOnEvents (ms). */
const FAN_OUT_MS = 1_500;

/** What one Redeliver sends again (the delivery's last attempt) and its words: the dialog's question, the status line. */
interface Redelivery {
  endpointId: string;
  attemptId: string;
  question: string;
  done: string;
}

/**
 * Redeliver for the delivery log and the event page: sends a delivery's last attempt again at once, or, when the
 * endpoint already received the event, after asking in `RedeliverDialog` (the receiver would get it twice); says
 * what happened in `done` or `error` and reads again.
 */
function useRedelivery(props: PageProps, reload: () => void) {
  const api = client(props);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [asking, setAsking] = useState<Redelivery | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const send = async (r: Redelivery) => {
    try {
      await api(REDELIVER, { endpointId: r.endpointId, deliveryId: r.attemptId });
      setError(null);
      setDone(r.done);
    } catch (err) {
      setError(messageOf(err));
      setDone(null);
    }
    reload();
  };
  const redeliver = (endpointId: string, d: Pick<EventDelivery, "state"> & { attempts: { id: string }[] }, words: Pick<Redelivery, "question" | "done">) => {
    const r = { endpointId, attemptId: d.attempts[d.attempts.length - 1].id, ...words };
    if (d.state !== "delivered") return void send(r);
    setAsking(r);
    dialog.current?.showModal();
  };
  const confirm = () => {
    const r = asking;
    dialog.current?.close();
    if (r) void send(r);
  };
  return { error, done, redeliver, asking, dialog, confirm, cancel: () => setAsking(null) };
}

/** Asks before sending an event again to an endpoint that already received it; it opens on Cancel. */
function RedeliverDialog({ id, redelivery }: { id: string; redelivery: ReturnType<typeof useRedelivery> }) {
  return (
    <dialog ref={redelivery.dialog} aria-labelledby={id} onClose={whenClosed(redelivery.cancel)}>
      <h2 id={id}>{redelivery.asking?.question}</h2>
      <p>The endpoint already received this event: the receiver gets it a second time, with the same webhook-id.</p>
      <form method="dialog" class="row">
        <button type="submit" class="secondary" autoFocus>
          Cancel
        </button>
        <button type="button" onClick={redelivery.confirm}>
          Send again
        </button>
      </form>
    </dialog>
  );
}

/**
 * The endpoint's delivery log: one row per event, its attempts nested, where it stands. Kept current: read again on
 * each of the team's live events (a new event brings new deliveries) and, while an attempt waits, when it falls due.
 * Redelivering an event the endpoint already received asks first (the receiver would get it twice).
 */
function Deliveries({ props, endpointId, types }: { props: PageProps; endpointId: string; types: { type: string }[] }) {
  const api = client(props);
  const [state, setState] = useState("");
  const [eventType, setEventType] = useState("");
  const [offset, setOffset] = useState(0);
  const log = useLoad(() => api(DELIVERIES, { endpointId, state: state || null, eventType: eventType || null, limit: LOG_PAGE, offset }), [endpointId, state, eventType, offset]);
  const redelivery = useRedelivery(props, log.reload);
  const page = log.data?.webhookEventDeliveries;
  useReloadOnEvents(props.apiKey, log.reload);
  useReloadWhenDue(page?.items, log.reload);
  const filter = (set: (v: string) => void) => (e: Event) => (set((e.target as HTMLSelectElement).value), setOffset(0));
  return (
    <div class="deliveries">
      <div class="row">
        <h4>Delivery log</h4>
        <label class="inline">
          State
          <select value={state} onChange={filter(setState)}>
            <option value="">any</option>
            {STATES.map((s) => (
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
      <p role="status" class="status">
        {redelivery.done}
      </p>
      <ErrorMessage error={log.error ?? redelivery.error} onRetry={log.error ? log.reload : undefined} />
      {page?.items.length === 0 && <p>{state || eventType ? "No event matches." : "No event sent yet."}</p>}
      {page && page.items.length > 0 && (
        <>
          <Table label="Delivery log" columns={["Event", "State", "Attempts", ""]}>
            {page.items.map((d) => (
              <DeliveryRow
                key={d.event.id}
                d={d}
                label={`Redeliver ${d.event.type} ${d.event.id}`}
                onRedeliver={() => redelivery.redeliver(endpointId, d, { question: `Send ${d.event.type} again?`, done: `${d.event.type} ${d.event.id} is being sent again.` })}
              >
                <td data-label="Event">
                  <a href={href(["webhooks", "events", d.event.id])}>{d.event.type}</a> <code>{d.event.id}</code>
                  <span class="sub">
                    <When iso={d.event.createdAt} precise />
                  </span>
                </td>
              </DeliveryRow>
            ))}
          </Table>
          <Pager offset={offset} size={LOG_PAGE} total={page.total} onPage={setOffset} label="Delivery log pages" />
        </>
      )}
      <RedeliverDialog id={`redeliver-title-${endpointId}`} redelivery={redelivery} />
    </div>
  );
}
