// Webhooks over REST (DECISIONS "Webhooks"): endpoints, their delivery log, the event list and the event types.
// Names are the same as GraphQL's but snake_case; every rule is behind the schema (src/schema/resources/webhook).
import { Router } from "express";
import { operation, run } from "./graphql";
import { bodyObject, jsonBody, optionalBodyObject, pageBody, pageVariables, queryText, type Page } from "./input";
import { allowOnly, handle } from "./route";

const ENDPOINT = `fragment RestWebhook on WebhookEndpoint {
  id url events description enabled disabled_reason: disabledReason created_at: createdAt updated_at: updatedAt
}`;
const DELIVERY = `fragment RestDelivery on WebhookDelivery {
  id event_id: eventId event_type: eventType attempt status response_status: responseStatus duration_ms: durationMs
  error created_at: createdAt next_attempt_at: nextAttemptAt
}`;
// The webhook payload's shape ({ id, type, timestamp, data }), so a receiver can recover missed deliveries from the
// list; created_at is the same instant under the name the list had first.
const EVENT = `fragment RestEvent on WebhookEvent { id type timestamp: createdAt data created_at: createdAt }`;

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
const TYPES = operation(`query RestEventTypes { webhookEventTypes { type description } }`);

/** The body's endpoint fields (the same names in REST and GraphQL); anything else is ignored, as elsewhere. */
function endpointInput(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(["url", "events", "description", "enabled"].filter((name) => name in body).map((name) => [name, body[name]]));
}

const withSecret = (r: { endpoint: object; secret: string }) => ({ ...r.endpoint, secret: r.secret });

export function webhooksRouter(): Router {
  const router = Router();

  router.get(
    "/webhooks/event-types",
    handle(async (_req, res) => {
      res.json({ data: (await run<{ webhookEventTypes: unknown[] }>(TYPES, {}, res.locals.context)).webhookEventTypes });
    }),
  );
  allowOnly(router, "/webhooks/event-types", ["GET"]);

  router.get(
    "/webhooks",
    handle(async (req, res) => {
      res.json(pageBody((await run<{ webhookEndpoints: Page }>(LIST, pageVariables(req), res.locals.context)).webhookEndpoints));
    }),
  );
  router.post(
    "/webhooks",
    jsonBody,
    handle(async (req, res) => {
      const data = await run<{ createWebhookEndpoint: { endpoint: object; secret: string } }>(CREATE, { input: endpointInput(bodyObject(req)) }, res.locals.context);
      res.status(201).json({ data: withSecret(data.createWebhookEndpoint), message: "Webhook created successfully; store its secret now: it is not shown again" });
    }),
  );
  allowOnly(router, "/webhooks", ["GET", "POST"]);

  const one = "/webhooks/:webhookId";
  router.get(
    one,
    handle(async (req, res) => {
      res.json({ data: (await run<{ webhookEndpoint: unknown }>(GET, { id: req.params.webhookId }, res.locals.context)).webhookEndpoint });
    }),
  );
  router.patch(
    one,
    jsonBody,
    handle(async (req, res) => {
      const data = await run<{ updateWebhookEndpoint: unknown }>(UPDATE, { id: req.params.webhookId, input: endpointInput(bodyObject(req)) }, res.locals.context);
      res.json({ data: data.updateWebhookEndpoint, message: "Webhook updated successfully" });
    }),
  );
  router.delete(
    one,
    handle(async (req, res) => {
      await run(DELETE, { id: req.params.webhookId }, res.locals.context);
      res.json({ message: "Webhook deleted successfully" });
    }),
  );
  allowOnly(router, one, ["GET", "PATCH", "DELETE"]);

  const rotate = `${one}/rotate-secret`;
  router.post(
    rotate,
    jsonBody,
    handle(async (req, res) => {
      optionalBodyObject(req);
      const data = await run<{ rotateWebhookSecret: { endpoint: object; secret: string } }>(ROTATE, { id: req.params.webhookId }, res.locals.context);
      res.json({ data: withSecret(data.rotateWebhookSecret), message: "Secret rotated; the previous one keeps signing for 24 hours" });
    }),
  );
  allowOnly(router, rotate, ["POST"]);

  const test = `${one}/test`;
  router.post(
    test,
    jsonBody,
    handle(async (req, res) => {
      optionalBodyObject(req);
      const data = await run<{ sendTestWebhook: unknown }>(TEST, { id: req.params.webhookId }, res.locals.context);
      res.status(202).json({ data: data.sendTestWebhook, message: "Test event queued" });
    }),
  );
  allowOnly(router, test, ["POST"]);

  const deliveries = `${one}/deliveries`;
  router.get(
    deliveries,
    handle(async (req, res) => {
      const data = await run<{ webhookDeliveries: Page }>(
        DELIVERIES,
        { id: req.params.webhookId, status: queryText(req, "status"), eventType: queryText(req, "event_type"), ...pageVariables(req) },
        res.locals.context,
      );
      res.json(pageBody(data.webhookDeliveries));
    }),
  );
  allowOnly(router, deliveries, ["GET"]);

  const redeliver = `${deliveries}/:deliveryId/redeliver`;
  router.post(
    redeliver,
    jsonBody,
    handle(async (req, res) => {
      optionalBodyObject(req);
      const data = await run<{ redeliverWebhook: unknown }>(REDELIVER, { id: req.params.webhookId, deliveryId: req.params.deliveryId }, res.locals.context);
      res.status(202).json({ data: data.redeliverWebhook, message: "Redelivery queued" });
    }),
  );
  allowOnly(router, redeliver, ["POST"]);

  router.get(
    "/events",
    handle(async (req, res) => {
      const data = await run<{ webhookEvents: Page }>(EVENTS, { type: queryText(req, "type"), ...pageVariables(req) }, res.locals.context);
      res.json(pageBody(data.webhookEvents));
    }),
  );
  allowOnly(router, "/events", ["GET"]);
  router.get(
    "/events/:eventId",
    handle(async (req, res) => {
      res.json({ data: (await run<{ webhookEvent: unknown }>(ONE_EVENT, { id: req.params.eventId }, res.locals.context)).webhookEvent });
    }),
  );
  allowOnly(router, "/events/:eventId", ["GET"]);
  return router;
}
