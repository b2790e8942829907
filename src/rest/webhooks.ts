// Webhooks over REST (docs/api.md "Webhooks"): endpoints, their delivery log, the event list and the event types.
// Names are GraphQL's in snake_case, read from its types (./shapes.ts); every rule is behind the schema
// (src/schema/resources/webhook).
import type { Request } from "express";
import { z } from "zod";
import { operation, runRoot } from "./graphql";
import { deliveryLogRoutes } from "./delivery-log";
import { bodyObject, optionalBodyObject, pageVariables, queryText } from "./input";
import { bodyToInput, inputNames } from "./object-shapes";
import type { RestRoute } from "./route";
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

const webhookId = (req: Request) => ({ id: req.params.webhookId });
const one = "/v1/webhooks/{webhookId}";
const tag = "Webhooks";

export const webhookRoutes: RestRoute[] = [
  {
    method: "get",
    cacheable: true,
    path: "/v1/webhooks/event-types",
    operationId: "listWebhookEventTypes",
    tag,
    summary: (needs) => `The event types endpoints can subscribe to (needs ${needs})`,
    operations: [TYPES],
    answer: { data: z.array(s.webhookEventType) },
    responseDescription: "The catalog",
    run: (_req, res) => runRoot(TYPES, {}, res.locals.context),
  },
  {
    method: "get",
    cacheable: true,
    path: "/v1/webhooks",
    operationId: "listWebhooks",
    tag,
    summary: (needs) => `The team's webhook endpoints, oldest first (needs ${needs})`,
    operations: [LIST],
    query: s.pageQuery,
    answer: { page: s.webhookEndpoint },
    responseDescription: "A page of endpoints",
    errors: [400],
    run: (req, res) => runRoot(LIST, pageVariables(req), res.locals.context),
  },
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
  {
    method: "get",
    cacheable: true,
    path: one,
    operationId: "getWebhook",
    tag,
    summary: (needs) => `Get an endpoint (needs ${needs})`,
    operations: [GET],
    params: s.webhookIdParams,
    answer: { data: s.webhookEndpoint },
    responseDescription: "The endpoint",
    run: (req, res) => runRoot(GET, webhookId(req), res.locals.context),
  },
  {
    method: "patch",
    path: one,
    operationId: "updateWebhook",
    tag,
    summary: (needs) => `Change the given fields of an endpoint; enabling it clears disabled_reason (needs ${needs})`,
    operations: [UPDATE],
    params: s.webhookIdParams,
    body: s.updateWebhookBody,
    answer: { data: s.webhookEndpoint },
    message: "Webhook updated successfully",
    responseDescription: "The endpoint",
    run: (req, res) => runRoot(UPDATE, { ...webhookId(req), input: bodyToInput(UPDATE_INPUT, bodyObject(req)) }, res.locals.context),
  },
  {
    method: "delete",
    path: one,
    operationId: "deleteWebhook",
    tag,
    summary: (needs) => `Delete an endpoint and its delivery log (needs ${needs})`,
    operations: [DELETE],
    params: s.webhookIdParams,
    answer: "message",
    message: "Webhook deleted successfully",
    responseDescription: "Deleted",
    run: async (req, res) => void (await runRoot(DELETE, webhookId(req), res.locals.context)),
  },
  {
    method: "post",
    path: `${one}/rotate-secret`,
    operationId: "rotateWebhookSecret",
    tag,
    summary: (needs) => `A new secret, shown only now; the old one keeps signing too for 24 hours (needs ${needs})`,
    operations: [ROTATE],
    params: s.webhookIdParams,
    answer: { data: s.webhookEndpointWithSecret },
    message: "Secret rotated; the previous one keeps signing for 24 hours",
    responseDescription: "The endpoint with its new secret",
    run: async (req, res) => {
      optionalBodyObject(req);
      return withSecret(await runRoot<{ endpoint: object; secret: string }>(ROTATE, webhookId(req), res.locals.context));
    },
  },
  {
    method: "post",
    path: `${one}/test`,
    operationId: "testWebhook",
    tag,
    summary: (needs) => `Send a webhook.test event to this endpoint (needs ${needs})`,
    operations: [TEST],
    params: s.webhookIdParams,
    status: 202,
    answer: { data: s.webhookDelivery },
    message: "Test event queued",
    responseDescription: "The queued delivery",
    errors: [409],
    run: (req, res) => {
      optionalBodyObject(req);
      return runRoot(TEST, webhookId(req), res.locals.context);
    },
  },
  ...deliveryLogRoutes({
    one,
    tag,
    owner: "endpoint",
    sends: "event",
    params: s.webhookIdParams,
    deliveryParams: s.deliveryParams,
    idOf: webhookId,
    list: { operationId: "listWebhookDeliveries", operation: DELIVERIES },
    redeliver: { operationId: "redeliverWebhook", operation: REDELIVER },
  }),
  {
    method: "get",
    cacheable: true,
    path: "/v1/events",
    operationId: "listEvents",
    tag,
    summary: (needs) => `The team's events of the last 30 days, newest first (needs ${needs})`,
    operations: [EVENTS],
    query: s.eventListQuery,
    answer: { page: s.webhookEvent },
    responseDescription: "A page of events",
    errors: [400],
    run: (req, res) => runRoot(EVENTS, { type: queryText(req, "type"), ...pageVariables(req) }, res.locals.context),
  },
  {
    method: "get",
    cacheable: true,
    path: "/v1/events/{eventId}",
    operationId: "getEvent",
    tag,
    summary: (needs) => `Get an event (needs ${needs})`,
    operations: [ONE_EVENT],
    params: s.eventIdParams,
    answer: { data: s.webhookEvent },
    responseDescription: "The event",
    run: (req, res) => runRoot(ONE_EVENT, { id: req.params.eventId }, res.locals.context),
  },
];
