// GraphQL requests derived from the schema the app serves (introspection): every query, mutation and subscription field with
// variables built from its argument types — bounds taken from the REST field of the same name in the OpenAPI
// document — and one or two hostile values; literal arguments; deep nesting along a cycle of the type graph; many
// aliases; malformed documents and transports. A subscription is sent as server-sent events (sometimes with a hostile
// Last-Event-ID) or as a plain POST, which must be refused with a clear error rather than hang.
import fc from "fast-check";
import {
  buildClientSchema,
  getIntrospectionQuery,
  parse,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";
import { config } from "../../src/config";
import { schema as servedSchema } from "../../src/schema";
import { bytesFromQuery } from "../../src/schema/limits";
import { hostileBodyArb, isIdName, RAW_BODIES, validArb, type Schema } from "./arbitraries";
import type { Prepared, World } from "./harness";
import { readBack, type Operation } from "./rest";
import { isObj, Obj, Raw, Ref, toJsonText, type Val } from "./values";

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const INT32 = { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 };

export interface GqlModel {
  schema: GraphQLSchema;
  /** REST field and parameter schemas by snake_case name (bounds for GraphQL arguments of the same name). */
  restFields: Map<string, Schema>;
  fields: Array<{ kind: "query" | "mutation" | "subscription"; field: GraphQLField<unknown, unknown> }>;
  /** A cycle of the type graph for deep queries: root field with an id argument, then field names that lead back. */
  cycle?: { root: string; hops: [string, string] };
}

export async function introspect(world: World): Promise<GqlModel> {
  const answer = await world.client.send({
    method: "POST",
    path: "/graphql",
    headers: { Authorization: `Bearer ${world.own.key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ query: getIntrospectionQuery() }),
  });
  const data = (answer.json as { data?: IntrospectionQuery }).data;
  if (!data) throw new Error(`introspection failed: ${answer.status} ${answer.text.slice(0, 300)}`);
  const schema = buildClientSchema(data);
  const restFields = new Map<string, Schema>();
  for (const item of Object.values<Record<string, any>>(world.doc.paths ?? {})) {
    for (const op of Object.values<any>(item)) {
      if (!isObj(op)) continue;
      for (const p of (op as any).parameters ?? []) if (!restFields.has(p.name)) restFields.set(p.name, p.schema);
      const body = (op as any).requestBody?.content?.["application/json"]?.schema;
      if (body) for (const [k, v] of Object.entries<Schema>(world.oracle.deref(body).properties ?? {})) if (!restFields.has(k)) restFields.set(k, v);
    }
  }
  const fields: GqlModel["fields"] = [];
  for (const [kind, type] of [["query", schema.getQueryType()], ["mutation", schema.getMutationType()], ["subscription", schema.getSubscriptionType()]] as const) {
    for (const field of Object.values(type?.getFields() ?? {})) fields.push({ kind, field });
  }
  return { schema, restFields, fields, cycle: findCycle(schema) };
}

function findCycle(schema: GraphQLSchema): GqlModel["cycle"] {
  for (const root of Object.values(schema.getQueryType()?.getFields() ?? {})) {
    if (!root.args.some((a) => a.name === "id")) continue;
    const t = getNamedType(root.type);
    if (!isObjectType(t)) continue;
    for (const f1 of Object.values(t.getFields())) {
      const u = getNamedType(f1.type);
      if (!isObjectType(u) || !isListType(isNonNullType(f1.type) ? f1.type.ofType : f1.type)) continue;
      const f2 = Object.values(u.getFields()).find((f) => getNamedType(f.type) === t && f.args.every((a) => !isNonNullType(a.type)));
      if (f2) return { root: root.name, hops: [f1.name, f2.name] };
    }
  }
  return undefined;
}

/** The JSON Schema of a GraphQL input type: its GraphQL rules, plus the REST bounds of a field of the same name. */
function inputSchema(model: GqlModel, type: GraphQLInputType, name: string): Schema {
  const nonNull = isNonNullType(type);
  const inner = nonNull ? type.ofType : type;
  let s: Schema;
  if (isListType(inner)) {
    // GraphQL coerces a single value given for a list into a list of that one value (input coercion of lists).
    const items = inputSchema(model, inner.ofType, name);
    s = { anyOf: [{ type: "array", items }, items] };
  }
  else if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    s = {
      type: "object",
      properties: Object.fromEntries(fields.map((f) => [f.name, inputSchema(model, f.type, f.name)])),
      required: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => f.name),
    };
  } else if (isEnumType(inner)) s = { type: "string", enum: inner.getValues().map((v) => v.name) };
  else {
    const rest = model.restFields.get(snake(name));
    const scalar = isScalarType(inner) ? inner.name : "String";
    const base: Schema =
      scalar === "Int" ? { type: "integer", ...INT32 } : scalar === "Float" ? { type: "number" } : scalar === "Boolean" ? { type: "boolean" } : scalar === "DateTime" ? { type: "string", format: "date-time" } : scalar === "JSON" ? {} : { type: "string" };
    if (scalar === "ID" && isIdName(name)) base.format = "uuid";
    const restType = rest && [rest.type].flat().filter((t: string) => t !== "null");
    const compatible = rest && !rest.enum && restType?.every((t: string) => t === base.type || (t === "integer" && base.type === "number"));
    s = compatible ? { ...rest, type: base.type, ...(base.type === "integer" ? { minimum: Math.max(rest.minimum ?? INT32.minimum, INT32.minimum), maximum: Math.min(rest.maximum ?? INT32.maximum, INT32.maximum) } : {}) } : base;
    delete s.default;
  }
  if (!nonNull && s.type) s = { ...s, type: [s.type, "null"].flat() };
  return s;
}

/** A selection set of a type: its scalar fields, and nested objects up to `depth`. */
function selection(type: GraphQLOutputType, depth: number, rnd: number): string {
  const t = getNamedType(type);
  if (!isObjectType(t)) return "";
  const fields = Object.values((t as GraphQLObjectType).getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined));
  const leaves = fields.filter((f) => !isObjectType(getNamedType(f.type))).map((f) => f.name);
  const nested = depth > 0 ? fields.filter((f, i) => isObjectType(getNamedType(f.type)) && (rnd >> i) % 2 === 1).map((f) => `${f.name} { ${selection(f.type, depth - 1, rnd >> 3)} }`) : [];
  return [...(leaves.length ? leaves : ["__typename"]), ...nested].join(" ");
}

/** A GraphQL literal of a value (hostile values make invalid documents, which is the point). */
function literal(v: Val, resolve: (r: Ref) => string): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Ref) return JSON.stringify(resolve(v));
  if (v instanceof Obj) return `{${v.entries.map(([k, x]) => `${k}: ${literal(x, resolve)}`).join(", ")}}`;
  if (Array.isArray(v)) return `[${v.map((x) => literal(x, resolve)).join(", ")}]`;
  if (v === null) return "null";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "1e400";
  return JSON.stringify(v);
}

export type GqlCase =
  | { kind: "operation"; op: "query" | "mutation" | "subscription"; field: string; variables: Obj; inline: boolean; depth: number; rnd: number; auth: boolean; stream: StreamAsk }
  | { kind: "deep"; depth: number }
  | { kind: "aliases"; count: number; limit: number; nested: boolean }
  | { kind: "longText"; field: "description" | "executiveSummary"; copies: number; levels: number; limit: number; fragment: boolean; every: boolean }
  | { kind: "document"; query: string }
  | { kind: "named"; depth: number; shape: "deep second" | "deep first" | "unknown name" | "no name" | "via fragment" }
  | { kind: "nested"; form: number; levels: number; method: "POST" | "GET" }
  | { kind: "transport"; body: string; contentType?: string; method: "POST" | "GET"; path?: string }
  | { kind: "incremental"; query: string; accept: string };

/** How a subscription is asked for: as server-sent events or not, and with which Last-Event-ID (none: live). */
type StreamAsk = { sse: boolean; lastEventId?: string } | null;

/** Last-Event-ID values that name no event of the team: unknown, malformed, hostile. */
const LAST_EVENT_IDS = ["evt_AAAAAAAAAAAAAAAAAAAAAAAA", "evt_", "42", "evt_../../etc/passwd", "evt_' OR '1'='1", `evt_${"x".repeat(500)}`, "\u00e9v\u00e9nement", "null"];

const streamAskArb: fc.Arbitrary<StreamAsk> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ sse: true }) },
  { weight: 1, arbitrary: fc.constantFrom(...LAST_EVENT_IDS).map((lastEventId) => ({ sse: true, lastEventId })) },
  { weight: 1, arbitrary: fc.constant({ sse: false }) },
);

const MALFORMED_DOCUMENTS = [
  "{",
  "{ reports { items { id } }",
  "{ __typename }",
  "{ unknownField }",
  "fragment A on Report { ...B } fragment B on Report { ...A } { reports { items { ...A } } }",
  "query Q { __typename } query Q { __typename }",
  "{ reports(limit: 99999999999) { total } }",
  "{ reports(limit: -1) { total } }",
  "{ reports(limit: 1.5) { total } }",
  "{ reports(limit: 0) { total } }",
  "{ reports(offset: 2147483648) { total } }",
  "{ reports(status: bogus) { total } }",
  '{ reports(limit: "10") { total } }',
  "subscription { __typename }",
  "mutation { deleteReport }",
  '{ report(id: "\\u0000") { id } }',
  '{ report(id: "\\uD800") { id } }',
  '{ showing(id: "%ZZ") { id } }',
  '{ reportByAddress(address: "\\u0000") { id } }',
  `{ ${"__typename ".repeat(20_000)}}`,
  `{ ${Array.from({ length: 2000 }, (_, i) => `a${i}: __typename`).join(" ")} }`,
  "{ __typename @include(if: \"yes\") }",
  "{ __typename @skip(if: true) @skip(if: false) }",
  "{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }",
  "query ($x: Int = 99999999999) { reports(limit: $x) { total } }",
  "query ($x: String!) { __typename }",
  `{ ${"reports { items { ".repeat(40)}id${" } }".repeat(40)} }`,
  "# only a comment",
  "",
];

const TRANSPORTS: Array<Extract<GqlCase, { kind: "transport" }>> = [
  { kind: "transport", method: "POST", body: '{"query": 42}' },
  { kind: "transport", method: "POST", body: '{"query": "{ __typename }", "variables": "x"}' },
  { kind: "transport", method: "POST", body: '{"query": "{ __typename }", "variables": [1]}' },
  { kind: "transport", method: "POST", body: '[{"query": "{ __typename }"}]' },
  { kind: "transport", method: "POST", body: '{"query": "{ __typename }", "operationName": "Missing"}' },
  { kind: "transport", method: "POST", body: '{"query": "{ __typename }", "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "abc"}}}' },
  { kind: "transport", method: "POST", body: '{"query": "{ __typename }"}', contentType: "text/plain" },
  { kind: "transport", method: "POST", body: "{ __typename }", contentType: "application/graphql" },
  { kind: "transport", method: "POST", body: "{}" },
  { kind: "transport", method: "GET", body: "", path: "/graphql?query=mutation%7BdeleteReport(id%3A%22x%22)%7D" },
  { kind: "transport", method: "GET", body: "", path: "/graphql?query=%ZZ" },
  { kind: "transport", method: "GET", body: "", path: "/graphql?query=%7B__typename%7D&variables=%7B" },
  { kind: "transport", method: "GET", body: "", path: "/graphql?query=%7B__typename%7D&variables=%00" },
  // Trusted documents by documentId (GraphQL-over-HTTP persisted documents): unknown, malformed, not text, sent
  // beside a query, by GET with hostile escapes — each a clear 4xx.
  { kind: "transport", method: "POST", body: `{"documentId": "sha256:${"0".repeat(64)}", "variables": {"id": "x"}}` },
  { kind: "transport", method: "POST", body: '{"documentId": "sha256:xyz"}' },
  { kind: "transport", method: "POST", body: '{"documentId": 42}' },
  { kind: "transport", method: "POST", body: '{"documentId": null, "query": "{ __typename }"}' },
  { kind: "transport", method: "POST", body: `{"documentId": "sha256:${"a".repeat(64)}", "query": "{ __typename }"}` },
  { kind: "transport", method: "GET", body: "", path: `/graphql?documentId=sha256%3A${"0".repeat(64)}&variables=%7B%7D` },
  { kind: "transport", method: "GET", body: "", path: "/graphql?documentId=%ZZ" },
  { kind: "transport", method: "GET", body: "", path: "/graphql?documentId=sha256%3Aabc&documentId=x&query=%7B__typename%7D" },
  ...RAW_BODIES.map((b) => ({ kind: "transport" as const, method: "POST" as const, body: b.text, contentType: b.contentType })),
];

// Incremental delivery (docs/api.md "Incremental delivery"): @defer and @stream, valid and not, nested, labelled,
// with hostile arguments, past the limits, on a mutation's root, asked for as parts or as JSON only.
const INCREMENTAL_DOCUMENTS = [
  "{ reports(limit: 3) { items { id ... @defer { address showings { id } } } } }",
  '{ reports(limit: 3) { items { id ... @defer(label: "a") { address ... @defer(label: "b") { comparables { id } } } } } }',
  '{ reports(limit: 3) { items { id ... @defer(label: "a") { address } ... @defer(label: "a") { city } } } }',
  "{ reports(limit: 3) { items @stream(initialCount: 0) { id } } }",
  "{ reports(limit: 3) { items @stream(initialCount: 1) { id showings @stream { id } } } }",
  "{ reports(limit: 3) { items @stream(initialCount: -1) { id } } }",
  '{ reports(limit: 3) { items @stream(initialCount: "x") { id } } }',
  "{ reports(limit: 1) @stream { total } }",
  '{ reports(limit: 1) { items { id ... @defer(if: "yes") { address } } } }',
  "query ($d: Boolean) { reports(limit: 1) { items { id ... @defer(if: $d) { address } } } }",
  "{ ... @defer { reports(limit: 1) { total } } }",
  "mutation { ... @defer { deleteReport(id: \"00000000-0000-4000-8000-000000000000\") } }",
  "subscription { ... @defer { __typename } }",
  "{ reports(limit: 100) { items { id ... @defer { a: comparables { id } b: comparables { id } showings { id } socialMediaPosts { id } agentInsights { id } } } } }",
  "{ reports(limit: 100) { items { id ... @defer { description executiveSummary showings { feedback } } } } }",
  "fragment F on Report { address } { reports(limit: 2) { items { id ...F @defer } } }",
  "{ reports(limit: 2) { items { id ... @defer @defer { address } } } }",
  "{ report(id: \"00000000-0000-4000-8000-000000000000\") { id ... @defer { address } } }",
];

/** Any GraphQL request. */
// Long text repeated (docs/api.md "GraphQL limits", size): a report's 20,000-character field under 1 to 40 aliases,
// directly or through a fragment, at the bottom or at every level of report → showings → report back-references.
const longTextArb = fc.record({
  kind: fc.constant("longText" as const),
  field: fc.constantFrom("description" as const, "executiveSummary" as const),
  copies: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 31, max: 40 })),
  levels: fc.integer({ min: 0, max: 4 }),
  limit: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 90, max: 100 })),
  fragment: fc.boolean(),
  every: fc.boolean(),
});

export function gqlCaseArb(world: World, model: GqlModel): fc.Arbitrary<GqlCase> {
  const d = world.oracle.deref;
  const opArbs = model.fields.map(({ kind, field }) => {
    const vars: Schema = {
      type: "object",
      properties: Object.fromEntries(field.args.map((a) => [a.name, a.name === "id" ? { type: "string", format: "uuid", "x-hint": field.name } : inputSchema(model, a.type, a.name)])),
      required: field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined).map((a) => a.name),
    };
    // Top-level `id` arguments name rows of the field's table (report → reports, deleteShowing → showings).
    const fix = (v: Val): Obj => (v instanceof Obj ? new Obj(v.entries.map(([k, x]) => [k, k === "id" && x instanceof Ref ? new Ref(field.name, x.kind, x.pick) : x])) : new Obj([]));
    const valid = validArb(vars, "variables", d, { optionalRate: 0.6 }).map(fix);
    // Inputs: one or two hostile fields inside the input object; other arguments: hostile themselves.
    const inputArg = field.args.find((a) => isInputObjectType(isNonNullType(a.type) ? a.type.ofType : a.type));
    const hostile = inputArg
      ? fc.tuple(valid, hostileBodyArb(inputSchema(model, inputArg.type, inputArg.name), d, validArb(inputSchema(model, inputArg.type, inputArg.name), inputArg.name, d, { optionalRate: 0.6 }))).map(
          ([v, input]) => new Obj(v.entries.map(([k, x]) => [k, k === inputArg.name ? input : x])),
        )
      : field.args.length
        ? hostileBodyArb(vars, d, valid).map(fix)
        : valid;
    return fc.record({
      kind: fc.constant("operation" as const),
      op: fc.constant(kind),
      field: fc.constant(field.name),
      variables: fc.oneof({ weight: 1, arbitrary: valid }, { weight: 3, arbitrary: hostile }) as fc.Arbitrary<Obj>,
      inline: fc.boolean().map((b) => b && !inputArg && field.args.length > 0),
      depth: fc.integer({ min: 0, max: 2 }),
      rnd: fc.nat(),
      auth: fc.oneof({ weight: 20, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
      stream: kind === "subscription" ? streamAskArb : fc.constant(null),
    });
  });
  return fc.oneof(
    { weight: 30, arbitrary: fc.oneof(...opArbs) },
    { weight: model.cycle ? 3 : 0, arbitrary: fc.integer({ min: 2, max: 30 }).map((depth) => ({ kind: "deep" as const, depth })) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("aliases" as const), count: fc.integer({ min: 2, max: 60 }), limit: fc.integer({ min: 1, max: 100 }), nested: fc.boolean() }) },
    { weight: 3, arbitrary: longTextArb },
    { weight: 3, arbitrary: fc.constantFrom(...MALFORMED_DOCUMENTS).map((query) => ({ kind: "document" as const, query })) },
    { weight: 3, arbitrary: fc.constantFrom(...TRANSPORTS) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("incremental" as const),
        query: fc.constantFrom(...INCREMENTAL_DOCUMENTS),
        accept: fc.constantFrom("multipart/mixed", "multipart/mixed", "text/event-stream", "application/json", "*/*"),
      }),
    },
    {
      weight: model.cycle ? 3 : 0,
      arbitrary: fc.record({
        kind: fc.constant("named" as const),
        depth: fc.integer({ min: 2, max: 30 }),
        shape: fc.constantFrom("deep second" as const, "deep first" as const, "unknown name" as const, "no name" as const, "via fragment" as const),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("nested" as const),
        form: fc.nat({ max: NESTED_FORMS.length - 1 }),
        levels: fc.oneof(fc.integer({ min: NESTING_BOUND + 1, max: 200 }), fc.integer({ min: 200, max: 5000 })),
        method: fc.constantFrom("POST" as const, "GET" as const),
      }),
    },
  );
}

/** GraphQL limits: depth of fields (a top-level field is 1), and the bracket nesting a document or its variables may have. */
const DEPTH_LIMIT = 12;
const NESTING_BOUND = 64;
const VARIABLES_BOUND = 32;

const deep = (open: string, middle: string, close: string, n: number) => open.repeat(n) + middle + close.repeat(n);

/** Documents (or variables) nested `n` levels in each way the parser or a JSON walker recurses: [query, variables]. */
const NESTED_FORMS: Array<(n: number) => [string, string | undefined]> = [
  (n) => [`{ report(id: ${deep("[", '"x"', "]", n)}) { id } }`, undefined],
  (n) => [`{ reports ${deep("{ items ", "{ id }", " }", n)} }`, undefined],
  (n) => [`mutation { createReport(input: ${deep("{ a: ", "1", " }", n)}) { id } }`, undefined],
  (n) => [`query($v: ${deep("[", "String", "]", n)} = ${deep("[", '"x"', "]", n)}) { __typename }`, undefined],
  (n) => ["query($v: JSON) { __typename }", `{"v": ${deep("[", "1", "]", n)}}`],
  (n) => [`{ __typename ${"# (".repeat(n)}\n}`, undefined], // brackets in a comment do not nest
];

/** The deepest field of a selection text: its braces (the operation's own is the first level). */
const depthOf = (selection: string) => {
  let depth = 0;
  let deepest = 0;
  for (const c of selection) if (c === "{") deepest = Math.max(deepest, ++depth);
  else if (c === "}") depth--;
  return deepest;
};

interface Built {
  prepared: Prepared;
  /** The mutation or query field whose value tells success. */
  field?: string;
  /** The answer must be a 400 with a GraphQL error saying why (refused before parsing or before anything runs). */
  refused?: RegExp;
  /** The answer's body may not be longer (MAX_RESPONSE_BYTES). */
  maxBytes?: number;
}

function build(world: World, model: GqlModel, c: GqlCase, chainId?: string): Built {
  const auth = { Authorization: `Bearer ${world.own.key}` };
  const post = (payload: unknown, label: string, problems: string[] = [], write = true, headers: Record<string, string> = auth): Prepared => ({
    label,
    sent: { method: "POST", path: "/graphql", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(payload) },
    problems,
    unauthenticated: headers !== auth,
    write,
  });
  switch (c.kind) {
    case "operation": {
      const { field, kind } = model.fields.find((f) => f.kind === c.op && f.field.name === c.field)!;
      const resolve = (r: Ref) => world.resolve(r).value;
      const problems: string[] = [];
      const values = c.variables.entries;
      // Judged as the server parses them: the last of repeated keys wins.
      let parsedVars: Record<string, unknown> = {};
      try {
        parsedVars = JSON.parse(toJsonText(c.variables, resolve));
      } catch {
        problems.push("variables are not JSON");
      }
      for (const a of field.args) {
        const schema = a.name === "id" ? { type: "string" } : inputSchema(model, a.type, a.name);
        if (!Object.prototype.hasOwnProperty.call(parsedVars, a.name)) {
          if (isNonNullType(a.type) && a.defaultValue === undefined) problems.push(`${a.name} is required`);
          continue;
        }
        problems.push(...world.oracle.valueProblems(schema, parsedVars[a.name], a.name));
        // A row to act on must be the team's; a filter (showings(reportId:)) by another row simply finds nothing.
        const v = [...values].reverse().find(([k]) => k === a.name)?.[1];
        const target = kind !== "query" || a.name === "id";
        for (const ref of target && v !== undefined ? refs(v) : []) {
          const { exists } = world.resolve(ref);
          if (!exists) problems.push(`${ref.hint} names no row of the team`);
        }
      }
      const sel = selection(field.type, c.depth, c.rnd);
      const body = sel ? ` { ${sel} }` : "";
      let query: string;
      let variables = "{}";
      if (c.inline) {
        const args = values.filter(([k]) => field.args.some((a) => a.name === k)).map(([k, v]) => `${k}: ${literal(v, resolve)}`);
        query = `${kind} { ${field.name}${args.length ? `(${args.join(", ")})` : ""}${body} }`;
      } else {
        const decl = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
        const args = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
        query = `${kind} Fuzz${decl ? `(${decl})` : ""} { ${field.name}${args ? `(${args})` : ""}${body} }`;
        variables = toJsonText(c.variables, resolve);
      }
      if (!c.auth) problems.push("no valid key");
      if (c.stream?.lastEventId) problems.push("Last-Event-ID names no event of the team");
      if (c.stream && !c.stream.sse) problems.push("a subscription not asked for as text/event-stream");
      const prepared = post({ query, variables }, `graphql ${kind} ${field.name}`, problems, kind === "mutation", c.auth ? auth : { Authorization: "Bearer prs_sk_live_Zq8Zq8Zq8Zq8Zq8Zq8Zq8Zq8Zq8Zq8x9" });
      // Variables as generated JSON text: raw literals (1e400), repeated and __proto__ keys reach the server as written.
      prepared.sent.body = c.inline ? JSON.stringify({ query }) : `{"query":${JSON.stringify(query)},"variables":${variables as string}}`;
      if (c.stream?.sse) prepared.sent.headers.Accept = "text/event-stream";
      if (c.stream?.lastEventId) prepared.sent.headers["Last-Event-ID"] = c.stream.lastEventId;
      return { prepared, field: field.name };
    }
    case "deep": {
      const [down, up] = model.cycle!.hops;
      let inner = "id";
      for (let i = 0; i < c.depth; i++) inner = i % 2 === 0 ? `${up} { ${inner} }` : `${down} { ${inner} }`;
      if (c.depth % 2 === 1) inner = `${down} { ${inner} }`;
      const query = `query Deep($id: ID!) { ${model.cycle!.root}(id: $id) { id ${down} { id ${inner} } } }`;
      return { prepared: post({ query, variables: { id: chainId ?? "00000000-0000-4000-8000-000000000000" } }, `graphql deep nesting`, [], false) };
    }
    case "aliases": {
      const inner = c.nested ? "items { id address showings { id } }" : "items { id address } total";
      const query = `{ ${Array.from({ length: c.count }, (_, i) => `a${i}: reports(limit: ${c.limit}) { ${inner} }`).join(" ")} }`;
      return { prepared: post({ query }, "graphql many aliases", [], false) };
    }
    case "longText": {
      // Its text alone, at 20,000 bytes a value, bounds the answer from below: past MAX_RESPONSE_BYTES it must be
      // refused before it runs (by the size, or by the object or alias limit first); any answer stays within it.
      const text = Array.from({ length: c.copies }, (_, i) => `t${i}: ${c.field}`).join(" ");
      const here = c.fragment ? "...Text" : text;
      let inner = here;
      for (let i = 0; i < c.levels; i++) inner = `${c.every ? `${here} ` : ""}showings(limit: ${c.limit}) { id report { ${inner} } }`;
      const fragment = c.fragment ? ` fragment Text on Report { ${text} }` : "";
      const query = `query LongText($id: ID!) { report(id: $id) { id ${inner} } }${fragment}`;
      let values = 1;
      for (let i = 1, n = 1; i <= c.levels; i++) values = c.every ? values + (n *= c.limit) : (n *= c.limit);
      const prepared = post({ query, variables: { id: chainId ?? "00000000-0000-4000-8000-000000000000" } }, "graphql long text", [], false);
      prepared.sent.headers.Accept = "application/graphql-response+json";
      const maxBytes = config.MAX_RESPONSE_BYTES;
      const refused = c.copies * values * 20_000 > maxBytes ? /^Response too large: it can return|aliases, the limit is 30|objects, the limit is/ : undefined;
      return { prepared, refused, maxBytes };
    }
    case "named": {
      // Several operations, one named to run: the limits are those of the operation that runs.
      const [down, up] = model.cycle!.hops;
      // root → down → up → down …: the field `j` levels below `down` is `up` when j is even (built from the inside).
      let inner = "id";
      for (let j = c.depth - 1; j >= 0; j--) inner = `${j % 2 === 0 ? up : down} { ${inner} }`;
      const heavy = `{ ${model.cycle!.root}(id: $id) { id ${down} { id ${inner} } } }`;
      const harmless = "{ __typename }";
      const variables = { id: chainId ?? "00000000-0000-4000-8000-000000000000" };
      const tooDeep = depthOf(heavy) > DEPTH_LIMIT;
      // Under the GraphQL-over-HTTP media type a refusal by the limits is a 400 (under legacy JSON, a 200).
      const strict = (prepared: Prepared): Prepared => ({ ...prepared, sent: { ...prepared.sent, headers: { ...prepared.sent.headers, Accept: "application/graphql-response+json" } } });
      switch (c.shape) {
        case "deep second":
          return { prepared: strict(post({ query: `query A ${harmless} query B($id: ID!) ${heavy}`, variables, operationName: "B" }, "graphql named operation", [], false)), refused: tooDeep ? /depth \d+, the limit is 12/ : undefined };
        case "via fragment":
          return {
            prepared: strict(post({ query: `query A ${harmless} query B($id: ID!) { ...F } fragment F on Query ${heavy}`, variables, operationName: "B" }, "graphql named operation", [], false)),
            refused: tooDeep ? /depth \d+, the limit is 12/ : undefined,
          };
        case "deep first":
          return { prepared: post({ query: `query A($id: ID!) ${heavy} query B ${harmless}`, variables, operationName: "B" }, "graphql named operation", [], false), field: "__typename" };
        case "unknown name":
          return { prepared: post({ query: `query A ${harmless} query B($id: ID!) ${heavy}`, variables, operationName: "C" }, "graphql named operation", [], false), refused: /Unknown operation named "C"/ };
        case "no name":
          return { prepared: post({ query: `query A ${harmless} query B($id: ID!) ${heavy}`, variables }, "graphql named operation", [], false), refused: /Must provide operation name/ };
      }
      break;
    }
    case "nested": {
      const levels = c.method === "GET" ? Math.min(c.levels, 400) : c.levels; // a GET's URL is in the 16 KB request head
      const [query, variables] = NESTED_FORMS[c.form](levels);
      const inComment = c.form === NESTED_FORMS.length - 1;
      const refused = inComment ? undefined : variables ? new RegExp(`nested more than ${VARIABLES_BOUND} levels`) : new RegExp(`nested more than ${NESTING_BOUND} levels`);
      const label = `graphql nested ${levels} levels (form ${c.form})`;
      if (c.method === "GET") {
        const params = new URLSearchParams({ query, ...(variables ? { variables } : {}) });
        return { prepared: { label, sent: { method: "GET", path: `/graphql?${params}`, headers: auth }, problems: [], unauthenticated: false, write: false }, refused };
      }
      const prepared = post({ query }, label, [], query.startsWith("mutation"));
      prepared.sent.body = `{"query":${JSON.stringify(query)}${variables ? `,"variables":${variables}` : ""}}`;
      return { prepared, refused };
    }
    case "document":
      return { prepared: post({ query: c.query }, "graphql malformed document", [], !/^\s*\{|^query|^fragment/.test(c.query) || c.query.includes("mutation")) };
    case "incremental": {
      const prepared = post({ query: c.query }, "graphql @defer/@stream", [], c.query.startsWith("mutation"));
      prepared.sent.headers = { ...prepared.sent.headers, Accept: c.accept };
      return { prepared };
    }
    case "transport": {
      const headers: Record<string, string> = { ...auth };
      if (c.method === "POST" && c.contentType !== "") headers["Content-Type"] = c.contentType ?? "application/json";
      return {
        prepared: { label: "graphql transport", sent: { method: c.method, path: c.path ?? "/graphql", headers, body: c.method === "POST" ? c.body : undefined }, problems: [], unauthenticated: false, write: c.method === "POST" },
      };
    }
  }
}

function refs(v: Val, out: Ref[] = []): Ref[] {
  if (v instanceof Ref) out.push(v);
  else if (v instanceof Obj) v.entries.forEach(([, x]) => refs(x, out));
  else if (Array.isArray(v)) v.forEach((x) => refs(x, out));
  return out;
}

const INTERNAL = /\n\s+at |prisma|SQLSTATE|invalid input syntax|Unexpected error/i;

/** Checks of a GraphQL answer; `ok` when the operation (or the named field) succeeded. */
function judge(built: Built, answer: { status: number; isJson: boolean; json: unknown; text: string; headers?: Record<string, unknown> }): { ok: boolean; problems: string[] } {
  const { prepared, field, refused, maxBytes } = built;
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`5xx: status ${answer.status}`);
  if (maxBytes !== undefined && Buffer.byteLength(answer.text) > maxBytes) problems.push(`answer of ${Buffer.byteLength(answer.text)} bytes, past ${maxBytes}`);
  // A subscription that opened: a 200 event stream (its first bytes read, then closed by the client).
  if (String(answer.headers?.["content-type"] ?? "").startsWith("text/event-stream")) {
    if (answer.status !== 200) problems.push(`event stream with status ${answer.status}`);
    if (prepared.problems.length) problems.push(`accepted invalid request: a stream opened although ${prepared.problems.join("; ")}`);
    if (prepared.unauthenticated) problems.push("accepted without a valid key");
    return { ok: answer.status === 200, problems };
  }
  // Parts of an incremental answer (@defer/@stream): each a JSON object, none naming an internal error.
  if (String(answer.headers?.["content-type"] ?? "").startsWith("multipart/mixed")) return judgeParts(answer);
  if (refused) {
    const first = isObj(answer.json) && Array.isArray((answer.json as any).errors) ? (answer.json as any).errors[0] : undefined;
    if (answer.status !== 400 || !refused.test(String(first?.message)) || (answer.json as any).data != null) {
      problems.push(`not refused: expected 400 with an error matching ${refused}, got ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }
  if (!answer.isJson || !isObj(answer.json)) {
    problems.push(`not JSON: ${answer.status} body is not a JSON object`);
    return { ok: false, problems };
  }
  const body = answer.json as { data?: Record<string, unknown> | null; errors?: Array<Record<string, any>>; error?: unknown };
  const errors = Array.isArray(body.errors) ? body.errors : [];
  // A request refused before GraphQL (401 without a key, 413, 415) answers with the REST envelope: accept either.
  const envelope = isObj(body.error) && (body.error as any).status === answer.status;
  if (!("data" in body) && !errors.length && !envelope) problems.push(`no data or errors: ${answer.status} ${answer.text.slice(0, 200)}`);
  for (const e of errors) {
    const code = e?.extensions?.code;
    const status = e?.extensions?.status ?? e?.extensions?.http?.status;
    if (code === "INTERNAL_SERVER_ERROR" || (typeof status === "number" && status >= 500)) problems.push(`5xx: GraphQL error ${code ?? status}: ${String(e.message).slice(0, 200)}`);
    else if (INTERNAL.test(String(e?.message))) problems.push(`internal detail in message: ${String(e.message).slice(0, 200)}`);
  }
  // Success of a named field: its value came back (a refused operation answers null or no data).
  const value = field ? (isObj(body.data) ? body.data[field] : undefined) : body.data;
  const ok = !envelope && value !== undefined && value !== null && (field !== undefined || errors.length === 0);
  if (ok && field && prepared.problems.length) problems.push(`accepted invalid request: although ${prepared.problems.join("; ")}`);
  if (ok && prepared.unauthenticated) problems.push("accepted without a valid key");
  return { ok, problems };
}

/** A multipart/mixed answer: 200, every part a JSON object without a 5xx error or internal detail. */
function judgeParts(answer: { status: number; text: string }): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  if (answer.status !== 200) problems.push(`multipart answer with status ${answer.status}`);
  const bodies = answer.text
    .split(/\r\n---?-?/)
    .map((chunk) => chunk.slice(chunk.indexOf("\r\n\r\n") + 4).trim())
    .filter((body) => body.startsWith("{"));
  if (!bodies.length) problems.push(`multipart answer without a part: ${answer.text.slice(0, 200)}`);
  for (const body of bodies) {
    let part: { errors?: Array<Record<string, any>>; incremental?: Array<{ errors?: Array<Record<string, any>> }> };
    try {
      part = JSON.parse(body);
    } catch {
      problems.push(`multipart part is not JSON: ${body.slice(0, 200)}`);
      continue;
    }
    for (const e of [...(part.errors ?? []), ...(part.incremental ?? []).flatMap((i) => i.errors ?? [])]) {
      const status = e?.extensions?.status ?? e?.extensions?.http?.status;
      if (e?.extensions?.code === "INTERNAL_SERVER_ERROR" || (typeof status === "number" && status >= 500)) problems.push(`5xx in a part: ${String(e.message).slice(0, 200)}`);
      else if (INTERNAL.test(String(e?.message))) problems.push(`internal detail in a part: ${String(e.message).slice(0, 200)}`);
    }
  }
  return { ok: answer.status === 200 && !problems.length, problems };
}

/** Keeps the row the deep queries start from, with exactly one child, so their size stays linear in the depth. */
export async function ensureChain(world: World, chain: { reportId?: string }): Promise<string | undefined> {
  const auth = { Authorization: `Bearer ${world.own.key}`, "Content-Type": "application/json" };
  const exists = chain.reportId && world.state[world.own.teamId].reports?.ids.includes(chain.reportId);
  if (!exists) {
    const r = await world.client.send({ method: "POST", path: "/v1/reports", headers: auth, body: JSON.stringify({ address: "1 Chain St" }) });
    chain.reportId = (r.json as any)?.data?.id;
    if (!chain.reportId) return undefined;
    await world.client.send({ method: "POST", path: "/v1/showings", headers: auth, body: JSON.stringify({ report_id: chain.reportId }) });
    await world.refresh();
  }
  return chain.reportId;
}

/**
 * Gives the chain's report 20,000-character texts of two-byte characters before each long-text case: the size is
 * estimated at the longest text the team stored, and other cases write these fields (a generated summary) meanwhile.
 */
async function ensureLongText(world: World, reportId: string, chain: { reportId?: string; longText?: string }): Promise<void> {
  const auth = { Authorization: `Bearer ${world.own.key}`, "Content-Type": "application/json" };
  const body = JSON.stringify({ description: "\u00e9".repeat(20_000), executive_summary: "\u00e9".repeat(20_000) });
  const r = await world.client.send({ method: "PATCH", path: `/v1/reports/${reportId}`, headers: auth, body });
  if (r.status === 200) chain.longText = reportId;
  await world.refresh();
}

/** Sends one GraphQL case and checks its answer; after a successful mutation, reads everything back. */
export async function runGql(world: World, model: GqlModel, c: GqlCase, readers: Operation[], chain: { reportId?: string; longText?: string }): Promise<void> {
  const chainId = c.kind === "deep" || c.kind === "named" || c.kind === "longText" ? await ensureChain(world, chain) : undefined;
  if (c.kind === "longText" && chainId) await ensureLongText(world, chainId, chain);
  const built = build(world, model, c, chainId);
  const answer = await world.exchange(built.prepared, (a) => judge(built, a));
  if (answer && built.prepared.write && built.field && judge(built, answer).ok) {
    await readBack(world, built.prepared, readers);
    await readBackGraphql(world, model, built.prepared);
  }
}

/**
 * Every list query of the schema with every scalar and nested objects: stored values must read back. Each root is
 * read as deep and with as large a page as the size bound allows (its estimate prices text by its longest value), in
 * as few documents as the bound allows.
 */
async function readBackGraphql(world: World, model: GqlModel, cause: Prepared): Promise<void> {
  // Roots that look one thing up by exactly one of their optional arguments (their description says so: a person by
  // e-mail or phone, consent receipts by showing, e-mail or phone) have no list to read without one.
  const roots = model.fields.filter(
    (f) => f.kind === "query" && f.field.args.every((a) => !isNonNullType(a.type) || a.defaultValue !== undefined) && !/\bexactly one\b/i.test(f.field.description ?? ""),
  );
  const documents: string[][] = [[]];
  let size = 0;
  for (const f of roots) {
    const piece = readBackPiece(f.field);
    if (!piece) continue;
    if (size + piece.bytes > config.MAX_RESPONSE_BYTES) {
      documents.push([]);
      size = 0;
    }
    documents.at(-1)!.push(piece.text);
    size += piece.bytes;
  }
  for (const pieces of documents.filter((d) => d.length)) await readBackDocument(world, `{ ${pieces.join(" ")} }`, cause);
}

/** One root of the read-back: the deepest selection and largest page (100, 10, 1) within the size bound. */
function readBackPiece(field: GraphQLField<unknown, unknown>): { text: string; bytes: number } | undefined {
  for (const depth of [2, 1, 0]) {
    for (const limit of [100, 10, 1]) {
      const sel = selection(field.type, depth, 0x7fffffff);
      // A root of scalars or enums (auditActions) takes no selection set.
      const text = `${field.name}${field.args.some((a) => a.name === "limit") ? `(limit: ${limit})` : ""}${sel ? ` { ${sel} }` : ""}`;
      const bytes = bytesFromQuery(servedSchema, parse(`{ ${text} }`), {}, {});
      if (bytes <= config.MAX_RESPONSE_BYTES) return { text, bytes };
    }
  }
  return undefined;
}

async function readBackDocument(world: World, query: string, cause: Prepared): Promise<void> {
  const prepared: Prepared = {
    label: "read back graphql lists",
    sent: { method: "POST", path: "/graphql", headers: { Authorization: `Bearer ${world.own.key}`, "Content-Type": "application/json" }, body: JSON.stringify({ query }) },
    problems: [],
    unauthenticated: false,
    write: false,
  };
  await world.exchange(prepared, (a) => {
    const v = judge({ prepared }, a);
    const forbidden = isObj(a.json) && Array.isArray((a.json as any).errors) ? (a.json as any).errors.filter((e: any) => e?.extensions?.code !== "FORBIDDEN") : [];
    if (forbidden.length) v.problems.push(`read back failed: ${JSON.stringify(forbidden).slice(0, 300)}`);
    return { ok: true, problems: v.problems.map((p) => `${p} — after ${cause.sent.body?.slice(0, 2000)}`) };
  });
}
