// The public sign-in form of an open house (docs/open-house-sign-in.md), its thank-you and withdrawal pages: HTML
// made on the server, no script at all, one inline stylesheet allowed by its hash, nothing loaded from anywhere (the
// report page's policy, with form-action 'self' so the form can be sent). Every value is HTML-escaped where it is
// written; text a user wrote is in elements with dir="auto". Branded as the report's page: its colours, address
// and agent. The kiosk form (?kiosk=1, a tablet at the door) asks the browser to remember nothing (autocomplete off).
import { createHash } from "node:crypto";
import { escapeHtml } from "./page";
import type { Theme } from "./view";
import type { Channel, ConsentText } from "../schema/resources/sign-in/consent-text";
import type { FieldErrors } from "../schema/resources/sign-in/record";

class Html {
  constructor(readonly text: string) {}
}
const raw = (text: string) => new Html(text);
function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  const part = (v: unknown): string => (v instanceof Html ? v.text : Array.isArray(v) ? v.map(part).join("") : v == null || v === false ? "" : escapeHtml(v));
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]) : ""), ""));
}

export interface Page {
  html: string;
  policy: string;
}

export interface Branding {
  address: string;
  place: string;
  agent: string;
  title: string | null;
  theme: Theme;
}

function stylesheet(t: Theme): string {
  return `
*{box-sizing:border-box}
body{margin:0;font:18px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#111;background:#fff}
.cover{background:${t.primary};color:${t.onPrimary};padding:1.5rem 1rem}
.cover>*,main{max-width:40rem;margin-left:auto;margin-right:auto}
.kicker{margin:0;text-transform:uppercase;letter-spacing:.08em;font-size:.8rem}
h1{margin:.25rem 0;font-size:clamp(1.4rem,5vw,2.2rem);line-height:1.2}
.cover p{margin:0}
main{padding:0 1rem 3rem}
h2{color:${t.accent};font-size:1.3rem}
label,legend{display:block;font-weight:600;margin:1rem 0 .25rem}
fieldset{border:1px solid #d1d5db;border-radius:.4rem;margin:1rem 0;padding:.25rem .75rem .75rem}
fieldset label{font-weight:400;margin:.5rem 0;display:flex;gap:.6rem;align-items:flex-start}
input[type=text],input[type=email],input[type=tel]{width:100%;font:inherit;padding:.6rem .7rem;border:2px solid #6b7280;border-radius:.4rem;min-height:2.75rem}
input[type=checkbox],input[type=radio]{width:1.5rem;height:1.5rem;flex:none;margin:.1rem 0 0}
input[aria-invalid=true]{border-color:#b91c1c}
.error{color:#b91c1c;font-weight:600;margin:.25rem 0 0}
.summary{border:2px solid #b91c1c;border-radius:.4rem;padding:.5rem .75rem;margin:1rem 0}
.hint{color:#4b5563;font-size:.9rem;margin:.1rem 0 0}
button{font:inherit;font-weight:600;background:${t.accent};color:#fff;border:0;border-radius:.4rem;padding:.8rem 1.5rem;margin-top:1.25rem;min-height:2.75rem;width:100%}
.thanks{border-left:.4rem solid ${t.accent};padding:.5rem 1rem;background:#f3f4f6;margin:1.5rem 0}
.trap{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
a{color:${t.accent}}`;
}

const hashOf = (css: string) => `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
const policyFor = (css: string) => `default-src 'none'; style-src ${hashOf(css)}; img-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

function document(title: string, css: string, content: Html): Page {
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">
<title>${title}</title><style>${raw(css)}</style></head>
<body>${content}</body></html>`;
  return { html: page.text, policy: policyFor(css) };
}

const header = (b: Branding) =>
  html`<header class="cover"><p class="kicker">${b.title ? html`<span dir="auto">${b.title}</span>` : "Open house"}</p><h1 dir="auto">${b.address}</h1>${b.place ? html`<p dir="auto">${b.place}</p>` : ""}<p>Hosted by <strong dir="auto">${b.agent}</strong></p></header>`;

export interface FormState {
  action: string;
  kiosk: boolean;
  started: string;
  questions: readonly string[];
  consent: ConsentText;
  values?: Record<string, string>;
  errors?: FieldErrors;
  /** A problem with the form as a whole (sent too fast, expired). */
  notice?: string;
  /** Shown above a fresh form after a sign-in. */
  thanks?: { withdrawHref: string | null };
}

const CHANNEL_LABELS: Record<Channel, string> = { email: "E-mail", phone: "Phone calls", sms: "Text messages" };

function field(name: string, label: string, type: string, s: FormState, extra: { autocomplete: string; hint?: string; required?: boolean; inputmode?: string }): Html {
  const error = s.errors?.[name];
  const described = [extra.hint ? `${name}-hint` : "", error ? `${name}-error` : ""].filter(Boolean).join(" ");
  return html`<label for="${name}">${label}${extra.required ? "" : html` <span class="hint">(optional)</span>`}</label>${extra.hint ? html`<p class="hint" id="${name}-hint">${extra.hint}</p>` : ""}
<input type="${type}" id="${name}" name="${name}" dir="auto" value="${s.values?.[name] ?? ""}" autocomplete="${s.kiosk ? "off" : extra.autocomplete}"${raw(extra.inputmode ? ` inputmode="${extra.inputmode}"` : "")}${raw(extra.required ? " required" : "")}${raw(described ? ` aria-describedby="${described}"` : "")}${raw(error ? ' aria-invalid="true"' : "")}>
${error ? html`<p class="error" id="${name}-error">${error}</p>` : ""}`;
}

function signInForm(s: FormState): Html {
  const agent = s.values?.working_with_agent ?? "unsaid";
  const agentError = s.errors?.working_with_agent;
  const radio = (value: string, text: string) =>
    html`<label><input type="radio" name="working_with_agent" value="${value}"${raw(agent === value ? " checked" : "")}> ${text}</label>`;
  const errorCount = Object.keys(s.errors ?? {}).length;
  return html`<form method="post" action="${s.action}"${raw(s.kiosk ? ' autocomplete="off"' : "")} novalidate>
${errorCount ? html`<div class="summary" role="alert"><p><strong>Please check the ${errorCount === 1 ? "field" : `${errorCount} fields`} marked below.</strong></p></div>` : ""}
${s.notice ? html`<div class="summary" role="alert"><p><strong>${s.notice}</strong></p></div>` : ""}
${field("name", "Your name", "text", s, { autocomplete: "name", required: true })}
${field("email", "E-mail", "email", s, { autocomplete: "email", hint: "An e-mail or a phone number is needed.", required: false, inputmode: "email" })}
${field("phone", "Phone", "tel", s, { autocomplete: "tel", required: false, inputmode: "tel" })}
<fieldset${raw(agentError ? ' aria-describedby="working_with_agent-error"' : "")}><legend>Are you working with an agent?</legend>
${radio("yes", "Yes")}${radio("no", "No")}${radio("unsaid", "Prefer not to say")}
${agentError ? html`<p class="error" id="working_with_agent-error">${agentError}</p>` : ""}</fieldset>
${s.questions.map((q, i) => field(`q${i + 1}`, q, "text", s, { autocomplete: "off" }))}
<fieldset><legend>May we contact you? Tick each way you agree to.</legend>
${(["email", "phone", "sms"] as const).map(
    (c) => html`<label><input type="checkbox" name="consent_${c}" value="yes"${raw(s.values?.[`consent_${c}`] === "yes" ? " checked" : "")}> <span><strong>${CHANNEL_LABELS[c]}.</strong> <span dir="auto">${s.consent.channels[c]}</span></span></label>`,
  )}
<p class="hint">You can withdraw your consent at any time. Wording version ${s.consent.version}.</p></fieldset>
<div class="trap" aria-hidden="true"><label for="website">Leave this empty</label><input type="text" id="website" name="website" tabindex="-1" autocomplete="off"></div>
<input type="hidden" name="started" value="${s.started}">
<button type="submit">Sign in</button>
</form>`;
}

/** The sign-in form; after a sign-in, a thank-you above a fresh one (for the next visitor at a kiosk). */
export function signInPage(b: Branding, s: FormState): Page {
  const thanks = s.thanks
    ? html`<div class="thanks" role="status"><h2>Thank you for signing in!</h2><p>Enjoy the visit.${s.thanks.withdrawHref ? html` Changed your mind about being contacted? <a href="${s.thanks.withdrawHref}">Withdraw your consent</a>.` : ""}</p>${s.kiosk ? html`<p>Next visitor? Please sign in below.</p>` : ""}</div>`
    : "";
  const heading = s.thanks ? (s.kiosk ? "Next visitor" : "Sign in someone else") : "Welcome! Please sign in";
  return document(`Sign in: ${b.address}`, stylesheet(b.theme), html`${header(b)}<main>${thanks}<h2>${heading}</h2>${signInForm(s)}</main>`);
}

/** The withdrawal page: a confirmation form (a GET changes nothing: mail scanners open links), or its outcome. */
export function withdrawPage(theme: Theme, action: string, done: boolean): Page {
  const content = done
    ? html`<header class="cover"><h1>Consent withdrawn</h1></header><main><p role="status">Your consent to be contacted was withdrawn. You will not be contacted through this sign-in from now on.</p></main>`
    : html`<header class="cover"><h1>Withdraw your consent</h1></header><main><p>You signed in at an open house and agreed to be contacted. Withdraw that consent?</p><form method="post" action="${action}"><button type="submit">Withdraw my consent</button></form></main>`;
  return document(done ? "Consent withdrawn" : "Withdraw your consent", stylesheet(theme), content);
}

/** Unknown, expired or revoked links, too many sign-ins, a refused body: a plain page, no detail. */
export function plainPage(theme: Theme, title: string, message: string): Page {
  return document(title, stylesheet(theme), html`<header class="cover"><h1>${title}</h1></header><main><p>${message}</p></main>`);
}
