// /v1/reports: list, address search (three forms), create, get, update, delete.
import { Router, type Request } from "express";
import type { Context } from "../context";
import { reportFields } from "../schema/resources/report/fields";
import { operation, run, runJson } from "./graphql";
import { jsonBody, pageVariables, queryText, runWithBody, sendJson } from "./input";
import { allowOnly, handle } from "./route";
import { bodyFormat, createReportFromReso, formatOf, reportAsReso, reportToReso, resoCreated } from "./reso";
import {
  DETAIL_FRAGMENT,
  REPORT_FRAGMENT,
  SUMMARY_FIELDS,
  toReportDetail,
  type ReportBody,
  type ReportDetailResult,
} from "./shapes";

// The page under the REST body's names and in its order (data, total, limit, offset): the result is the body.
const LIST = operation(`query RestReports($status: ReportStatusFilter!, $limit: Int!, $offset: Int!) {
  reports(status: $status, limit: $limit, offset: $offset) { data: items { ${SUMMARY_FIELDS} } total limit offset }
}`);
const GET = operation(`query RestReport($id: ID!) { report(id: $id) { ...RestReportDetail } } ${DETAIL_FRAGMENT}`);
const BY_ADDRESS = operation(`query RestReportByAddress($address: String!) { reportByAddress(address: $address) { ...RestReportDetail } }
${DETAIL_FRAGMENT}`);
const CREATE = operation(`mutation RestCreateReport($input: CreateReportInput!) { createReport(input: $input) { ...RestReport } }
${REPORT_FRAGMENT}`);
const UPDATE = operation(`mutation RestUpdateReport($id: ID!, $input: UpdateReportInput!) {
  updateReport(id: $id, input: $input) { ...RestReport }
} ${REPORT_FRAGMENT}`);
const DELETE = operation(`mutation RestDeleteReport($id: ID!) { deleteReport(id: $id) }`);

const detailOptions = { allowForbiddenNested: true };
const CREATED = "Report created successfully";

/** Reads of reports answered by one statement, which can check the request's key too (auth/middleware.ts). */
export const readsReports = (req: Request): boolean => req.method === "GET" && /^\/v1\/reports(?:\/[\w-]+)?\/?$/.test(req.path);

/** The best match for an address, as the detail. */
async function searchByAddress(address: string, context: Context) {
  const { reportByAddress } = await run<{ reportByAddress: ReportDetailResult }>(BY_ADDRESS, { address }, context, detailOptions);
  return { data: toReportDetail(reportByAddress) };
}

export function reportsRouter(): Router {
  const router = Router();

  router.get(
    "/reports",
    handle(async (req, res) => {
      // address takes priority: limit, offset and status are then ignored, even when they are invalid.
      const address = queryText(req, "address");
      if (address !== undefined) return void res.json(await searchByAddress(address, res.locals.context));
      sendJson(res, await runJson(LIST, "reports", { status: queryText(req, "status") ?? "all", ...pageVariables(req) }, res.locals.context));
    }),
  );
  router.post(
    "/reports",
    jsonBody,
    handle(async (req, res) => {
      // docs/api.md "Wave 3 contracts" (RESO): a RESO record in, the report out with the names it did not map
      if (bodyFormat(req, reportFields) === "reso") return void res.status(201).json(resoCreated(await createReportFromReso(req, res.locals.context), CREATED));
      const { createReport } = await runWithBody<{ createReport: ReportBody }>(CREATE, req, res.locals.context, {
        table: reportFields,
        mode: "create",
      });
      res.status(201).json({ data: createReport, message: CREATED });
    }),
  );
  allowOnly(router, "/reports", ["GET", "POST"]);

  router.get(
    "/reports/search",
    handle(async (req, res) => {
      res.json(await searchByAddress(queryText(req, "address") ?? "", res.locals.context));
    }),
  );
  allowOnly(router, "/reports/search", ["GET"]);

  router.get(
    "/reports/:reportId",
    handle(async (req, res) => {
      const reso = formatOf(req) === "reso"; // docs/api.md "Wave 3 contracts" (RESO)
      const address = queryText(req, "address");
      if (address !== undefined) {
        const found = await searchByAddress(address, res.locals.context);
        return void res.json(reso ? { data: reportToReso(found.data) } : found);
      }
      if (reso) return void res.json({ data: await reportAsReso(String(req.params.reportId), res.locals.context) });
      const report = await runJson(GET, "report", { id: req.params.reportId }, res.locals.context, { ...detailOptions, shape: toReportDetail });
      sendJson(res, `{"data":${report}}`);
    }),
  );
  router.patch(
    "/reports/:reportId",
    jsonBody,
    handle(async (req, res) => {
      const { updateReport } = await runWithBody<{ updateReport: ReportBody }>(UPDATE, req, res.locals.context, {
        table: reportFields,
        mode: "update",
        variables: { id: req.params.reportId },
      });
      res.json({ data: updateReport, message: "Report updated successfully" });
    }),
  );
  router.delete(
    "/reports/:reportId",
    handle(async (req, res) => {
      await run(DELETE, { id: req.params.reportId }, res.locals.context);
      res.json({ message: "Report deleted successfully" });
    }),
  );
  allowOnly(router, "/reports/:reportId", ["GET", "PATCH", "DELETE"]);
  return router;
}
