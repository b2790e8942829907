// API keys: the team's keys (each with where it was last used from), a form to create one (its full key shown once),
// rolling a key with an overlap (the new key shown once), and revocation with a confirmation.
// The form starts from the API's own defaults (docs/api.md "API keys, teams and permissions": every permission but
// api_keys, the caller's tier) and offers only what the API accepts from this key (no more permissions, no higher
// tier, no later expiry than its own).
import type { Ref, RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../page";
import { type Catalog, Permissions, realGroups, resourceName } from "../permissions";
import { date, ErrorMessage, Loading, messageOf, ShownOnce, Table, useLoad, When, whenClosed } from "../ui";

const KEYS = graphql(`
  query Keys {
    apiKeys { id name description prefix permissions rateLimitTier createdAt lastUsedAt lastUsedIp lastUsedRoute expiresAt revokedAt replacedById }
    permissionCatalog { resource actions { action } }
  }
`);
const CREATE = graphql(`
  mutation CreateKey($input: CreateApiKeyInput!) {
    createApiKey(input: $input) { key apiKey { id name } }
  }
`);
const REVOKE = graphql(`
  mutation RevokeKey($id: ID!) {
    revokeApiKey(id: $id) { id revokedAt }
  }
`);
const ROLL = graphql(`
  mutation RollKey($id: ID!, $overlap: ApiKeyRollOverlap!) {
    rollApiKey(id: $id, overlap: $overlap) { key apiKey { id name } previousKey { id expiresAt } }
  }
`);
type Key = ResultOf<typeof KEYS>["apiKeys"][number];

/** The overlaps rollApiKey offers: how long the old key keeps working beside the new one. */
const OVERLAPS = [
  { value: "NONE", label: "None: the old key stops at once" },
  { value: "HOUR", label: "1 hour" },
  { value: "DAY", label: "24 hours" },
  { value: "WEEK", label: "7 days" },
] as const;

/** A key's last use: when, then from which client address and with which route. */
function LastUse({ k }: { k: Key }) {
  if (!k.lastUsedAt) return <>never</>;
  return (
    <>
      <When iso={k.lastUsedAt} />
      {k.lastUsedIp && <span class="sub">from {k.lastUsedIp}</span>}
      {k.lastUsedRoute && (
        <span class="sub">
          <code>{k.lastUsedRoute}</code>
        </span>
      )}
    </>
  );
}

/** Revoked (when), rolled (working until the end of its overlap), expired, or no. */
function revokedOrRolled(k: Key): string {
  if (k.revokedAt) return date(k.revokedAt);
  if (k.replacedById && k.expiresAt && new Date(k.expiresAt).getTime() > Date.now()) return `rolled: works until ${date(k.expiresAt)}`;
  return k.replacedById ? "rolled" : "no";
}

/** The tiers of the spec, smallest first; the API refuses one above the signed-in key's own. */
const TIERS = ["free", "standard", "pro", "enterprise"];
const DAY = 86_400_000;
/** How often the table is read again while the page is open ("Last used" is kept to within a minute). */
const REFRESH_MS = 30_000;

/** The keys, one row each: its permissions short (the detail on demand), its buttons in the last column. */
function KeysTable({ keys, catalog, ownId, onRoll, onRevoke }: { keys: Key[]; catalog: Catalog; ownId: string; onRoll: (k: Key) => void; onRevoke: (k: Key) => void }) {
  return (
    <Table label="API keys table" columns={["Name", "Prefix", "Permissions", "Tier", "Created", "Last used", "Expires", "Revoked", ""]}>
      {keys.map((k) => (
        <tr key={k.id} data-key-id={k.id} tabIndex={-1}>
          <td>
            {k.name}
            {k.description && <span class="sub">{k.description}</span>}
          </td>
          <td>
            <code>{k.prefix}</code>
          </td>
          <td class="perms">
            <Permissions held={k.permissions} catalog={catalog} name={k.name} />
          </td>
          <td>{k.rateLimitTier}</td>
          <td>
            <When iso={k.createdAt} />
          </td>
          <td class="last-used">
            <LastUse k={k} />
          </td>
          <td>
            <When iso={k.expiresAt} />
          </td>
          <td>{revokedOrRolled(k)}</td>
          <td class="actions">
            {!k.revokedAt && !k.replacedById && (
              <button
                type="button"
                class="secondary"
                aria-label={`Roll ${k.name}`}
                onClick={() => onRoll(k)}
              >
                Roll
              </button>
            )}
            {!k.revokedAt && k.id !== ownId && (
              <button
                type="button"
                class="danger"
                aria-label={`Revoke ${k.name}`}
                onClick={() => onRevoke(k)}
              >
                Revoke
              </button>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** Focuses the table row of key `id` once it is on the page (after a create or a revoke, where the focus belongs). */
function focusRow(id: string) {
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`tr[data-key-id="${id}"]`)?.focus());
}

/** Calls `reload` every REFRESH_MS and when the tab comes back into view. */
function useReloadWhileOpen(reload: () => void) {
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    const onVisible = () => document.visibilityState === "visible" && reload();
    document.addEventListener("visibilitychange", onVisible);
    return () => (clearInterval(timer), document.removeEventListener("visibilitychange", onVisible));
  }, [reload]);
}

export function KeysPage(props: PageProps) {
  const api = client(props);
  const keys = useLoad(() => api(KEYS), []);
  const [created, setCreated] = useState<{ key: string; name: string; id: string } | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [rolling, setRolling] = useState<Key | null>(null);
  const rollDialog = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [focusAfterLoad, setFocusAfterLoad] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const createDialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useReloadWhileOpen(keys.reload); // "Last used" moves while the page is open
  useEffect(() => {
    if (keys.data && focusAfterLoad) {
      focusRow(focusAfterLoad);
      setFocusAfterLoad(null);
    }
  }, [keys.data, focusAfterLoad]);

  const revoke = async () => {
    const key = revoking;
    dialog.current?.close();
    if (!key) return;
    try {
      await api(REVOKE, { id: key.id });
      setError(null);
      setStatus(`“${key.name}” is revoked: every request with ${key.prefix}… is now refused.`);
    } catch (err) {
      setError(messageOf(err));
    }
    setFocusAfterLoad(key.id);
    keys.reload();
  };

  const roll = async (overlap: (typeof OVERLAPS)[number]["value"]) => {
    const key = rolling;
    rollDialog.current?.close();
    if (!key) return;
    try {
      const { rollApiKey } = await api(ROLL, { id: key.id, overlap });
      setCreated({ key: rollApiKey.key, name: rollApiKey.apiKey.name, id: rollApiKey.apiKey.id });
      setError(null);
      setStatus(`“${key.name}” is rolled: ${key.prefix}… works until ${date(rollApiKey.previousKey.expiresAt)}.`);
    } catch (err) {
      setError(messageOf(err));
    }
    keys.reload();
  };

  return (
    <>
      <div class="row page-head">
        <h1>API keys</h1>
        <button type="button" onClick={() => createDialog.current?.showModal()} disabled={!keys.data}>
          Create a key
        </button>
      </div>
      <dialog ref={createDialog} class="wide" aria-labelledby="create-key-title">
        {keys.data && (
          <CreateKey
            props={props}
            catalog={keys.data.permissionCatalog}
            onCancel={() => createDialog.current?.close()}
            onCreated={(key, name, id) => {
              createDialog.current?.close();
              setCreated({ key, name, id });
              setStatus(null);
              keys.reload();
            }}
          />
        )}
      </dialog>
      {created && (
        <ShownOnce
          label={`New key “${created.name}”:`}
          value={created.key}
          onDone={() => {
            focusRow(created.id);
            setCreated(null);
          }}
        />
      )}
      <section class="card" aria-labelledby="keys-title">
        <div class="row">
          <h2 id="keys-title">The team's keys</h2>
          <button type="button" class="secondary" onClick={keys.reload}>
            Refresh keys
          </button>
        </div>
        <p role="status" class="status">
          {status}
        </p>
        <ErrorMessage error={keys.error ?? error} onRetry={keys.error ? keys.reload : undefined} />
        {!keys.data && !keys.error && <Loading what="keys" />}
        {keys.data && (
          <KeysTable
            keys={keys.data.apiKeys}
            catalog={keys.data.permissionCatalog}
            ownId={props.who.apiKey.id}
            onRoll={(k) => {
              setRolling(k);
              rollDialog.current?.showModal();
            }}
            onRevoke={(k) => {
              setRevoking(k);
              dialog.current?.showModal();
              // Start on Cancel: Enter on a freshly opened dialog must not revoke a key.
              cancel.current?.focus();
            }}
          />
        )}
      </section>
      <RevokeDialog dialog={dialog} cancel={cancel} revoking={revoking} onClose={() => setRevoking(null)} onRevoke={revoke} />
      <RollDialog dialog={rollDialog} rolling={rolling} onClose={() => setRolling(null)} onRoll={roll} />
    </>
  );
}


type Overlap = (typeof OVERLAPS)[number]["value"];

/** Asks before revoking a key; starts on Cancel. */
function RevokeDialog({ dialog, cancel, revoking, onClose, onRevoke }: { dialog: Ref<HTMLDialogElement>; cancel: Ref<HTMLButtonElement>; revoking: Key | null; onClose: () => void; onRevoke: () => void }) {
  return (
  <dialog ref={dialog} aria-labelledby="revoke-title" onClose={whenClosed(onClose)}>
    <h2 id="revoke-title">Revoke “{revoking?.name}”?</h2>
    <p>
      Every request with <code>{revoking?.prefix}…</code> is refused at once, on every server. This cannot be undone.
    </p>
    <form method="dialog" class="row">
      <button type="submit" class="secondary" ref={cancel} autoFocus>
        Cancel
      </button>
      <button type="button" class="danger" onClick={onRevoke}>
        Revoke key
      </button>
    </form>
  </dialog>
  );
}

/** Asks how long the old key keeps working, then rolls it. */
function RollDialog({ dialog, rolling, onClose, onRoll }: { dialog: RefObject<HTMLDialogElement>; rolling: Key | null; onClose: () => void; onRoll: (overlap: Overlap) => void }) {
  return (
  <dialog ref={dialog} aria-labelledby="roll-title" onClose={whenClosed(onClose)}>
    <h2 id="roll-title">Roll “{rolling?.name}”?</h2>
    <p>
      A new key with the same name, permissions, tier and expiry replaces <code>{rolling?.prefix}…</code>; it is shown once. Both keys share one hourly budget
      while the old one keeps working.
    </p>
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void onRoll(String(new FormData(e.currentTarget as HTMLFormElement).get("overlap")) as Overlap);
      }}
    >
      <fieldset>
        <legend>The old key keeps working for</legend>
        {OVERLAPS.map((o) => (
          <label key={o.value} class="check">
            <input type="radio" name="overlap" value={o.value} defaultChecked={o.value === "DAY"} />
            {o.label}
          </label>
        ))}
      </fieldset>
      <div class="row">
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Cancel
        </button>
        <button type="submit">Roll key</button>
      </div>
    </form>
  </dialog>
  );
}

/** The default permissions of a new key: what the API gives a key created without a list, within the signed-in key's. */
const defaultPermissions = (held: Record<string, string[]>, catalog: Catalog): Set<string> =>
  new Set(realGroups(held, catalog).flatMap(({ resource, actions }) => (resource === "api_keys" ? [] : actions.map((a) => `${resource}:${a}`))));

/** yyyy-mm-dd of a time, in UTC (a key expires at 00:00 UTC of its date). */
const day = (time: number) => new Date(time).toISOString().slice(0, 10);
const longDay = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" });

/** The permissions a new key may hold, by resource, each a checkbox. */
function PermissionPicker({
  available,
  ticked,
  onChange,
  defaults,
}: {
  available: ReadonlyArray<readonly [string, readonly string[]]>;
  ticked: Set<string>;
  onChange: (next: Set<string>) => void;
  defaults: () => Set<string>;
}) {
  const toggle = (permission: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Permissions</legend>
      <p class="hint">Ticked: what a key gets when none are named (everything your key holds except managing keys).</p>
      <div class="row">
        <button type="button" class="secondary" onClick={() => onChange(defaults())}>
          Back to the defaults
        </button>
        <button type="button" class="secondary" onClick={() => onChange(new Set())}>
          Untick all
        </button>
      </div>
      <div class="perm-grid">
        {available.map(([resource, actions]) => (
          <fieldset key={resource} class="perm-group">
            <legend>{resourceName(resource)}</legend>
            {actions.map((action) => (
              <label key={action} class="check">
                <input
                  type="checkbox"
                  name="permission"
                  value={`${resource}:${action}`}
                  checked={ticked.has(`${resource}:${action}`)}
                  onChange={(e) => toggle(`${resource}:${action}`, (e.target as HTMLInputElement).checked)}
                />
                {action}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}

function CreateKey({ props, catalog, onCreated, onCancel }: { props: PageProps; catalog: Catalog; onCreated: (key: string, name: string, id: string) => void; onCancel: () => void }) {
  const api = client(props);
  const own = props.who.apiKey;
  // The permissions a new key may hold: those of the signed-in key (the API refuses any other) that the API checks.
  const available = realGroups(own.permissions, catalog).map((g) => [g.resource, g.actions] as const);
  const tiers = TIERS.slice(0, TIERS.indexOf(own.rateLimitTier) + 1);
  const [ticked, setTicked] = useState(() => defaultPermissions(own.permissions, catalog));
  const [tier, setTier] = useState(own.rateLimitTier);
  const [expires, setExpires] = useState("");
  const [noPermission, setNoPermission] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = own.expiresAt ? day(new Date(own.expiresAt).getTime()) : undefined;

  const chosen = available
    .map(([resource, actions]) => [resource, actions.filter((a) => ticked.has(`${resource}:${a}`))] as const)
    .filter(([, actions]) => actions.length > 0);

  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    if (ticked.size === 0 && !noPermission) {
      setError("Tick the permissions the key needs, or confirm a key with no permission below.");
      return;
    }
    setBusy(true);
    try {
      const name = String(new FormData(form).get("name")).trim();
      const { createApiKey } = await api(CREATE, {
        input: {
          name,
          description: String(new FormData(form).get("description") ?? "") || null,
          expiresAt: expires ? new Date(`${expires}T00:00:00Z`).toISOString() : null,
          permissions: [...ticked],
          rateLimitTier: tier,
        },
      });
      setError(null);
      form.reset();
      setTicked(defaultPermissions(own.permissions, catalog));
      setTier(own.rateLimitTier);
      setExpires("");
      setNoPermission(false);
      onCreated(createApiKey.key, name, createApiKey.apiKey.id);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2 id="create-key-title">Create a key</h2>
      <form onSubmit={onSubmit}>
        <div class="fields">
          <label>
            Name
            <input name="name" required maxLength={200} />
          </label>
          <label>
            Description (optional)
            <input name="description" maxLength={1000} />
          </label>
          <label>
            Expires on (optional, 00:00 UTC)
            <input
              name="expires"
              type="date"
              min={day(Date.now() + DAY)}
              max={latest}
              value={expires}
              aria-describedby="expires-hint"
              onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
            />
            <span id="expires-hint" class="hint">
              {own.expiresAt
                ? `From tomorrow to at most ${longDay(own.expiresAt)}, when your own key expires (a key cannot outlive the key that made it); empty: it expires with yours.`
                : "From tomorrow on; empty: it never expires."}
            </span>
          </label>
          <label>
            Rate-limit tier
            <select name="tier" value={tier} aria-describedby="tier-hint" onChange={(e) => setTier((e.target as HTMLSelectElement).value)}>
              {tiers.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
            <span id="tier-hint" class="hint">
              Up to your own key's tier ({own.rateLimitTier}).
            </span>
          </label>
        </div>
        <PermissionPicker available={available} ticked={ticked} onChange={setTicked} defaults={() => defaultPermissions(own.permissions, catalog)} />
        <div class="summary" data-testid="key-summary" aria-live="polite">
          <strong>The new key will hold:</strong>{" "}
          {chosen.length ? chosen.map(([resource, actions]) => `${resourceName(resource)}: ${actions.join(", ")}`).join("; ") : "no permission at all (it can only call GET /v1/users/me)"}
          {"; "}the {tier} tier; {expires ? `it expires on ${longDay(`${expires}T00:00:00Z`)}` : own.expiresAt ? `it expires with your key on ${longDay(own.expiresAt)}` : "it never expires"}.
        </div>
        {ticked.size === 0 && (
          <label class="check">
            <input type="checkbox" checked={noPermission} onChange={(e) => setNoPermission((e.target as HTMLInputElement).checked)} />
            Yes, create a key that can do nothing but GET /v1/users/me
          </label>
        )}
        <ErrorMessage error={error} />
        <div class="row">
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            Create key
          </button>
        </div>
      </form>
    </>
  );
}
