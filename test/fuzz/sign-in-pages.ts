// The public pages of open-house sign-in links (GET/POST /s/<token>, /s/<token>/thanks, /s/<token>/withdraw;
// docs/open-house-sign-in.md), which no OpenAPI operation describes: random and hostile paths, methods, bodies and
// media types. Every answer is below 500 and an HTML page (or a 303 to a page under /s/); only a live link's own form
// answers 200 (its own report's address, never another's); markup sent in a field never comes back unescaped; a
// case changes only the rows of the team whose link it names (a sign-in on the other team's link records that team's
// visitor: its attendees, consent receipts, the showing's attendees_count), and an answer that refused the form
// changed nothing.
import { hash } from "node:crypto";
import fc from "fast-check";
import { prisma } from "../../src/db";
import { signStart } from "../../src/schema/resources/sign-in/token";
import { HOSTILE_STRINGS } from "./arbitraries";
import type { World } from "./harness";

export interface SignInLinks {
  /** Live links' tokens → the address of their report (one per team). */
  live: Map<string, string>;
  /** The other team's live link's token (a case sent to it acts on that team's rows). */
  theirs: string;
  revoked: string;
  others: () => Promise<string[]>;
}

/** A live link to an open house of a new report of each team, and a revoked one of the fuzz team. */
export async function makeSignInLinks(world: World): Promise<SignInLinks> {
  const live = new Map<string, string>();
  let revoked = "";
  let theirs = "";
  for (const [team, address] of [[world.own, "1 Fuzz Sign-in St"], [world.other, "2 Other Sign-in St"]] as const) {
    const headers = { Authorization: `Bearer ${team.key}`, "Content-Type": "application/json" };
    const report = await world.client.send({ method: "POST", path: "/v1/reports", headers, body: JSON.stringify({ address }) });
    const showing = await world.client.send({ method: "POST", path: "/v1/showings", headers, body: JSON.stringify({ report_id: (report.json as any).data.id, event_type: "open_house" }) });
    const path = `/v1/showings/${(showing.json as any).data.id}/sign-in-links`;
    const link = await world.client.send({ method: "POST", path, headers, body: JSON.stringify({ questions: ["Budget?", "Moving when?"] }) });
    live.set((link.json as any).data.token, address);
    if (team === world.other) theirs = (link.json as any).data.token;
    if (team === world.own) {
      const gone = await world.client.send({ method: "POST", path, headers, body: "{}" });
      await world.client.send({ method: "DELETE", path: `${path}/${(gone.json as any).data.id}`, headers });
      revoked = (gone.json as any).data.token;
    }
  }
  const addresses = new Set(live.values());
  return { live, theirs, revoked, others: async () => (await prisma.report.findMany({ select: { address: true } })).map((r) => r.address).filter((a) => !addresses.has(a) && a.length > 6) };
}

const TOKEN_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("");
const MARKUP = '"><x-fuzz onload=1>';
const FIELDS = ["name", "email", "phone", "working_with_agent", "q1", "q2", "q6", "consent_email", "consent_phone", "consent_sms", "website", "started", "__proto__", "name[]"];

const value = fc.oneof(
  fc.constantFrom("", "yes", "no", "unsaid", "Robin Visitor", "robin@example.com", "+1 555 010 2030", MARKUP, `a${MARKUP}@example.com`, "x".repeat(5000)),
  fc.constantFrom(...HOSTILE_STRINGS.map((s) => s.slice(0, 2000))),
  fc.string({ maxLength: 40 }),
);

export const signInCaseArb = (links: SignInLinks) =>
  fc.record({
    method: fc.constantFrom("GET", "GET", "HEAD", "POST", "POST", "POST", "POST", "POST", "PUT", "DELETE"),
    segment: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...links.live.keys()) },
      fc.constant(links.revoked),
      fc.array(fc.constantFrom(...TOKEN_CHARS), { minLength: 43, maxLength: 43 }).map((c) => c.join("")),
      fc.constantFrom(...HOSTILE_STRINGS.map((s) => encodeURI(s.replace(/[\uD800-\uDFFF]/g, "?")).slice(0, 3000)), "%ZZ", "%00", "..", "%2e%2e%2f", "a/b", ""),
    ),
    suffix: fc.constantFrom("", "", "", "", "?kiosk=1", "/thanks", "/thanks?kiosk=1", "/withdraw", "/", "/x", "%00", "?r=%00"),
    // A valid sign-in under the random fields now and then (a later repeated key wins), so cases reach the recording.
    base: fc.constantFrom("none", "valid", "valid", "honeypot"),
    fields: fc.array(fc.tuple(fc.constantFrom(...FIELDS), value), { maxLength: 14 }),
    started: fc.constantFrom("valid", "valid", "valid", "fresh", "forged", "none"),
    media: fc.constantFrom("application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "application/json", "text/plain", "multipart/form-data; boundary=x", ""),
    big: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    from: fc.integer({ min: 0, max: 62_499 }),
  });

type Case = ReturnType<typeof signInCaseArb> extends fc.Arbitrary<infer T> ? T : never;

async function startedValue(token: string, kind: Case["started"]): Promise<string | null> {
  if (kind === "none") return null;
  if (kind === "forged") return `${Date.now() - 5000}.${"A".repeat(43)}`;
  const link = await prisma.signInLink.findUnique({ where: { tokenHash: hash("sha256", token, "hex") }, select: { formSecret: true } });
  if (!link) return `${Date.now() - 5000}.${"B".repeat(43)}`;
  return signStart(link.formSecret, kind === "valid" ? Date.now() - 3000 : Date.now());
}

/** Sends one case and checks its answer. */
export async function runSignInPage(world: World, links: SignInLinks, c: Case): Promise<void> {
  const path = `/s/${c.segment}${c.suffix}`;
  const base: Array<[string, string]> = c.base === "none" ? [] : [["name", "Robin Visitor"], ["email", "robin@example.com"], ...(c.base === "honeypot" ? [["website", "x"] as [string, string]] : [])];
  const pairs = [...c.fields.filter(([name]) => !base.some(([taken]) => taken === name)), ...base];
  const started = await startedValue(c.segment, c.started);
  if (started !== null) pairs.push(["started", started]);
  let body = c.method === "POST" ? new URLSearchParams(pairs).toString() : undefined;
  if (body !== undefined && c.big) body += `&name=${"y".repeat(20_000)}`;
  const headers: Record<string, string> = c.media && body !== undefined ? { "Content-Type": c.media } : {};
  // Each case from an address of its own: the per-address bound (10 a minute per link) would otherwise answer most.
  headers["X-Forwarded-For"] = `100.64.${Math.floor(c.from / 250)}.${c.from % 250}`;
  const prepared = { label: `${c.method} /s/…`, sent: { method: c.method, path, headers, body }, problems: [] as string[], unauthenticated: true, write: c.method === "POST", actsOn: c.segment === links.theirs ? ("other" as const) : ("own" as const) };
  const address = links.live.get(c.segment);
  const opens = address !== undefined && (c.method === "GET" || c.method === "HEAD") && ["", "/thanks", "/"].includes(c.suffix.split("?")[0]);
  const others = await links.others();
  await world.exchange(prepared, (a) => {
    const problems: string[] = [];
    const type = String(a.headers["content-type"] ?? "");
    if (a.status >= 500) problems.push(`5xx: status ${a.status}`);
    if (a.status === 303) {
      if (!String(a.headers.location ?? "").startsWith(`/s/${c.segment}/thanks`)) problems.push(`redirected elsewhere: ${a.headers.location}`);
      if (address === undefined || c.method !== "POST") problems.push(`303 for a link that opens nothing or a ${c.method}`);
    } else if (!/^text\/html/.test(type)) problems.push(`not a page: ${a.status} ${type}`);
    if (a.status === 200 && !opens && c.suffix !== "/withdraw") problems.push(`answered 200 at ${path}`);
    if (opens && a.status !== 200) problems.push(`a live link answered ${a.status}`);
    if (a.text.includes("<x-fuzz")) problems.push("markup from a field came back unescaped");
    if (a.status === 200 && c.method === "GET" && opens) {
      if (!a.text.includes(address!)) problems.push("the form does not show its own report");
      const leaked = others.find((other) => a.text.includes(other));
      if (leaked) problems.push(`another report's address on the form: ${leaked.slice(0, 60)}`);
    }
    return { ok: a.status < 400, problems };
  });
}
