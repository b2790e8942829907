// API keys: the team's keys, a form to create one (its full key shown once), and revocation with a confirmation.
import { useRef, useState } from "preact/hooks";
import { client, graphql, type ResultOf } from "../graphql";
import type { PageProps } from "../main";
import { date, ErrorMessage, Loading, messageOf, ShownOnce, Table, useFormAction, useLoad } from "../ui";

const KEYS = graphql(`
  query Keys {
    apiKeys { id name description prefix permissions rateLimitTier createdAt lastUsedAt expiresAt revokedAt }
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
type Key = ResultOf<typeof KEYS>["apiKeys"][number];

/** The tiers of the spec, smallest first; the API refuses one above the signed-in key's own. */
const TIERS = ["free", "standard", "pro", "enterprise"];

const permissionList = (permissions: Record<string, string[]>) =>
  Object.entries(permissions).map(([resource, actions]) => `${resource}: ${actions.join(", ")}`).join("; ");

export function KeysPage(props: PageProps) {
  const api = client(props);
  const keys = useLoad(() => api(KEYS), []);
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  return (
    <>
      <h1>API keys</h1>
      <CreateKey
        props={props}
        onCreated={(key, name) => {
          setCreated({ key, name });
          keys.reload();
        }}
      />
      {created && <ShownOnce label={`New key “${created.name}”:`} value={created.key} onDone={() => setCreated(null)} />}
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">The team's keys</h2>
        <ErrorMessage error={keys.error ?? error} />
        {!keys.data && !keys.error && <Loading what="keys" />}
        {keys.data && (
          <Table label="API keys table" columns={["Name", "Description", "Prefix", "Permissions", "Tier", "Created", "Last used", "Expires", "Revoked", ""]}>
            {keys.data.apiKeys.map((k) => (
              <tr key={k.id} data-key-id={k.id}>
                <td>{k.name}</td>
                <td>{k.description ?? "—"}</td>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td class="perms">{permissionList(k.permissions)}</td>
                <td>{k.rateLimitTier}</td>
                <td>{date(k.createdAt)}</td>
                <td>{date(k.lastUsedAt)}</td>
                <td>{date(k.expiresAt)}</td>
                <td>{k.revokedAt ? date(k.revokedAt) : "no"}</td>
                <td>
                  {!k.revokedAt && k.id !== props.who.apiKey.id && (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() => {
                        setRevoking(k);
                        dialog.current?.showModal();
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </section>
      <dialog ref={dialog} aria-labelledby="revoke-title" onClose={() => setRevoking(null)}>
        <h2 id="revoke-title">Revoke “{revoking?.name}”?</h2>
        <p>
          Every request with <code>{revoking?.prefix}…</code> is refused at once, on every server. This cannot be undone.
        </p>
        <form method="dialog" class="row">
          <button
            type="button"
            class="danger"
            onClick={async () => {
              const key = revoking;
              dialog.current?.close();
              if (!key) return;
              try {
                await api(REVOKE, { id: key.id });
                setError(null);
              } catch (err) {
                setError(messageOf(err));
              }
              keys.reload();
            }}
          >
            Revoke key
          </button>
          <button type="submit" class="secondary">
            Cancel
          </button>
        </form>
      </dialog>
    </>
  );
}

function CreateKey({ props, onCreated }: { props: PageProps; onCreated: (key: string, name: string) => void }) {
  const api = client(props);
  // The permissions a new key may hold are those of the signed-in key (the API refuses any other).
  const available = Object.entries(props.who.apiKey.permissions);
  const { onSubmit, error, busy } = useFormAction(async (data) => {
    const name = String(data.get("name"));
    const expires = String(data.get("expires") ?? "");
    const { createApiKey } = await api(CREATE, {
      input: {
        name,
        description: String(data.get("description") ?? "") || null,
        expiresAt: expires ? new Date(`${expires}T00:00:00Z`).toISOString() : null,
        permissions: data.getAll("permission").map(String),
        rateLimitTier: String(data.get("tier")),
      },
    });
    onCreated(createApiKey.key, name);
  });
  return (
    <section class="card" aria-labelledby="create-key-title">
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
            <input name="expires" type="date" />
          </label>
          <label>
            Rate-limit tier
            <select name="tier" defaultValue={props.who.apiKey.rateLimitTier}>
              {TIERS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset>
          <legend>Permissions</legend>
          <div class="perm-grid">
            {available.map(([resource, actions]) => (
              <fieldset key={resource} class="perm-group">
                <legend>{resource}</legend>
                {actions.map((action) => (
                  <label key={action} class="check">
                    <input type="checkbox" name="permission" value={`${resource}:${action}`} />
                    {action}
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
        </fieldset>
        <button type="submit" disabled={busy}>
          Create key
        </button>
        <ErrorMessage error={error} />
      </form>
    </section>
  );
}
