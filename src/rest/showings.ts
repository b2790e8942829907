// /v1/showings: list, create, and get/update/delete by id or unique_showing_key.
import { showingFields } from "../schema/resources/showing/fields";
import { operation } from "./graphql";
import { pageVariables, queryText } from "./input";
import type { RestRoute } from "./route";
import { deleteRoute, getRoute, listRoute, oneAt, tableInput, updateRoute, write } from "./route-kinds";
import * as s from "./schemas";
import { SHOWING_FRAGMENT } from "./shapes";

const LIST = operation(`query RestShowings($reportId: ID, $limit: Int!, $offset: Int!) {
  showings(reportId: $reportId, limit: $limit, offset: $offset) { total limit offset items { ...RestShowing } }
} ${SHOWING_FRAGMENT}`);
const GET = operation(`query RestShowing($id: String!) { showing(id: $id) { ...RestShowing } } ${SHOWING_FRAGMENT}`);
const CREATE = operation(`mutation RestCreateShowing($input: CreateShowingInput!) { createShowing(input: $input) { ...RestShowing } }
${SHOWING_FRAGMENT}`);
const UPDATE = operation(`mutation RestUpdateShowing($id: String!, $input: UpdateShowingInput!) {
  updateShowing(id: $id, input: $input) { ...RestShowing }
} ${SHOWING_FRAGMENT}`);
const DELETE = operation(`mutation RestDeleteShowing($id: String!) { deleteShowing(id: $id) }`);

const showing = oneAt("/v1/showings/{showingId}", "Showings", s.showingIdParams);

export const showingRoutes: RestRoute[] = [
  listRoute({
    path: "/v1/showings",
    operationId: "listShowings",
    tag: "Showings",
    summary: "List the team's showings, newest first",
    operation: LIST,
    query: s.showingListQuery,
    variables: (req) => ({ reportId: queryText(req, "report_id"), ...pageVariables(req) }),
    item: s.showing,
    responseDescription: "A page of showings",
    cacheable: true,
  }),
  {
    method: "post",
    path: "/v1/showings",
    operationId: "createShowing",
    tag: "Showings",
    summary: "Add a showing or open house to a report",
    operations: [CREATE],
    body: s.createShowingBody,
    status: 201,
    answer: { data: s.showing },
    message: "Showing created successfully",
    responseDescription: "The created showing",
    errors: [404, 409],
    run: write(CREATE, tableInput(showingFields, "create")),
  },
  getRoute({
    ...showing,
    operationId: "getShowing",
    summary: "Get a showing by id or unique_showing_key",
    operation: GET,
    data: s.showing,
    responseDescription: "The showing",
    cacheable: true,
  }),
  updateRoute({
    ...showing,
    operationId: "updateShowing",
    summary: "Change the given fields of a showing",
    operation: UPDATE,
    body: s.updateShowingBody,
    input: tableInput(showingFields, "update"),
    data: s.showing,
    message: "Showing updated successfully",
    responseDescription: "The updated showing",
    errors: [409],
  }),
  deleteRoute({
    ...showing,
    operationId: "deleteShowing",
    summary: "Delete a showing (irreversible)",
    operation: DELETE,
    message: "Showing deleted successfully",
  }),
];
