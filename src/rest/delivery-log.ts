// The delivery log's two routes (docs/api.md "Webhooks", "CRM destinations"), alike for a webhook endpoint and a CRM
// destination: its attempts, newest first, optionally of one status and event type; and Redeliver, which sends a
// delivery again now. Every rule is behind the schema (src/schema/resources/webhook).
import type { Request } from "express";
import type { z } from "zod";
import { runRoot, type Operation } from "./graphql";
import { optionalBodyObject, pageVariables, queryText } from "./input";
import type { RestRoute } from "./route";
import * as s from "./schemas";

export interface DeliveryLogOf {
  /** The endpoint's or destination's path: /v1/webhooks/{webhookId}. */
  one: string;
  tag: string;
  /** What owns the log and what a delivery sends, in the routes' summaries: "endpoint" and "event". */
  owner: string;
  sends: string;
  /** The path parameters of `one`, and of `one`/deliveries/{deliveryId}. */
  params: z.ZodObject;
  deliveryParams: z.ZodObject;
  /** The documents' `id` variable from the request's path. */
  idOf: (req: Request) => { id: unknown };
  list: { operationId: string; operation: Operation };
  redeliver: { operationId: string; operation: Operation };
}

export const deliveryLogRoutes = (of: DeliveryLogOf): RestRoute[] => [
  {
    method: "get",
    cacheable: true,
    path: `${of.one}/deliveries`,
    operationId: of.list.operationId,
    tag: of.tag,
    summary: (needs) => `The ${of.owner}'s delivery attempts, newest first, optionally of one status and event type (needs ${needs})`,
    operations: [of.list.operation],
    params: of.params,
    query: s.deliveryListQuery,
    answer: { page: s.webhookDelivery },
    responseDescription: "A page of attempts",
    errors: [400],
    run: (req, res) =>
      runRoot(of.list.operation, { ...of.idOf(req), status: queryText(req, "status"), eventType: queryText(req, "event_type"), ...pageVariables(req) }, res.locals.context),
  },
  {
    method: "post",
    path: `${of.one}/deliveries/{deliveryId}/redeliver`,
    operationId: of.redeliver.operationId,
    tag: of.tag,
    summary: (needs) => `Send a delivery's ${of.sends} again now: the retry already waiting, if any, else a new attempt (needs ${needs})`,
    operations: [of.redeliver.operation],
    params: of.deliveryParams,
    status: 202,
    answer: { data: s.webhookDelivery },
    message: "Redelivery queued",
    responseDescription: "The queued attempt",
    errors: [409],
    run: (req, res) => {
      optionalBodyObject(req);
      return runRoot(of.redeliver.operation, { ...of.idOf(req), deliveryId: req.params.deliveryId }, res.locals.context);
    },
  },
];
