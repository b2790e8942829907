// /v1/reports: list, address search (three forms), create, get, update, delete (docs/api.md "Report routes").
import type { Context } from "../context";
import { ignoredNames } from "../schema/fields";
import { reportFields } from "../schema/resources/report/fields";
import { operation, RestError, run, runJson } from "./graphql";
import { pageVariables, queryText } from "./input";
import { RawJson, type RestRoute } from "./route";
import { deleteRoute, oneAt, tableInput, updateRoute, write } from "./route-kinds";
import * as s from "./schemas";
import { bodyFormat, createReportFromReso, formatOf, reportAsReso, reportToReso, RESO_OPERATIONS, resoCreated } from "./reso";
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
const MATCHING = operation(`query RestReportsMatching($address: String!, $status: ReportStatusFilter!, $limit: Int!, $offset: Int!) {
  reportsMatching(address: $address, status: $status, limit: $limit, offset: $offset) { data: items { ${SUMMARY_FIELDS} } total limit offset }
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

/** The best match for an address, as the detail. */
async function searchByAddress(address: string, context: Context) {
  const { reportByAddress } = await run<{ reportByAddress: ReportDetailResult }>(BY_ADDRESS, { address }, context, detailOptions);
  return toReportDetail(reportByAddress);
}

const report = oneAt("/v1/reports/{reportId}", "Reports", s.reportIdParams);

export const reportRoutes: RestRoute[] = [
  {
    method: "get",
    cacheable: true,
    path: "/v1/reports",
    operationId: "listReports",
    tag: "Reports",
    summary: "List the team's reports, or find one by address",
    description:
      "Without address: a page of reports, newest first; with address_contains, only those whose address contains it (matched as the address search matches). With address: { data: the best-matching report } (exact, then prefix, then containment; latest update breaks ties); the other parameters are ignored.",
    operations: [LIST, BY_ADDRESS, MATCHING],
    query: s.reportListQuery,
    answer: { body: s.pageOf(s.reportSummary).or(s.dataOf(s.reportDetail)) },
    responseDescription: "A page of reports, or { data: report } when address is given",
    errors: [400, 404],
    checksKey: true,
    run: async (req, res) => {
      // address takes priority: limit, offset and status are then ignored, even when they are invalid.
      const address = queryText(req, "address");
      if (address !== undefined) return { data: await searchByAddress(address, res.locals.context) };
      const page = { status: queryText(req, "status") ?? "all", ...pageVariables(req) };
      const contains = queryText(req, "address_contains");
      if (contains !== undefined && !contains.trim()) throw new RestError(400, "address_contains must not be empty");
      if (contains !== undefined) return new RawJson(await runJson(MATCHING, "reportsMatching", { address: contains, ...page }, res.locals.context));
      return new RawJson(await runJson(LIST, "reports", page, res.locals.context));
    },
  },
  {
    method: "post",
    path: "/v1/reports",
    operationId: "createReport",
    tag: "Reports",
    summary: "Create a report (as a draft)",
    description:
      "listing_agent defaults to the team admin's name, created_by to the team's name; the display switches default to true. Names that are not fields of a new report are ignored and listed in ignored_fields. The body may be a RESO Property record (format=reso, or detected by its names): ignored_fields then lists the names it did not map.",
    operations: [CREATE, RESO_OPERATIONS.createReport],
    query: s.createFormatQuery,
    body: s.createReportBody.or(s.resoReportBody),
    status: 201,
    answer: { body: s.createdOf(s.report) },
    responseDescription: "The created report",
    run: async (req, res) => {
      // docs/api.md "RESO": a RESO record in, the report out with the names it did not map
      if (bodyFormat(req, reportFields) === "reso") return resoCreated(await createReportFromReso(req, res.locals.context), CREATED);
      const createReport = await write<ReportBody>(CREATE, tableInput(reportFields, "create"))(req, res);
      // Names a new report does not take are ignored, as the contract says, and named so that nothing is lost unseen.
      return { data: createReport, message: CREATED, ignored_fields: ignoredNames(reportFields, "create", req.body ?? {}) };
    },
  },
  {
    method: "get",
    cacheable: true,
    path: "/v1/reports/search",
    operationId: "searchReports",
    tag: "Reports",
    summary: "Find the report that best matches an address",
    operations: [BY_ADDRESS],
    query: s.addressSearchQuery,
    answer: { data: s.reportDetail },
    responseDescription: "The best-matching report",
    errors: [400, 404],
    run: (req, res) => searchByAddress(queryText(req, "address") ?? "", res.locals.context),
  },
  {
    method: "get",
    cacheable: true,
    path: report.path,
    operationId: "getReport",
    tag: "Reports",
    summary: "Get a report with its collections, or as a RESO Property record (format=reso)",
    operations: [GET, BY_ADDRESS, RESO_OPERATIONS.read],
    params: report.params,
    query: s.reportGetQuery,
    answer: { data: s.reportDetail.or(s.resoProperty) },
    responseDescription: "The report",
    errors: [400],
    checksKey: true,
    run: async (req, res) => {
      const reso = formatOf(req) === "reso"; // docs/api.md "RESO"
      const address = queryText(req, "address");
      if (address !== undefined) {
        const found = await searchByAddress(address, res.locals.context);
        return reso ? reportToReso(found) : found;
      }
      if (reso) return reportAsReso(String(req.params.reportId), res.locals.context);
      return new RawJson(await runJson(GET, "report", report.variables(req), res.locals.context, { ...detailOptions, shape: toReportDetail }));
    },
  },
  updateRoute({
    ...report,
    operationId: "updateReport",
    summary: "Change the given fields of a report",
    description: 'status "published" or is_draft false publishes (needs reports:publish); contradictory values are a 400.',
    operation: UPDATE,
    body: s.updateReportBody,
    input: tableInput(reportFields, "update"),
    data: s.report,
    message: "Report updated successfully",
    responseDescription: "The updated report",
  }),
  deleteRoute({
    ...report,
    operationId: "deleteReport",
    summary: "Delete a report and everything attached to it (irreversible)",
    operation: DELETE,
    message: "Report deleted successfully",
  }),
];
