// Webhooks: the team's endpoints (create with event types from the catalog, secret shown once, enable/disable,
// rotate the secret, send a test event) and each endpoint's delivery log with redelivery.
import { useState } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { date, ErrorMessage, Loading, messageOf, Pager, seconds, ShownOnce, Table, useFormAction, useLoad } from "../ui";

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
      items { id eventId eventType attempt status responseStatus durationMs error createdAt nextAttemptAt }
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

export function WebhooksPage(props: PageProps) {
  const api = client(props);
  const list = useLoad(() => api(ENDPOINTS), []);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs an action on an endpoint; its error shows above the list. */
  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
    list.reload();
  };

  return (
    <>
      <h1>Webhooks</h1>
      {list.data && (
        <CreateEndpoint
          props={props}
          types={list.data.webhookEventTypes}
          onCreated={(url, value) => {
            setSecret({ label: `Signing secret of ${url}:`, value });
            list.reload();
          }}
        />
      )}
      {secret && <ShownOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      <section class="card" aria-labelledby="endpoints-title">
        <h2 id="endpoints-title">Endpoints</h2>
        <ErrorMessage error={list.error ?? error} />
        {!list.data && !list.error && <Loading what="endpoints" />}
        {list.data?.webhookEndpoints.items.length === 0 && <p>No endpoint yet.</p>}
        <ul class="endpoints">
          {list.data?.webhookEndpoints.items.map((e: Endpoint) => (
            <li key={e.id} class="endpoint" data-endpoint-id={e.id}>
              <h3>{e.url}</h3>
              <p>
                {e.enabled ? "Enabled" : `Disabled${e.disabledReason ? ` (${e.disabledReason})` : ""}`} · events: {e.events.join(", ")}
                {e.description && ` · ${e.description}`} · created {date(e.createdAt)}
              </p>
              <div class="row">
                <button type="button" class="secondary" onClick={() => act(() => api(UPDATE, { id: e.id, enabled: !e.enabled }))}>
                  {e.enabled ? "Disable" : "Enable"}
                  <span class="sr-only"> {e.url}</span>
                </button>
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    act(async () => {
                      const { rotateWebhookSecret } = await api(ROTATE, { id: e.id });
                      setSecret({ label: `New signing secret of ${e.url} (the old one keeps signing for 24 hours):`, value: rotateWebhookSecret.secret });
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
                    })
                  }
                >
                  Send test event<span class="sr-only"> to {e.url}</span>
                </button>
                <button type="button" class="secondary" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>
                  {open === e.id ? "Hide deliveries" : "Show deliveries"}
                  <span class="sr-only"> of {e.url}</span>
                </button>
              </div>
              {open === e.id && <Deliveries props={props} endpointId={e.id} types={list.data!.webhookEventTypes} />}
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function CreateEndpoint({ props, types, onCreated }: { props: PageProps; types: { type: string; description: string }[]; onCreated: (url: string, secret: string) => void }) {
  const api = client(props);
  const { onSubmit, error } = useFormAction(async (data) => {
    const { createWebhookEndpoint } = await api(CREATE, {
      input: { url: String(data.get("url")), description: String(data.get("description") ?? "") || null, events: data.getAll("event").map(String) },
    });
    onCreated(createWebhookEndpoint.endpoint.url, createWebhookEndpoint.secret);
  });
  return (
    <section class="card" aria-labelledby="create-endpoint-title">
      <h2 id="create-endpoint-title">Add an endpoint</h2>
      <form onSubmit={onSubmit}>
        <div class="fields">
          <label>
            URL
            <input name="url" type="url" required maxLength={2000} placeholder="https://example.com/webhooks" />
          </label>
          <label>
            Description (optional)
            <input name="description" />
          </label>
        </div>
        <fieldset>
          <legend>Events</legend>
          <div class="perm-grid">
            <label class="check">
              <input type="checkbox" name="event" value="*" />
              every event (*)
            </label>
            {types.map((t) => (
              <label key={t.type} class="check" title={t.description}>
                <input type="checkbox" name="event" value={t.type} />
                {t.type}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit">Add endpoint</button>
        <ErrorMessage error={error} />
      </form>
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
          <Table label="Delivery log" columns={["Event", "Status", "Response", "Duration", "Attempt", "Scheduled", "Next retry", ""]}>
            {page.items.map((d) => (
              <tr key={d.id} class="delivery" data-status={d.status}>
                <td>
                  {d.eventType} <code>{d.eventId}</code>
                </td>
                <td>{d.status}</td>
                <td>{d.responseStatus ?? d.error ?? "—"}</td>
                <td>{d.durationMs == null ? "—" : `${d.durationMs} ms`}</td>
                <td>{d.attempt}</td>
                <td class="sent">{seconds(d.createdAt)}</td>
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
