// /v1/showings: list, create, and get/update/delete by id or unique_showing_key.
import { Router } from "express";
import { showingFields } from "../schema/resources/showing/fields";
import { operation, run } from "./graphql";
import { jsonBody, pageBody, pageVariables, queryText, runWithBody, type Page } from "./input";
import { allowOnly, handle } from "./route";
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

export function showingsRouter(): Router {
  const router = Router();

  router.get(
    "/showings",
    handle(async (req, res) => {
      const { showings } = await run<{ showings: Page<ShowingBody> }>(LIST, { reportId: queryText(req, "report_id"), ...pageVariables(req) }, res.locals.context);
      res.json(pageBody(showings));
    }),
  );
  router.post(
    "/showings",
    jsonBody,
    handle(async (req, res) => {
      const { createShowing } = await runWithBody<{ createShowing: ShowingBody }>(CREATE, req, res.locals.context, { table: showingFields, mode: "create" });
      res.status(201).json({ data: createShowing, message: "Showing created successfully" });
    }),
  );
  allowOnly(router, "/showings", ["GET", "POST"]);

  router.get(
    "/showings/:showingId",
    handle(async (req, res) => {
      const { showing } = await run<{ showing: ShowingBody }>(GET, { id: req.params.showingId }, res.locals.context);
      res.json({ data: showing });
    }),
  );
  router.patch(
    "/showings/:showingId",
    jsonBody,
    handle(async (req, res) => {
      const { updateShowing } = await runWithBody<{ updateShowing: ShowingBody }>(UPDATE, req, res.locals.context, {
        table: showingFields,
        mode: "update",
        variables: { id: req.params.showingId },
      });
      res.json({ data: updateShowing, message: "Showing updated successfully" });
    }),
  );
  router.delete(
    "/showings/:showingId",
    handle(async (req, res) => {
      await run(DELETE, { id: req.params.showingId }, res.locals.context);
      res.json({ message: "Showing deleted successfully" });
    }),
  );
  allowOnly(router, "/showings/:showingId", ["GET", "PATCH", "DELETE"]);
  return router;
}
