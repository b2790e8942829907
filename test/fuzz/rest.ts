// REST requests derived from the OpenAPI document: every path and operation it lists (so a new route is fuzzed
// without new code), plus methods a path does not serve. Path parameters name rows of the fuzz team, of the other
// team, unknown ids or hostile text; query and header parameters and bodies are valid by their schemas with one or
// two hostile parts; keys are valid, missing, random or malformed.
import querystring from "node:querystring";
import fc from "fast-check";
import { hostileArb, hostileBodyArb, RAW_BODIES, validArb, type Schema } from "./arbitraries";
import type { Prepared, World } from "./harness";
import { Obj, Ref, toJsonText, type Val } from "./values";

export interface Param {
  name: string;
  description?: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  template: string;
  params: Param[];
  body?: Schema;
  /** Not in the document (a method the path does not serve): must not succeed. */
  undocumented?: boolean;
  /** The media type of a success that is not JSON (the report's PDF). */
  binary?: string;
  /** The parts of a multipart/form-data body (a photo's upload) instead of a JSON body. */
  multipart?: Schema;
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const PUBLIC_PATHS = /^\/v1\/openapi\.json$/;

/** An operation prints as its method and path in counterexamples (not its schemas). */
const named = (op: Operation): Operation => Object.assign(op, { [fc.toStringMethod]: () => `${op.method} ${op.template}${op.undocumented ? " (undocumented)" : ""}` });

/** Every operation of the document, and one undocumented method per path. */
export function operationsOf(doc: Record<string, any>): Operation[] {
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(doc.paths ?? {})) {
    if (PUBLIC_PATHS.test(template)) continue;
    const shared: any[] = item.parameters ?? [];
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...shared, ...(op.parameters ?? [])]
        .filter((p) => ["path", "query", "header"].includes(p.in))
        .map((p) => ({ name: p.name, in: p.in, description: p.description ?? p.schema?.description, required: Boolean(p.required || p.in === "path"), schema: p.schema ?? { type: "string" } }));
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const multipart = op.requestBody?.content?.["multipart/form-data"]?.schema;
      const success: Record<string, unknown> | undefined = op.responses?.["200"]?.content ?? op.responses?.["201"]?.content;
      // A success answer documented as another type too (a PDF; the usage export's text/csv) may come as that type.
      const binary = success ? Object.keys(success).find((type) => type !== "application/json") : undefined;
      ops.push(named({ method: method.toUpperCase(), template, params, body, ...(binary ? { binary } : {}), ...(multipart ? { multipart } : {}) }));
    }
    const served = METHODS.filter((m) => item[m]);
    const missing = METHODS.filter((m) => !item[m]);
    if (missing.length) {
      const like = item[served[0]];
      const params = (like?.parameters ?? []).filter((p: any) => p.in === "path").map((p: any) => ({ name: p.name, in: "path", required: true, schema: p.schema ?? {} }));
      for (const m of missing) ops.push(named({ method: m.toUpperCase(), template, params, undocumented: true, body: { type: "object" } }));
    }
  }
  return ops;
}

// ---- generated cases (pure data; placeholders are resolved when sent) ----

type Segment = { ref: Ref } | { raw: string };
type QueryPart = { name: string; raw: string } | { name: string; value: Val };
type Auth = "key" | "none" | "random" | "malformed-prefix" | "basic" | "lowercase-bearer" | "long" | "key-with-space" | "other-team-revoked";
type Body = { json: Val } | { raw: string; contentType?: string } | { multipart: Parts } | undefined;

/** Files an upload may carry (base64): which the API must accept, and which it must refuse. */
const FILES: Record<string, { base64: string; image: boolean }> = {
  // A 1×1 PNG and a 1×1 JPEG: images it accepts.
  png: { base64: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", image: true },
  jpeg: {
    base64:
      "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==",
    image: true,
  },
  text: { base64: Buffer.from("not a picture at all").toString("base64"), image: false },
  // A 1×1 GIF of two frames: animated, and not a JPEG, PNG or WebP.
  gif: { base64: "R0lGODlhAQABAIAAAAAAAP///yH/C05FVFNDQVBFMi4wAwEAAAAh+QQACgAAACwAAAAAAQABAAACAkQBACH5BAAKAAAALAAAAAABAAEAAAICTAEAOw==", image: false },
  // A PNG cut short: damaged.
  truncated: { base64: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk", image: false },
  empty: { base64: "", image: false },
};

interface Parts {
  /** A key of FILES, or none. */
  file: string | null;
  alt: Val | null;
  /** The position part as sent, or none. */
  position: string | null;
}

export const BOUNDARY = "fuzzBoundary7MA4YWxkTrZu0gW";

/** The multipart body as a latin1 string (its file bytes as they are, its text parts in UTF-8). */
export function multipartText(world: World, parts: Parts): string {
  const out: string[] = [];
  const text = (name: string, value: string) => out.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${Buffer.from(value, "utf8").toString("latin1")}\r\n`);
  if (parts.alt !== null) text("alt", typeof parts.alt === "string" ? parts.alt : toJsonText(parts.alt, (ref) => world.resolve(ref).value));
  if (parts.position !== null) text("position", parts.position);
  if (parts.file !== null) {
    const bytes = Buffer.from(FILES[parts.file].base64, "base64").toString("latin1");
    out.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.${parts.file}"\r\nContent-Type: application/octet-stream\r\n\r\n${bytes}\r\n`);
  }
  return `${out.join("")}--${BOUNDARY}--\r\n`;
}

function partsArb(op: Operation, d: World["oracle"]["deref"]): fc.Arbitrary<Parts> {
  const altSchema = (d(op.multipart!) as { properties?: Record<string, Schema> }).properties?.alt ?? { type: "string" };
  return fc.record({
    file: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("png", "jpeg") }, { weight: 3, arbitrary: fc.constantFrom(...Object.keys(FILES)) }, { weight: 1, arbitrary: fc.constant(null) }),
    alt: fc.oneof({ weight: 6, arbitrary: validArb(altSchema, "alt", d) }, { weight: 2, arbitrary: hostileArb(altSchema, "alt", d) }, { weight: 1, arbitrary: fc.constant(null) }),
    position: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: fc.integer({ min: 0, max: 39 }).map(String) }, { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_QUERY_VALUES) }),
  });
}

export interface RestCase {
  op: Operation;
  path: Record<string, Segment>;
  query: QueryPart[];
  headers: Array<[string, string]>;
  auth: Auth;
  body: Body;
}

const HOSTILE_SEGMENTS = [
  "%ZZ", "%", "%0", "%00", "a%00b", "%2e%2e", "..", "%2F", "a%2Fb", "%C0%AF", "%FF", "%E2%82", "%ED%A0%80", "%F0%9F%8F%A0",
  "%EF%BF%BF", "null", "undefined", "0", "-1", "1e3", "%20", "search", "%27%20OR%20%271%27%3D%271", "x".repeat(256),
  "x".repeat(4000), "9".repeat(10_000), "00000000-0000-0000-0000-000000000000", "00000000-0000-4000-8000-00000000000G",
  "%7B00000000-0000-4000-8000-000000000000%7D", "__proto__", "constructor",
];

const HOSTILE_QUERY_VALUES = [
  "0x10", "1e1", "%205%20", "+5", "-1", "0", "101", "99999999999999999999", "1.5", "abc", "%00", "%ZZ", "%", "NaN",
  "Infinity", "5abc", "%D9%A5", "00005", "2147483648", "-0", "", "%ED%A0%80", "a".repeat(2000), "true", "%5B%5D",
];

const HOSTILE_QUERY_NAMES = ["__proto__", "constructor%5Bprototype%5D%5Bpolluted%5D", "limit%5B%5D", "limit%5Ba%5D", "%ZZ", "a".repeat(1000), "status", "offset"];

const uuidPick = fc.integer({ min: 0, max: 1_000_000 });

function segmentArb(param: Param): fc.Arbitrary<Segment> {
  return fc.oneof(
    { weight: 14, arbitrary: uuidPick.map((pick) => ({ ref: new Ref(param.name, "own", pick) })) },
    { weight: 2, arbitrary: uuidPick.map((pick) => ({ ref: new Ref(param.name, "key", pick) })) },
    { weight: 2, arbitrary: uuidPick.map((pick) => ({ ref: new Ref(param.name, "other", pick) })) },
    { weight: 1, arbitrary: uuidPick.map((pick) => ({ ref: new Ref(param.name, "unknown", pick) })) },
    { weight: 1, arbitrary: uuidPick.map((pick) => ({ ref: new Ref("showingId", "own", pick) })) },
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS).map((raw) => ({ raw })) },
  );
}

/** Query text of a valid value (a placeholder names a row: a filter by another team's row lists nothing, so any). */
const queryText = (world: World, v: Val): string =>
  v instanceof Ref ? encodeURIComponent(world.resolve(v).value) : typeof v === "string" ? encodeURIComponent(v) : v instanceof Obj || Array.isArray(v) ? encodeURIComponent(JSON.stringify(v)) : String(v);

function queryArb(world: World, op: Operation): fc.Arbitrary<QueryPart[]> {
  const d = world.oracle.deref;
  const parts = op.params
    .filter((p) => p.in === "query")
    .map((p) =>
      fc.oneof(
        { weight: p.required ? 0 : 4, arbitrary: fc.constant([] as QueryPart[]) },
        { weight: 5, arbitrary: validArb(p.schema, p.name, d).map((value) => [{ name: p.name, value }] as QueryPart[]) },
        { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_QUERY_VALUES).map((raw) => [{ name: p.name, raw }] as QueryPart[]) },
        { weight: 1, arbitrary: fc.tuple(validArb(p.schema, p.name, d), fc.constantFrom(...HOSTILE_QUERY_VALUES)).map(([value, raw]) => [{ name: p.name, value }, { name: p.name, raw }] as QueryPart[]) },
      ),
    );
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as QueryPart[]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_QUERY_NAMES), fc.constantFrom(...HOSTILE_QUERY_VALUES)).map(([name, raw]) => [{ name, raw }] as QueryPart[]) },
  );
  return fc.tuple(extra, ...parts).map((lists) => lists.flat());
}

function headerArb(world: World, op: Operation): fc.Arbitrary<Array<[string, string]>> {
  const d = world.oracle.deref;
  const parts = op.params
    .filter((p) => p.in === "header")
    .map((p) =>
      fc.oneof(
        { weight: p.required ? 0 : 3, arbitrary: fc.constant([] as Array<[string, string]>) },
        { weight: 5, arbitrary: validArb(p.schema, p.name, d).map((v) => [[p.name, String(v)]] as Array<[string, string]>) },
        { weight: 2, arbitrary: fc.constantFrom("", " ", "a".repeat(300), "x".repeat(3000), "é", "\t").map((v) => [[p.name, v]] as Array<[string, string]>) },
      ),
    );
  return parts.length ? fc.tuple(...parts).map((l) => l.flat()) : fc.constant([]);
}

const authArb: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 40, arbitrary: fc.constant<Auth>("key") },
  { weight: 6, arbitrary: fc.constantFrom<Auth>("none", "random", "malformed-prefix", "basic", "lowercase-bearer", "long", "key-with-space") },
);

function bodyArb(world: World, op: Operation): fc.Arbitrary<Body> {
  const d = world.oracle.deref;
  const raw = fc.constantFrom(...RAW_BODIES).map((b) => ({ raw: b.text, contentType: b.contentType }) as Body);
  if (op.multipart) return fc.oneof({ weight: 12, arbitrary: partsArb(op, d).map((multipart) => ({ multipart }) as Body) }, { weight: 1, arbitrary: raw });
  if (!op.body) {
    return fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: raw });
  }
  const valid = validArb(op.body, "body", d);
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((json) => ({ json })) },
    { weight: 12, arbitrary: hostileBodyArb(op.body, d, valid).map((json) => ({ json })) },
    { weight: 1, arbitrary: hostileArb(undefined, "body", d).map((json) => ({ json })) },
    { weight: 2, arbitrary: raw },
  );
}

/** Any REST request of the document. */
export function restCaseArb(world: World, ops: Operation[]): fc.Arbitrary<RestCase> {
  // One arbitrary per operation, built once (building them per case costs more than the request).
  return fc.oneof(
    ...ops.map((op) => ({
      weight: op.undocumented ? 1 : 6,
      arbitrary: fc.record({
        op: fc.constant(op),
        path: fc.record(Object.fromEntries(op.params.filter((p) => p.in === "path").map((p) => [p.name, segmentArb(p)]))) as fc.Arbitrary<Record<string, Segment>>,
        query: queryArb(world, op),
        headers: headerArb(world, op),
        auth: authArb,
        body: bodyArb(world, op),
      }),
    })),
  );
}

const RANDOM_KEY = "prs_sk_live_" + "Zq8".repeat(10) + "x9";

function authHeader(world: World, auth: Auth): Record<string, string> {
  const key = world.own.key;
  switch (auth) {
    case "key":
      return { Authorization: `Bearer ${key}` };
    case "none":
      return {};
    case "random":
      return { Authorization: `Bearer ${RANDOM_KEY}` };
    case "malformed-prefix":
      return { Authorization: `Bearer ${key.replace("prs_sk_live_", "prs_sk_test_")}` };
    case "basic":
      return { Authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}` };
    case "lowercase-bearer":
      return { Authorization: `bearer${key}` };
    case "long":
      return { Authorization: `Bearer ${key}${"A".repeat(4000)}` };
    case "key-with-space":
      return { Authorization: `Bearer ${key.slice(0, 20)} ${key.slice(20)}` };
    default:
      return { Authorization: `Bearer ${RANDOM_KEY}` };
  }
}

/** Resolves a case into the request to send and what the oracle knows about it. */
export function prepareRest(world: World, c: RestCase): Prepared {
  const problems: string[] = [];
  const { op } = c;
  if (op.undocumented) problems.push(`${op.method} is not an operation of ${op.template}`);
  const queryPresent = c.query.length > 0;
  const bodyText: string[] = [];

  let path = op.template;
  for (const [name, seg] of Object.entries(c.path)) {
    let text: string;
    if ("ref" in seg) {
      const { value, exists } = world.resolve(seg.ref);
      text = encodeURIComponent(value);
      // A GET with query parameters may name its row otherwise (GET /v1/reports/{any}?address=…).
      if (!exists && !(op.method === "GET" && queryPresent)) problems.push(`${name} is ${seg.ref.kind === "other" ? "another team's id" : "no row of the team"}`);
      else if (seg.ref.hint !== name && world.tableFor(seg.ref.hint) !== world.tableFor(name) && !(op.method === "GET" && queryPresent)) problems.push(`${name} names a row of another table`);
    } else {
      text = seg.raw;
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(seg.raw);
      } catch {
        problems.push(`${name} has a bad percent-escape`);
      }
      if (decoded !== undefined && !(op.method === "GET" && queryPresent)) {
        const table = world.tableFor(name);
        const mine = table ? world.state[world.own.teamId][table] : undefined;
        if (!mine || !(mine.ids.includes(decoded) || mine.keys.includes(decoded))) problems.push(`${name} is no row of the team`);
      }
    }
    path = path.replace(`{${name}}`, text);
  }

  // Request heads stay under Node's 16 KB limit (headers here take at most about 7 KB): a head over it is answered by
  // the HTTP server before the app (431, checked by the tests of the server itself), which is not this suite's subject.
  const fits = (q: string) => path.length + q.length < 8_000;
  const queryString = c.query
    .map((q) => `${"raw" in q && !op.params.some((p) => p.name === q.name) ? q.name : encodeURIComponent(q.name)}=${"raw" in q ? q.raw : queryText(world, q.value)}`)
    .join("&");
  const sentQuery = fits(queryString) ? queryString : "";
  if (sentQuery) path += `?${sentQuery}`;
  const received = querystring.parse(sentQuery);
  // A parameter documented to make the others ignored (GET /v1/reports?address=…: "limit, offset and status are
  // ignored") leaves their values unjudged.
  const overriding = op.params.some((p) => p.in === "query" && received[p.name] !== undefined && /\bignored\b/i.test(p.description ?? ""));
  for (const p of op.params.filter((x) => x.in === "query")) {
    if (overriding && !/\bignored\b/i.test(p.description ?? "")) continue;
    problems.push(...world.oracle.paramProblems(p.name, p.schema, received[p.name], p.required));
  }

  const headers: Record<string, string> = { ...authHeader(world, c.auth) };
  for (const p of op.params.filter((x) => x.in === "header")) {
    const value = c.headers.find(([n]) => n === p.name)?.[1];
    if (value !== undefined) headers[p.name] = value;
    problems.push(...world.oracle.paramProblems(p.name, p.schema, value, p.required));
  }

  let body: string | undefined;
  let encoding: "latin1" | undefined;
  if (c.body && "multipart" in c.body && op.multipart) {
    const parts = c.body.multipart;
    body = multipartText(world, parts);
    encoding = "latin1";
    headers["Content-Type"] = `multipart/form-data; boundary=${BOUNDARY}`;
    if (parts.file === null || !FILES[parts.file].image) problems.push(`file is ${parts.file ?? "missing"}, not an image it accepts`);
    if (parts.alt === null) problems.push("no alt");
    else {
      const alt = typeof parts.alt === "string" ? parts.alt : undefined;
      const altSchema = (world.oracle.deref(op.multipart) as { properties?: Record<string, Schema> }).properties?.alt ?? { type: "string" };
      if (alt === undefined) problems.push("alt is not text");
      else problems.push(...world.oracle.valueProblems(altSchema, alt, "alt"));
      if (alt !== undefined && alt.trim() === "") problems.push("alt is blank");
    }
    if (parts.position !== null && !/^(?:[0-9]|[1-3][0-9])$/.test(parts.position)) problems.push(`position ${parts.position} is not 0 to 39`);
  } else if (c.body && "json" in c.body) {
    body = toJsonText(c.body.json, (ref) => world.resolve(ref).value);
    headers["Content-Type"] = "application/json";
    bodyText.push(body);
    if (op.body) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        problems.push("body is not JSON");
      }
      if (parsed !== undefined) problems.push(...world.oracle.valueProblems(op.body, parsed, ""));
      // A body field naming a row that is not the team's: the oracle cannot tell 404 from 201, so only forbid 2xx.
      collectRefs(c.body.json).forEach((ref) => {
        const { exists } = world.resolve(ref);
        if (!exists || world.tableFor(ref.hint) !== world.tableFor(refField(c.body, ref) ?? ref.hint)) problems.push(`${ref.hint} names no row of the team`);
      });
    }
  } else if (c.body && "raw" in c.body) {
    body = c.body.raw;
    const type = c.body.contentType ?? "application/json";
    if (type !== "") headers["Content-Type"] = type;
    if (op.multipart) problems.push("body is no upload (no file part)");
    if (op.body) {
      // JSON in UTF-8 with a JSON type is judged like any body (a leading BOM is tolerated); anything else is invalid.
      let parsed: unknown;
      try {
        parsed = /^application\/json(;\s*charset=utf-8)?$/i.test(type) ? JSON.parse(body.replace(/^\uFEFF/, "")) : undefined;
      } catch {
        parsed = undefined;
      }
      if (parsed === undefined) problems.push("body is not a JSON text of type application/json");
      else problems.push(...world.oracle.valueProblems(op.body, parsed, ""));
    }
  } else if (op.body && op.method !== "DELETE") {
    problems.push("no body");
  } else if (op.multipart) {
    problems.push("no body");
  }

  const unauthenticated = c.auth !== "key";
  if (unauthenticated) problems.push("no valid key");
  return {
    label: `${op.method} ${op.template}`,
    sent: { method: op.method, path, headers, body, ...(encoding ? { encoding } : {}) },
    problems,
    unauthenticated,
    write: op.method !== "GET",
    binary: op.binary,
  };
}

function collectRefs(v: Val, out: Ref[] = []): Ref[] {
  if (v instanceof Ref) out.push(v);
  else if (v instanceof Obj) v.entries.forEach(([, x]) => collectRefs(x, out));
  else if (Array.isArray(v)) v.forEach((x) => collectRefs(x, out));
  return out;
}

/** The name of the body field that holds a placeholder (a hostile placeholder may point at another table). */
function refField(body: Body, ref: Ref): string | undefined {
  if (!body || !("json" in body) || !(body.json instanceof Obj)) return undefined;
  return body.json.entries.find(([, v]) => v === ref)?.[0];
}

/** Sends one REST case and checks its answer. */
export async function runRest(world: World, c: RestCase, readers: Operation[]): Promise<void> {
  const prepared = prepareRest(world, c);
  const answer = await world.exchange(prepared, (a) => ({ ok: a.status >= 200 && a.status < 300, problems: world.restProblems(prepared, a) }));
  if (answer && prepared.write && answer.status >= 200 && answer.status < 300) await readBack(world, prepared, readers);
}

/**
 * After a successful write: what was stored must read back without a 5xx, in every list and in the detail of the
 * most recently changed row of each table the document has a GET for.
 */
export async function readBack(world: World, cause: Prepared, readers: Operation[]): Promise<void> {
  for (const op of readers) {
    let path = op.template;
    const pathParams = op.params.filter((p) => p.in === "path");
    let skip = false;
    for (const p of pathParams) {
      const table = world.tableFor(p.name);
      const id = table ? world.state[world.own.teamId][table]?.ids[0] : undefined;
      if (!id) skip = true;
      else path = path.replace(`{${p.name}}`, encodeURIComponent(id));
    }
    if (skip) continue;
    if (op.params.some((p) => p.in === "query" && p.name === "limit")) path += "?limit=100";
    const prepared: Prepared = {
      label: `read back ${op.method} ${op.template}`,
      sent: { method: "GET", path, headers: { Authorization: `Bearer ${world.own.key}` } },
      problems: [],
      unauthenticated: false,
      write: false,
      binary: op.binary,
    };
    await world.exchange(prepared, (a) => {
      const problems = world.restProblems(prepared, a).map((p) => `${p} — after ${cause.sent.method} ${cause.sent.path} ${cause.sent.body?.slice(0, 2000) ?? ""}`);
      return { ok: a.status < 300, problems };
    });
  }
}

/** GET operations without required query parameters: what read-back requests. */
export function readersOf(ops: Operation[]): Operation[] {
  return ops.filter((op) => op.method === "GET" && !op.undocumented && !op.params.some((p) => p.in === "query" && p.required) && op.params.filter((p) => p.in === "path").length <= 1);
}

/** Creates rows through every documented POST (parents first), so path parameters have rows to name. */
export async function seedRows(world: World, ops: Operation[], team: "own" | "other", perOp: number, seed: number): Promise<void> {
  const posts = ops.filter((op) => op.method === "POST" && !op.undocumented && (op.body || op.multipart)).sort((a, b) => a.params.length - b.params.length);
  const t = team === "own" ? world.own : world.other;
  let n = 0;
  for (const op of posts) {
    if (op.multipart) {
      // A photo (the 1×1 PNG) for each of the first perOp rows the path can name.
      for (let i = 0; i < perOp; i++) {
        let path = op.template;
        for (const p of op.params.filter((x) => x.in === "path")) path = path.replace(`{${p.name}}`, encodeURIComponent(world.resolve(new Ref(p.name, "own", n), t).value));
        n++;
        const marker = team === "other" ? ` ${world.marker}` : "";
        const body = multipartText(world, { file: "png", alt: `Seeded photo ${i}${marker}`, position: null });
        await world.client.send({ method: "POST", path, headers: { Authorization: `Bearer ${t.key}`, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` }, body, encoding: "latin1" });
        await world.refresh();
      }
      continue;
    }
    const arb = validArb(op.body!, "body", world.oracle.deref, { marker: team === "other" ? world.marker : undefined, optionalRate: 0.7 });
    for (const value of fc.sample(arb, { seed: seed + n++, numRuns: perOp })) {
      let path = op.template;
      for (const p of op.params.filter((x) => x.in === "path")) path = path.replace(`{${p.name}}`, encodeURIComponent(world.resolve(new Ref(p.name, "own", n), t).value));
      const body = toJsonText(value, (ref) => world.resolve(new Ref(ref.hint, "own", ref.pick), t).value);
      await world.client.send({ method: "POST", path, headers: { Authorization: `Bearer ${t.key}`, "Content-Type": "application/json" }, body });
      await world.refresh();
    }
  }
}
