// REST takes a list only as a JSON array: GraphQL would coerce a single value into a list of one, REST refuses it
// with a 400 naming the field. Every list-typed field of every REST body is found in the OpenAPI document (nested
// ones included), sent as a single value and refused; the same body with the value in a list is accepted.
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";

import request from "supertest";
import { createTeam, errorOf, startTestApp, type TestApp, type TestTeam } from "./support/app";
import { doc } from "./support/openapi";
import { receiver, type Receiver } from "./support/receiver";

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
type Path = Array<string | number>;

const components = (doc as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolved = (schema: Schema): Schema => (schema.$ref ? resolved(components[schema.$ref.split("/").pop()!]) : schema);
const isList = (schema: Schema) => schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array"));

/** The paths of the list-typed fields of a body schema: `["events"]`, `["comparables"]`, `["a", 0, "b"]` below a list. */
function listFields(schema: Schema, path: Path = []): Path[] {
  const found: Path[] = [];
  for (const [name, property] of Object.entries(resolved(schema).properties ?? {})) {
    const field = resolved(property);
    if (isList(field)) {
      found.push([...path, name]);
      if (field.items) found.push(...listFields(field.items, [...path, name, 0]));
    } else found.push(...listFields(field, [...path, name]));
  }
  return found;
}

/** Every route of the document with a JSON body, and its body's list fields. */
function routesWithLists(): Array<{ route: string; lists: Path[] }> {
  const routes: Array<{ route: string; lists: Path[] }> = [];
  const paths = doc.paths as unknown as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const body = operation.requestBody?.content["application/json"]?.schema;
      const lists = body ? listFields(body) : [];
      if (lists.length) routes.push({ route: `${method} ${path}`, lists });
    }
  }
  return routes;
}

const at = (value: unknown, path: Path): unknown => path.reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], value);
function withValue(body: object, path: Path, value: unknown): object {
  const copy = structuredClone(body);
  (at(copy, path.slice(0, -1)) as Record<string | number, unknown>)[path.at(-1)!] = value;
  return copy;
}
/** A path in the REST spelling of messages: comparables[0].address. */
const spelled = (path: Path) => path.reduce<string>((name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${key}` : key), "");

let t: TestApp;
let team: TestTeam;
let hook: Receiver;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  team = await createTeam();
  hook = await receiver();
  ids.reportId = (await request(t.app).post("/v1/reports").set(team.auth).send({ address: "1 List Lane" })).body.data.id;
  ids.webhookId = (await request(t.app).post("/v1/webhooks").set(team.auth).send({ url: hook.url, events: ["*"] })).body.data.id;
  ids.showingId = (await request(t.app).post("/v1/showings").set(team.auth).send({ report_id: ids.reportId, event_type: "open_house" })).body.data.id;
  ids.destinationId = (await request(t.app).post("/v1/crm-destinations").set(team.auth).send({ kind: "json", url: hook.url })).body.data.id;
});
afterAll(async () => {
  await hook.close();
  await t.close();
});

/** A valid body of each route that takes a list, each list holding one item (the single value sent instead). */
const valid = (): Record<string, object> => ({
  "put /v1/reports/{reportId}/comparables": { comparables: [{ address: "9 Comp Ave", price: 300000, sqft: 1500 }] },
  "post /v1/reports/{reportId}/social-posts/import": { posts: [{ platform: "instagram", external_id: "ig-1", likes: 3, metrics_at: "2026-05-03T09:00:00Z" }] },
  "post /v1/webhooks": { url: hook.url, events: ["report.created"] },
  "patch /v1/webhooks/{webhookId}": { events: ["report.created"] },
  "post /v1/crm-destinations": { kind: "json", url: hook.url, events: ["visitor.signed_in"] },
  "patch /v1/crm-destinations/{destinationId}": { events: ["visitor.signed_in"] },
  "post /v1/showings/{showingId}/sign-in-links": { label: "Front door", questions: ["How did you hear about this open house?"] },
});

const send = (route: string, body: object) => {
  const [method, template] = route.split(" ");
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? `<no id for ${name}>`);
  return request(t.app)[method as "post" | "put" | "patch"](path).set(team.auth).send(body);
};

it("refuses a single value for every list field of every REST body, naming the field", async () => {
  const routes = routesWithLists();
  // The enumeration finds the lists known today (and any added later).
  expect(routes.map((r) => `${r.route} ${r.lists.map(spelled).join(",")}`)).toEqual(
    expect.arrayContaining([
      "put /v1/reports/{reportId}/comparables comparables",
      "post /v1/reports/{reportId}/social-posts/import posts",
      "post /v1/webhooks events",
      "patch /v1/webhooks/{webhookId} events",
    ]),
  );
  const bodies = valid();
  for (const { route, lists } of routes) {
    const body = bodies[route];
    if (!body) throw new Error(`${route} takes a list: give it a valid body in this test`);
    for (const list of lists) {
      const single = at(body, [...list, 0]);
      const refused = await send(route, withValue(body, list, single));
      expect({ route, ...errorOf(refused) }).toEqual({ route, status: 400, message: `${spelled(list)} must be an array` });
    }
    const accepted = await send(route, body);
    expect({ route, status: accepted.status, body: accepted.status < 300 ? "accepted" : accepted.body }).toEqual({ route, status: accepted.status, body: "accepted" });
  }
});

it("keeps GraphQL's own list coercion on /graphql", async () => {
  const res = await request(t.app)
    .post("/graphql")
    .set(team.auth)
    .send({ query: `mutation($events: [String!]) { updateWebhookEndpoint(id: "${ids.webhookId}", input: { events: $events }) { events } }`, variables: { events: "report.updated" } });
  expect(res.body).toEqual({ data: { updateWebhookEndpoint: { events: ["report.updated"] } }, extensions: { cost: expect.anything() } });
});
