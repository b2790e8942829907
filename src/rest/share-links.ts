// Share links and the report's PDF over REST (docs/api.md "Share links"): names mapped to
// snake_case, every rule behind the schema (src/schema/resources/share-link). The public pages the links open are
// src/share/router.ts.
import type { Request } from "express";
import { pathNaming } from "../schema/errors";
import { loadReport, pdfFileName, reportView } from "../share/view";
import { reportPdf } from "../share/pdf";
import { pdfComparablePhotos, pdfPhotos } from "../share/photos";
import { operation, runRoot } from "./graphql";
import { bodyObject, pageVariables } from "./input";
import { bodyToInput, inputNames, snakeCase } from "./object-shapes";
import { reportIdParam } from "./report-items";
import type { RestRoute } from "./route";
import { listRoute } from "./route-kinds";
import * as s from "./schemas";
import { SHARE_LINK } from "./shapes";

const LINK = SHARE_LINK.fragment;
const LIST = operation(`query RestShareLinks($reportId: ID!, $limit: Int!, $offset: Int!) {
  shareLinks(reportId: $reportId, limit: $limit, offset: $offset) { total limit offset items { ...RestShareLink } }
} ${LINK}`);
const CREATE = operation(`mutation RestCreateShareLink($reportId: ID!, $input: CreateShareLinkInput!) {
  createShareLink(reportId: $reportId, input: $input) { link { ...RestShareLink } token path warnings }
} ${LINK}`);
const REVOKE = operation(`mutation RestRevokeShareLink($reportId: ID!, $id: ID!) { revokeShareLink(reportId: $reportId, id: $id) { ...RestShareLink } } ${LINK}`);

const nameOf = pathNaming(snakeCase);

const CREATE_INPUT = inputNames("CreateShareLinkInput");

/** The full address of a link's page, on the host the request came to. */
const urlOf = (req: Request, path: string) => `${req.protocol}://${req.get("host")}${path}`;

const links = "/v1/reports/{reportId}/share-links";
const tag = "Reports";

export const shareLinkRoutes: RestRoute[] = [
  listRoute({
    path: links,
    operationId: "listShareLinks",
    tag,
    summary: (needs) => `A report's share links, newest first, revoked and expired ones too; never their tokens (needs ${needs})`,
    operation: LIST,
    params: reportIdParam,
    variables: (req) => ({ reportId: req.params.reportId, ...pageVariables(req) }),
    item: s.shareLink,
    responseDescription: "A page of share links",
  }),
  {
    method: "post",
    path: links,
    operationId: "createShareLink",
    tag,
    summary: (needs) => `Make a link to a public, read-only page of the report (needs ${needs})`,
    description:
      "The page (HTML, no key, no script) and its PDF (url + .pdf) show the report's facts, executive summary and agent, and the sections whose show_*_on_report switch is on; never showing attendees' names, e-mails, phones or feedback. Unknown, expired or revoked: 404. token and url are in this answer only.",
    operations: [CREATE],
    params: reportIdParam,
    body: s.createShareLinkBody,
    bodyOptional: true,
    status: 201,
    answer: { data: s.shareLinkWithToken },
    message: "Share link created; copy its url now: it is not shown again",
    responseDescription: "The link with its token and url (shown only now)",
    run: async (req, res) => {
      const variables = { reportId: req.params.reportId, input: bodyToInput(CREATE_INPUT, bodyObject(req)) };
      const made = await runRoot<{ link: object; token: string; path: string; warnings: string[] }>(CREATE, variables, res.locals.context, { nameOf });
      return { ...made.link, url: urlOf(req, made.path), token: made.token, warnings: made.warnings };
    },
  },
  {
    method: "delete",
    path: `${links}/{linkId}`,
    operationId: "revokeShareLink",
    tag,
    summary: (needs) => `Revoke a share link: its page and PDF answer 404 from now on, on every server (needs ${needs})`,
    operations: [REVOKE],
    params: s.shareLinkParams,
    answer: { data: s.shareLink },
    message: "Share link revoked",
    responseDescription: "The revoked link",
    run: (req, res) => runRoot(REVOKE, { reportId: req.params.reportId, id: req.params.linkId }, res.locals.context),
  },
  {
    method: "get",
    cacheable: true,
    path: "/v1/reports/{reportId}/pdf",
    operationId: "getReportPdf",
    tag,
    // Its operation is the share page's (src/share/view.ts), which reads the report.
    summary: "The report as a PDF: the share page's content (needs reports:read; sections of collections the key may not read are left out)",
    operations: [],
    params: reportIdParam,
    answer: "message",
    binary: "application/pdf",
    responseDescription: "The PDF",
    errors: [403],
    run: async (req, res) => {
      // The report as its page shows it; collections the key may not read are left out like the detail's.
      const view = reportView(await loadReport(String(req.params.reportId), res.locals.context));
      res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="${pdfFileName(view)}"`);
      const context = res.locals.context;
      const teamId = context.viewer?.teamId;
      const photos = teamId ? await pdfPhotos(String(req.params.reportId), teamId, context) : [];
      const comparables = teamId ? await pdfComparablePhotos(String(req.params.reportId), teamId, view) : [];
      res.send(await reportPdf(view, photos, comparables));
    },
  },
];
