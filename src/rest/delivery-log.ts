// The delivery log's two routes (docs/api.md "Webhooks", "CRM destinations"), alike for a webhook endpoint and a CRM
// destination: its attempts, newest first, optionally of one status and event type; and Redeliver, which sends a
// delivery again now. Every rule is behind the schema (src/schema/resources/webhook).
import type { z } from "zod";
import type { Operation } from "./graphql";
import { pageVariables, queryText } from "./input";
import type { RestRoute } from "./route";
import { actionRoute, listRoute, type One } from "./route-kinds";
import * as s from "./schemas";

export interface DeliveryLogOf {
  /** The endpoint or destination whose log it is. */
  one: One;
  /** What owns the log and what a delivery sends, in the routes' summaries: "endpoint" and "event". */
  owner: string;
  sends: string;
  /** The path parameters of `one`/deliveries/{deliveryId}. */
  deliveryParams: z.ZodObject;
  list: { operationId: string; operation: Operation };
  redeliver: { operationId: string; operation: Operation };
}

export const deliveryLogRoutes = ({ one, ...of }: DeliveryLogOf): RestRoute[] => [
  listRoute({
    path: `${one.path}/deliveries`,
    operationId: of.list.operationId,
    tag: one.tag,
    summary: (needs) => `The ${of.owner}'s delivery attempts, newest first, optionally of one status and event type (needs ${needs})`,
    operation: of.list.operation,
    params: one.params,
    query: s.deliveryListQuery,
    variables: (req) => ({ ...one.variables(req), status: queryText(req, "status"), eventType: queryText(req, "event_type"), ...pageVariables(req) }),
    item: s.webhookDelivery,
    responseDescription: "A page of attempts",
    cacheable: true,
  }),
  actionRoute({
    path: `${one.path}/deliveries/{deliveryId}/redeliver`,
    operationId: of.redeliver.operationId,
    tag: one.tag,
    summary: (needs) => `Send a delivery's ${of.sends} again now: the retry already waiting, if any, else a new attempt (needs ${needs})`,
    operation: of.redeliver.operation,
    params: of.deliveryParams,
    variables: (req) => ({ ...one.variables(req), deliveryId: req.params.deliveryId }),
    status: 202,
    data: s.webhookDelivery,
    message: "Redelivery queued",
    responseDescription: "The queued attempt",
    errors: [409],
  }),
];
