// Public pages whose first path segment is a secret token, and the URL every log line and trace span shows for them:
// the access log and the error envelope's log lines (../http/) and the request spans (./tracing-sdk.ts) all read it
// here, below both.

/**
 * Mounts of public pages whose first segment is a secret token: a share link's page and PDF (/r/<token>,
 * /r/<token>.pdf) and, below the same rule, any later one (sign-in links, /s/<token>). Matched as Express matches
 * them (any case, extra slashes).
 */
const TOKEN_MOUNTS = ["r", "s"];
const TOKEN_SEGMENT = new RegExp(`^(/+(?:${TOKEN_MOUNTS.join("|")})/+)([^/?]*)`, "i");

/**
 * A URL as logs and traces may show it: on a public token route, its template — the token replaced by {token},
 * keeping a file suffix (/r/{token}.pdf) and what follows it. Every log line that names a request's URL goes through
 * this.
 */
export const withoutToken = (url: string): string =>
  url.replace(TOKEN_SEGMENT, (_all, mount: string, segment: string) => `${mount}{token}${/\.\w+$/.exec(segment)?.[0] ?? ""}`);
