// /v1/showings: list, create, and get/update/delete by id or unique_showing_key.
import type { Request } from "express";
import { showingFields } from "../schema/resources/showing/fields";
import { operation, runRoot } from "./graphql";
import { pageVariables, queryText, runWithBody, type Page } from "./input";
import type { RestRoute } from "./route";
import * as s from "./schemas";
import { SHOWING_FRAGMENT, type ShowingBody } from "./shapes";

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

const id = (req: Request) => ({ id: req.params.showingId });

export const showingRoutes: RestRoute[] = [
  {
    method: "get",
    cacheable: true,
    path: "/v1/showings",
    operationId: "listShowings",
    tag: "Showings",
    summary: "List the team's showings, newest first",
    operations: [LIST],
    query: s.showingListQuery,
    answer: { page: s.showing },
    responseDescription: "A page of showings",
    errors: [400],
    run: (req, res) => runRoot<Page<ShowingBody>>(LIST, { reportId: queryText(req, "report_id"), ...pageVariables(req) }, res.locals.context),
  },
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
    run: async (req, res) => (await runWithBody<{ createShowing: ShowingBody }>(CREATE, req, res.locals.context, { table: showingFields, mode: "create" })).createShowing,
  },
  {
    method: "get",
    cacheable: true,
    path: "/v1/showings/{showingId}",
    operationId: "getShowing",
    tag: "Showings",
    summary: "Get a showing by id or unique_showing_key",
    operations: [GET],
    params: s.showingIdParams,
    answer: { data: s.showing },
    responseDescription: "The showing",
    run: (req, res) => runRoot(GET, id(req), res.locals.context),
  },
  {
    method: "patch",
    path: "/v1/showings/{showingId}",
    operationId: "updateShowing",
    tag: "Showings",
    summary: "Change the given fields of a showing",
    operations: [UPDATE],
    params: s.showingIdParams,
    body: s.updateShowingBody,
    answer: { data: s.showing },
    message: "Showing updated successfully",
    responseDescription: "The updated showing",
    errors: [409],
    run: async (req, res) =>
      (await runWithBody<{ updateShowing: ShowingBody }>(UPDATE, req, res.locals.context, { table: showingFields, mode: "update", variables: id(req) })).updateShowing,
  },
  {
    method: "delete",
    path: "/v1/showings/{showingId}",
    operationId: "deleteShowing",
    tag: "Showings",
    summary: "Delete a showing (irreversible)",
    operations: [DELETE],
    params: s.showingIdParams,
    answer: "message",
    message: "Showing deleted successfully",
    responseDescription: "Deleted",
    run: async (req, res) => void (await runRoot(DELETE, id(req), res.locals.context)),
  },
];
