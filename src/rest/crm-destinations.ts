// CRM destinations over REST (docs/api.md "CRM destinations"): a team's Follow Up Boss account or JSON receiver for
// open-house leads, and their delivery log and redeliver (the webhooks' attempts and rules). Names are
// GraphQL's in snake_case; every rule is behind the schema (src/schema/resources/crm).
import { operation, runRoot } from "./graphql";
import { deliveryLogRoutes } from "./delivery-log";
import { bodyObject, pageVariables } from "./input";
import { bodyToInput, inputNames } from "./object-shapes";
import type { RestRoute } from "./route";
import { deleteRoute, getRoute, listRoute, namedInput, oneAt, updateRoute } from "./route-kinds";
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

const tag = "CRM destinations";
const destination = oneAt("/v1/crm-destinations/{destinationId}", tag, s.crmDestinationIdParams);

export const crmDestinationRoutes: RestRoute[] = [
  listRoute({
    path: "/v1/crm-destinations",
    operationId: "listCrmDestinations",
    tag,
    summary: (needs) => `The team's CRM destinations, oldest first (needs ${needs})`,
    operation: LIST,
    variables: pageVariables,
    item: s.crmDestination,
    responseDescription: "A page of destinations",
    cacheable: true,
  }),
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
  getRoute({
    ...destination,
    operationId: "getCrmDestination",
    summary: (needs) => `Get a CRM destination (needs ${needs})`,
    operation: GET,
    data: s.crmDestination,
    responseDescription: "The destination",
    cacheable: true,
  }),
  updateRoute({
    ...destination,
    operationId: "updateCrmDestination",
    summary: (needs) => `Change the given fields of a CRM destination; a new api_key replaces the stored one (needs ${needs})`,
    operation: UPDATE,
    body: s.updateCrmDestinationBody,
    input: namedInput(UPDATE_INPUT, SPELLED.spelled),
    data: s.crmDestination,
    message: "CRM destination updated successfully",
    responseDescription: "The destination",
  }),
  deleteRoute({
    ...destination,
    operationId: "deleteCrmDestination",
    summary: (needs) => `Delete a CRM destination, its stored API key and its delivery log (needs ${needs})`,
    operation: DELETE,
    message: "CRM destination deleted successfully",
  }),
  ...deliveryLogRoutes({
    one: destination,
    owner: "destination",
    sends: "lead",
    deliveryParams: s.crmDeliveryParams,
    list: { operationId: "listCrmDeliveries", operation: DELIVERIES },
    redeliver: { operationId: "redeliverCrmDelivery", operation: REDELIVER },
  }),
];
