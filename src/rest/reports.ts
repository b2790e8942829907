// /v1/reports: list, address search (three forms), create, get, update, delete.
import { Router, type Request } from "express";
import type { Context } from "../context";
import { operation, run } from "./graphql";
import { bodyObject, jsonBody, parse } from "./input";
import { renameAliases, reportAliases, reportInputNames, toGraphQLInput, withoutShadowedAliases } from "./names";
import { allowOnly, handle } from "./route";
import { addressSearchQuery, createReportBody, reportGetQuery, reportListQuery, updateReportBody } from "./schemas";
import {
  DETAIL_FRAGMENT,
  REPORT_FRAGMENT,
  SUMMARY_FIELDS,
  toReportDetail,
  type ReportBody,
  type ReportDetailResult,
  type ReportSummaryBody,
} from "./shapes";

const LIST = operation(`query RestReports($status: ReportStatusFilter!, $limit: Int!, $offset: Int!) {
  reports(status: $status, limit: $limit, offset: $offset) { total limit offset items { ${SUMMARY_FIELDS} } }
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

/** The best match for an address, as the detail. */
async function searchByAddress(address: string, context: Context) {
  const { reportByAddress } = await run<{ reportByAddress: ReportDetailResult }>(BY_ADDRESS, { address }, context, detailOptions);
  return { data: toReportDetail(reportByAddress) };
}

/** The checked body as the GraphQL input. Aliases are checked under the name the client used, then renamed. */
function reportInput(schema: typeof createReportBody | typeof updateReportBody, req: Request) {
  const body = parse(schema, withoutShadowedAliases(bodyObject(req), reportAliases));
  return toGraphQLInput(renameAliases(body, reportAliases), reportInputNames);
}

export function reportsRouter(): Router {
  const router = Router();

  router.get(
    "/reports",
    handle(async (req, res) => {
      // address takes priority: limit, offset and status are then ignored, even when they are invalid.
      const { address } = parse(reportGetQuery, req.query);
      if (address !== undefined) return void res.json(await searchByAddress(address, res.locals.context));
      const query = parse(reportListQuery, req.query);
      const { reports } = await run<{ reports: { items: ReportSummaryBody[]; total: number; limit: number; offset: number } }>(
        LIST,
        { status: query.status, limit: query.limit, offset: query.offset },
        res.locals.context,
      );
      res.json({ data: reports.items, total: reports.total, limit: reports.limit, offset: reports.offset });
    }),
  );
  router.post(
    "/reports",
    jsonBody,
    handle(async (req, res) => {
      const input = reportInput(createReportBody, req);
      const { createReport } = await run<{ createReport: ReportBody }>(CREATE, { input }, res.locals.context);
      res.status(201).json({ data: createReport, message: "Report created successfully" });
    }),
  );
  allowOnly(router, "/reports", ["GET", "POST"]);

  router.get(
    "/reports/search",
    handle(async (req, res) => {
      const { address } = parse(addressSearchQuery, req.query);
      res.json(await searchByAddress(address, res.locals.context));
    }),
  );
  allowOnly(router, "/reports/search", ["GET"]);

  router.get(
    "/reports/:reportId",
    handle(async (req, res) => {
      const { address } = parse(reportGetQuery, req.query);
      if (address !== undefined) return void res.json(await searchByAddress(address, res.locals.context));
      const { report } = await run<{ report: ReportDetailResult }>(GET, { id: req.params.reportId }, res.locals.context, detailOptions);
      res.json({ data: toReportDetail(report) });
    }),
  );
  router.patch(
    "/reports/:reportId",
    jsonBody,
    handle(async (req, res) => {
      const input = reportInput(updateReportBody, req);
      const { updateReport } = await run<{ updateReport: ReportBody }>(UPDATE, { id: req.params.reportId, input }, res.locals.context);
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
