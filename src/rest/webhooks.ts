// Webhooks over REST (docs/api.md "Webhooks"): endpoints, their delivery log, the event list and the event types.
// Names are GraphQL's in snake_case, read from its types (./shapes.ts); every rule is behind the schema
// (src/schema/resources/webhook).
import { z } from "zod";
import { operation, runRoot } from "./graphql";
import { deliveryLogRoutes } from "./delivery-log";
import { bodyObject, optionalBodyObject, pageVariables, queryText } from "./input";
import { bodyToInput, inputNames } from "./object-shapes";
import type { RestRoute } from "./route";
import { actionRoute, deleteRoute, getRoute, listRoute, namedInput, oneAt, updateRoute } from "./route-kinds";
import * as s from "./schemas";
import { WEBHOOK_DELIVERY, WEBHOOK_ENDPOINT, WEBHOOK_EVENT, WEBHOOK_EVENT_TYPE } from "./shapes";

const ENDPOINT = WEBHOOK_ENDPOINT.fragment;
const DELIVERY = WEBHOOK_DELIVERY.fragment;
const EVENT = WEBHOOK_EVENT.fragment;

const LIST = operation(`query RestWebhooks($limit: Int!, $offset: Int!) { webhookEndpoints(limit: $limit, offset: $offset) { total limit offset items { ...RestWebhook } } } ${ENDPOINT}`);
const GET = operation(`query RestWebhook($id: ID!) { webhookEndpoint(id: $id) { ...RestWebhook } } ${ENDPOINT}`);
const CREATE = operation(`mutation RestCreateWebhook($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { endpoint { ...RestWebhook } secret }
} ${ENDPOINT}`);
const UPDATE = operation(`mutation RestUpdateWebhook($id: ID!, $input: UpdateWebhookEndpointInput!) {
  updateWebhookEndpoint(id: $id, input: $input) { ...RestWebhook }
} ${ENDPOINT}`);
const DELETE = operation(`mutation RestDeleteWebhook($id: ID!) { deleteWebhookEndpoint(id: $id) }`);
const ROTATE = operation(`mutation RestRotateWebhookSecret($id: ID!) { rotateWebhookSecret(id: $id) { endpoint { ...RestWebhook } secret } } ${ENDPOINT}`);
const TEST = operation(`mutation RestTestWebhook($id: ID!) { sendTestWebhook(id: $id) { ...RestDelivery } } ${DELIVERY}`);
const DELIVERIES = operation(`query RestWebhookDeliveries($id: ID!, $status: String, $eventType: String, $limit: Int!, $offset: Int!) {
  webhookDeliveries(endpointId: $id, status: $status, eventType: $eventType, limit: $limit, offset: $offset) { total limit offset items { ...RestDelivery } }
} ${DELIVERY}`);
const REDELIVER = operation(`mutation RestRedeliver($id: ID!, $deliveryId: ID!) {
  redeliverWebhook(endpointId: $id, deliveryId: $deliveryId) { ...RestDelivery }
} ${DELIVERY}`);
const EVENTS = operation(`query RestEvents($type: String, $limit: Int!, $offset: Int!) {
  webhookEvents(type: $type, limit: $limit, offset: $offset) { total limit offset items { ...RestEvent } }
} ${EVENT}`);
const ONE_EVENT = operation(`query RestEvent($id: ID!) { webhookEvent(id: $id) { ...RestEvent } } ${EVENT}`);
const TYPES = operation(`query RestEventTypes { webhookEventTypes { ...RestEventType } } ${WEBHOOK_EVENT_TYPE.fragment}`);

const CREATE_INPUT = inputNames("CreateWebhookEndpointInput");
const UPDATE_INPUT = inputNames("UpdateWebhookEndpointInput");

const withSecret = (r: { endpoint: object; secret: string }) => ({ ...r.endpoint, secret: r.secret });

const tag = "Webhooks";
const endpoint = oneAt("/v1/webhooks/{webhookId}", tag, s.webhookIdParams);

export const webhookRoutes: RestRoute[] = [
  getRoute({
    path: "/v1/webhooks/event-types",
    operationId: "listWebhookEventTypes",
    tag,
    summary: (needs) => `The event types endpoints can subscribe to (needs ${needs})`,
    operation: TYPES,
    variables: () => ({}),
    data: z.array(s.webhookEventType),
    responseDescription: "The catalog",
    cacheable: true,
  }),
  listRoute({
    path: "/v1/webhooks",
    operationId: "listWebhooks",
    tag,
    summary: (needs) => `The team's webhook endpoints, oldest first (needs ${needs})`,
    operation: LIST,
    variables: pageVariables,
    item: s.webhookEndpoint,
    responseDescription: "A page of endpoints",
    cacheable: true,
  }),
  {
    method: "post",
    path: "/v1/webhooks",
    operationId: "createWebhook",
    tag,
    summary: (needs) => `Add an endpoint (needs ${needs})`,
    description:
      "The answer holds the signing secret, shown only this once. Hosts that resolve to loopback, private, link-local or other non-public addresses are refused unless WEBHOOK_ALLOW_PRIVATE_URLS=true.",
    operations: [CREATE],
    body: s.createWebhookBody,
    status: 201,
    answer: { data: s.webhookEndpointWithSecret },
    message: "Webhook created successfully; store its secret now: it is not shown again",
    responseDescription: "The endpoint with its secret",
    run: async (req, res) => withSecret(await runRoot<{ endpoint: object; secret: string }>(CREATE, { input: bodyToInput(CREATE_INPUT, bodyObject(req)) }, res.locals.context)),
  },
  getRoute({
    ...endpoint,
    operationId: "getWebhook",
    summary: (needs) => `Get an endpoint (needs ${needs})`,
    operation: GET,
    data: s.webhookEndpoint,
    responseDescription: "The endpoint",
    cacheable: true,
  }),
  updateRoute({
    ...endpoint,
    operationId: "updateWebhook",
    summary: (needs) => `Change the given fields of an endpoint; enabling it clears disabled_reason (needs ${needs})`,
    operation: UPDATE,
    body: s.updateWebhookBody,
    input: namedInput(UPDATE_INPUT),
    data: s.webhookEndpoint,
    message: "Webhook updated successfully",
    responseDescription: "The endpoint",
  }),
  deleteRoute({
    ...endpoint,
    operationId: "deleteWebhook",
    summary: (needs) => `Delete an endpoint and its delivery log (needs ${needs})`,
    operation: DELETE,
    message: "Webhook deleted successfully",
  }),
  {
    method: "post",
    path: `${endpoint.path}/rotate-secret`,
    operationId: "rotateWebhookSecret",
    tag,
    summary: (needs) => `A new secret, shown only now; the old one keeps signing too for 24 hours (needs ${needs})`,
    operations: [ROTATE],
    params: endpoint.params,
    answer: { data: s.webhookEndpointWithSecret },
    message: "Secret rotated; the previous one keeps signing for 24 hours",
    responseDescription: "The endpoint with its new secret",
    run: async (req, res) => {
      optionalBodyObject(req);
      return withSecret(await runRoot<{ endpoint: object; secret: string }>(ROTATE, endpoint.variables(req), res.locals.context));
    },
  },
  actionRoute({
    ...endpoint,
    path: `${endpoint.path}/test`,
    operationId: "testWebhook",
    summary: (needs) => `Send a webhook.test event to this endpoint (needs ${needs})`,
    operation: TEST,
    status: 202,
    data: s.webhookDelivery,
    message: "Test event queued",
    responseDescription: "The queued delivery",
    errors: [409],
  }),
  ...deliveryLogRoutes({
    one: endpoint,
    owner: "endpoint",
    sends: "event",
    deliveryParams: s.deliveryParams,
    list: { operationId: "listWebhookDeliveries", operation: DELIVERIES },
    redeliver: { operationId: "redeliverWebhook", operation: REDELIVER },
  }),
  listRoute({
    path: "/v1/events",
    operationId: "listEvents",
    tag,
    summary: (needs) => `The team's events of the last 30 days, newest first (needs ${needs})`,
    operation: EVENTS,
    query: s.eventListQuery,
    variables: (req) => ({ type: queryText(req, "type"), ...pageVariables(req) }),
    item: s.webhookEvent,
    responseDescription: "A page of events",
    cacheable: true,
  }),
  getRoute({
    path: "/v1/events/{eventId}",
    operationId: "getEvent",
    tag,
    summary: (needs) => `Get an event (needs ${needs})`,
    operation: ONE_EVENT,
    params: s.eventIdParams,
    variables: (req) => ({ id: req.params.eventId }),
    data: s.webhookEvent,
    responseDescription: "The event",
    cacheable: true,
  }),
];
