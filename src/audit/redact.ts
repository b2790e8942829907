// URLs as the audit log, delivery records and log lines may show them (docs/api.md "Bounds on size, streams and
// documents", Logs and audit): a webhook endpoint's URL can carry credentials — user info (`user:pass@`) or a token
// in its query — which would otherwise be kept for a year in an audit entry nobody can edit. The user info becomes
// `***@`, each query value `***` (the names stay, so a reader sees which parameter changed), a fragment `#***`:
// `https://***@hooks.example.com/b?token=***`. The scheme, host and path stay. Redacting twice gives the same text,
// and migration redact_stored_urls applies the same rules in SQL to what was stored before.

/** The user info of an absolute URL: from after `scheme://` to its last `@` before the path, query or fragment. */
const USER_INFO = /^([A-Za-z][A-Za-z0-9+.-]*:[/\\]{2})[^/\\?#]*@/;
/** An absolute URL inside a text (an error message): a scheme, `://`, and everything up to a space or quote. */
const URL_IN_TEXT = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>]+/g;

const redactParameter = (part: string): string => (part === "" ? "" : part.includes("=") ? `${part.slice(0, part.indexOf("="))}=***` : "***");

/** `url` with its user info, query values and fragment replaced by `***`. */
export function redactUrl(url: string): string {
  let rest = url.replace(USER_INFO, "$1***@");
  let fragment = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    fragment = hash < rest.length - 1 ? "#***" : "#";
    rest = rest.slice(0, hash);
  }
  const question = rest.indexOf("?");
  if (question < 0) return rest + fragment;
  return `${rest.slice(0, question + 1)}${rest.slice(question + 1).split("&").map(redactParameter).join("&")}${fragment}`;
}

/** `text` with every absolute URL in it redacted (an error message quoting the URL it could not reach). */
export const redactUrlsIn = (text: string): string => text.replace(URL_IN_TEXT, redactUrl);
