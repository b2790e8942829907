// CRM destinations over REST (docs/api.md "CRM destinations"): a team's Follow Up Boss account or JSON receiver for
// open-house leads, and their delivery log and redeliver (the webhooks' attempts and rules). Names are
// GraphQL's in snake_case; every rule is behind the schema (src/schema/resources/crm).
import type { Request } from "express";
import { operation, runRoot } from "./graphql";
import { deliveryLogRoutes } from "./delivery-log";
import { bodyObject, pageVariables } from "./input";
import { bodyToInput, inputNames } from "./object-shapes";
import type { RestRoute } from "./route";
import * as s from "./schemas";
import { CRM_DESTINATION, WEBHOOK_DELIVERY } from "./shapes";

const DESTINATION = CRM_DESTINATION.fragment;
const DELIVERY = WEBHOOK_DELIVERY.fragment;

const LIST = operation(`query RestCrmDestinations($limit: Int!, $offset: Int!) {
  crmDestinations(limit: $limit, offset: $offset) { total limit offset items { ...RestCrmDestination } }
} ${DESTINATION}`);
const GET = operation(`query RestCrmDestination($id: ID!) { crmDestination(id: $id) { ...RestCrmDestination } } ${DESTINATION}`);
const CREATE = operation(`mutation RestCreateCrmDestination($input: CreateCrmDestinationInput!) {
  createCrmDestination(input: $input) { destination { ...RestCrmDestination } secret }
} ${DESTINATION}`);
const UPDATE = operation(`mutation RestUpdateCrmDestination($id: ID!, $input: UpdateCrmDestinationInput!) {
  updateCrmDestination(id: $id, input: $input) { ...RestCrmDestination }
} ${DESTINATION}`);
const DELETE = operation(`mutation RestDeleteCrmDestination($id: ID!) { deleteCrmDestination(id: $id) }`);
const DELIVERIES = operation(`query RestCrmDeliveries($id: ID!, $status: String, $eventType: String, $limit: Int!, $offset: Int!) {
  crmDeliveries(destinationId: $id, status: $status, eventType: $eventType, limit: $limit, offset: $offset) { total limit offset items { ...RestDelivery } }
} ${DELIVERY}`);
const REDELIVER = operation(`mutation RestCrmRedeliver($id: ID!, $deliveryId: ID!) {
  redeliverCrmDelivery(destinationId: $id, deliveryId: $deliveryId) { ...RestDelivery }
} ${DELIVERY}`);

const CREATE_INPUT = inputNames("CreateCrmDestinationInput");
const UPDATE_INPUT = inputNames("UpdateCrmDestinationInput");

/** Messages name the body's fields as REST spells them. */
const SPELLED = { spelled: new Map([["apiKey", "api_key"]]) };

const destinationId = (req: Request) => ({ id: req.params.destinationId });
const one = "/v1/crm-destinations/{destinationId}";
const tag = "CRM destinations";

export const crmDestinationRoutes: RestRoute[] = [
  {
    method: "get",
    cacheable: true,
    path: "/v1/crm-destinations",
    operationId: "listCrmDestinations",
    tag,
    summary: (needs) => `The team's CRM destinations, oldest first (needs ${needs})`,
    operations: [LIST],
    query: s.pageQuery,
    answer: { page: s.crmDestination },
    responseDescription: "A page of destinations",
    errors: [400],
    run: (req, res) => runRoot(LIST, pageVariables(req), res.locals.context),
  },
  {
    method: "post",
    path: "/v1/crm-destinations",
    operationId: "createCrmDestination",
    tag,
    summary: (needs) => `Connect a CRM for open-house leads: follow_up_boss (api_key) or json (url) (needs ${needs})`,
    description:
      "Only visitors who consented to be contacted on at least one channel are sent, never a person on the suppression list. The Follow Up Boss API key is stored encrypted and never shown again; a json destination's answer holds its signing secret, shown only this once.",
    operations: [CREATE],
    body: s.createCrmDestinationBody,
    status: 201,
    answer: { data: s.crmDestinationWithSecret },
    message: "CRM destination created successfully",
    responseDescription: "The destination (with a json destination's secret)",
    run: async (req, res) => {
      const created = await runRoot<{ destination: object; secret: string | null }>(CREATE, { input: bodyToInput(CREATE_INPUT, bodyObject(req)) }, res.locals.context, SPELLED);
      return { ...created.destination, secret: created.secret };
    },
  },
  {
    method: "get",
    cacheable: true,
    path: one,
    operationId: "getCrmDestination",
    tag,
    summary: (needs) => `Get a CRM destination (needs ${needs})`,
    operations: [GET],
    params: s.crmDestinationIdParams,
    answer: { data: s.crmDestination },
    responseDescription: "The destination",
    run: (req, res) => runRoot(GET, destinationId(req), res.locals.context),
  },
  {
    method: "patch",
    path: one,
    operationId: "updateCrmDestination",
    tag,
    summary: (needs) => `Change the given fields of a CRM destination; a new api_key replaces the stored one (needs ${needs})`,
    operations: [UPDATE],
    params: s.crmDestinationIdParams,
    body: s.updateCrmDestinationBody,
    answer: { data: s.crmDestination },
    message: "CRM destination updated successfully",
    responseDescription: "The destination",
    run: (req, res) => runRoot(UPDATE, { ...destinationId(req), input: bodyToInput(UPDATE_INPUT, bodyObject(req)) }, res.locals.context, SPELLED),
  },
  {
    method: "delete",
    path: one,
    operationId: "deleteCrmDestination",
    tag,
    summary: (needs) => `Delete a CRM destination, its stored API key and its delivery log (needs ${needs})`,
    operations: [DELETE],
    params: s.crmDestinationIdParams,
    answer: "message",
    message: "CRM destination deleted successfully",
    responseDescription: "Deleted",
    run: async (req, res) => void (await runRoot(DELETE, destinationId(req), res.locals.context)),
  },
  ...deliveryLogRoutes({
    one,
    tag,
    owner: "destination",
    sends: "lead",
    params: s.crmDestinationIdParams,
    deliveryParams: s.crmDeliveryParams,
    idOf: destinationId,
    list: { operationId: "listCrmDeliveries", operation: DELIVERIES },
    redeliver: { operationId: "redeliverCrmDelivery", operation: REDELIVER },
  }),
];
