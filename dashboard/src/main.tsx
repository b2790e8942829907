// The team dashboard: sign in with an admin key, then keys, usage, webhooks and reports, all over /graphql.
import { render } from "preact";
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { run, ApiError } from "./graphql";
import { WHO, type Who } from "./page";
import { href, useRoute } from "./router";
import { clearKey, holds, missingAdminPermissions, storeKey, storedKey } from "./session";
import { KeysPage } from "./pages/keys";
import { UsagePage } from "./pages/usage";
import { AuditLogPage } from "./pages/audit-log";
import { EventPage, WebhooksPage } from "./pages/webhooks";
import { ReportsPage, ReportPage } from "./pages/reports";
import { ErrorMessage, messageOf } from "./ui";
import "./styles.css";

/** Checks a key: valid, and an admin key. Throws a message to show otherwise. */
async function signIn(key: string): Promise<Who> {
  let who: Who;
  try {
    who = (await run(key, WHO)).me;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw new Error("That key is not valid (mistyped, revoked or expired).", { cause: err });
    throw err;
  }
  const missing = missingAdminPermissions(who.apiKey.permissions);
  if (missing.length) throw new Error(`This key cannot manage the team's keys: it lacks ${missing.join(", ")}. Sign in with an admin key.`);
  return who;
}

/**
 * The dashboard's pages, in the navigation's order. `needs`: the permission a page reads with; a key without it does
 * not see the page's link, and is told so on the page itself (never a bare "Permission denied").
 */
export const PAGES: { path: string; title: string; needs?: string; what?: string }[] = [
  { path: "keys", title: "API keys" },
  { path: "usage", title: "Usage" },
  { path: "webhooks", title: "Webhooks", needs: "webhooks:read", what: "the team's webhooks" },
  { path: "reports", title: "Reports", needs: "reports:read", what: "the team's reports" },
  { path: "audit-log", title: "Audit log", needs: "audit_log:read", what: "the team's audit log" },
];

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no such page in the dashboard. Go to <a href={href(["keys"])}>API keys</a>.
      </p>
    </>
  );
}

function NotAllowed({ what, needs }: { what: string; needs: string }) {
  return (
    <>
      <h1>Not available to this key</h1>
      <p>
        This key cannot see {what}: it lacks {needs}. Sign out and sign in with a key that holds it, or create one on the{" "}
        <a href={href(["keys"])}>API keys</a> page.
      </p>
    </>
  );
}

function SignIn({ onSignedIn, notice }: { onSignedIn: (key: string, who: Who) => void; notice: string | null }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="signin">
      <h1>Team dashboard</h1>
      <p>Sign in with an admin API key (one holding the api_keys permissions). It is kept in this tab only and forgotten when you sign out or close the tab.</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          try {
            const who = await signIn(key.trim());
            storeKey(key.trim());
            onSignedIn(key.trim(), who);
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <label for="key">Admin API key</label>
        <input id="key" name="key" type="password" autoComplete="off" required placeholder="prs_sk_live_…" value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <ErrorMessage error={error} />
    </main>
  );
}

function App() {
  const [session, setSession] = useState<{ key: string; who: Who } | null>(null);
  const [checking, setChecking] = useState(storedKey() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const route = useRoute();
  const [page = "keys", id, ...rest] = route.path;
  const eventPage = page === "webhooks" && id === "events" && rest.length === 1;
  const current = PAGES.find((p) => p.path === page && ((id === undefined && rest.length === 0) || (p.path === "reports" && rest.length === 0) || eventPage));
  const title = current?.title ?? "Page not found";
  useEffect(() => void (document.title = session ? `${title} · Team dashboard` : "Sign in · Team dashboard"), [title, session]);
  // A new page (or report) takes the focus to its content, as a page load would for keyboard and screen readers.
  const place = route.path.join("/");
  const visited = useRef(false);
  useEffect(() => {
    if (visited.current) document.getElementById("main")?.focus();
    visited.current = true;
  }, [place]);

  useEffect(() => {
    const key = storedKey();
    if (!key) return;
    signIn(key).then(
      (who) => (setSession({ key, who }), setChecking(false)),
      (err) => (clearKey(), setNotice(messageOf(err)), setChecking(false)),
    );
  }, []);

  const signOut = (why: string | null = null) => {
    clearKey();
    setSession(null);
    setNotice(why);
  };

  if (checking) return <p aria-live="polite">Checking your key…</p>;
  if (!session) return <SignIn notice={notice} onSignedIn={(key, who) => setSession({ key, who })} />;

  const props = { apiKey: session.key, who: session.who, params: route.params, onUnauthorized: () => signOut("Your key stopped working (revoked or expired). Sign in again.") };
  const allowed = (p: (typeof PAGES)[number]) => !p.needs || holds(session.who.apiKey.permissions, p.needs);
  let content: ComponentChildren;
  if (!current) content = <NotFound />;
  else if (!allowed(current)) content = <NotAllowed what={current.what ?? current.title} needs={current.needs!} />;
  else if (current.path === "keys") content = <KeysPage {...props} />;
  else if (current.path === "usage") content = <UsagePage {...props} />;
  else if (current.path === "webhooks") content = eventPage ? <EventPage {...props} id={rest[0]} /> : <WebhooksPage {...props} />;
  else if (current.path === "audit-log") content = <AuditLogPage {...props} />;
  else if (current.path === "reports") content = id ? <ReportPage {...props} id={id} /> : <ReportsPage {...props} />;
  return (
    <>
      {/* Moves the focus itself: the fragment is the router's, so an in-page anchor must not change it. */}
      <a
        class="skip"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById("main")?.focus();
        }}
      >
        Skip to content
      </a>
      <header>
        <div class="brand">
          <strong>{session.who.team.name}</strong>
          <span>
            signed in as <code>{session.who.apiKey.prefix}…</code> ({session.who.apiKey.name})
          </span>
        </div>
        <nav aria-label="Dashboard">
          <ul>
            {PAGES.filter(allowed).map((p) => (
              <li key={p.path}>
                <a href={href([p.path])} aria-current={p.path === current?.path ? "page" : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="secondary" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {content}
      </main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
