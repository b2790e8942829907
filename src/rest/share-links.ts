// Share links and the report's PDF over REST (docs/api.md "Wave 3 contracts", "Share links"): names mapped to
// snake_case, every rule behind the schema (src/schema/resources/share-link). The public pages the links open are
// src/share/router.ts.
import { Router, type Request } from "express";
import { pathNaming } from "../schema/errors";
import { loadReport, reportView } from "../share/view";
import { reportPdf } from "../share/pdf";
import { operation, run } from "./graphql";
import { bodyObject, jsonBody, pageBody, pageVariables, type Page } from "./input";
import { allowOnly, handle } from "./route";

const LINK = `fragment RestShareLink on ShareLink {
  id report_id: reportId label expires_at: expiresAt created_at: createdAt revoked_at: revokedAt
}`;
const LIST = operation(`query RestShareLinks($reportId: ID!, $limit: Int!, $offset: Int!) {
  shareLinks(reportId: $reportId, limit: $limit, offset: $offset) { total limit offset items { ...RestShareLink } }
} ${LINK}`);
const CREATE = operation(`mutation RestCreateShareLink($reportId: ID!, $input: CreateShareLinkInput!) {
  createShareLink(reportId: $reportId, input: $input) { link { ...RestShareLink } token path }
} ${LINK}`);
const REVOKE = operation(`mutation RestRevokeShareLink($reportId: ID!, $id: ID!) { revokeShareLink(reportId: $reportId, id: $id) { ...RestShareLink } } ${LINK}`);

const REST_NAMES: Record<string, string> = { expiresAt: "expires_at", reportId: "report_id" };
const nameOf = pathNaming((field) => REST_NAMES[field] ?? field);

/** The body's fields under their GraphQL names; anything else is ignored, as elsewhere. */
function linkInput(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    [["label", "label"], ["expires_at", "expiresAt"]].filter(([rest]) => rest in body).map(([rest, graphql]) => [graphql, body[rest]]),
  );
}

/** The full address of a link's page, on the host the request came to. */
const urlOf = (req: Request, path: string) => `${req.protocol}://${req.get("host")}${path}`;

export function shareLinksRouter(): Router {
  const router = Router();
  const links = "/reports/:reportId/share-links";
  router.get(
    links,
    handle(async (req, res) => {
      const data = await run<{ shareLinks: Page }>(LIST, { reportId: req.params.reportId, ...pageVariables(req) }, res.locals.context);
      res.json(pageBody(data.shareLinks));
    }),
  );
  router.post(
    links,
    jsonBody,
    handle(async (req, res) => {
      const variables = { reportId: req.params.reportId, input: linkInput(bodyObject(req)) };
      const { createShareLink: made } = await run<{ createShareLink: { link: object; token: string; path: string } }>(CREATE, variables, res.locals.context, { nameOf });
      res.status(201).json({ data: { ...made.link, url: urlOf(req, made.path), token: made.token }, message: "Share link created; copy its url now: it is not shown again" });
    }),
  );
  allowOnly(router, links, ["GET", "POST"]);

  const one = `${links}/:linkId`;
  router.delete(
    one,
    handle(async (req, res) => {
      const data = await run<{ revokeShareLink: unknown }>(REVOKE, { reportId: req.params.reportId, id: req.params.linkId }, res.locals.context);
      res.json({ data: data.revokeShareLink, message: "Share link revoked" });
    }),
  );
  allowOnly(router, one, ["DELETE"]);

  const pdf = "/reports/:reportId/pdf";
  router.get(
    pdf,
    handle(async (req, res) => {
      // The report as its page shows it; collections the key may not read are left out like the detail's.
      const view = reportView(await loadReport(String(req.params.reportId), res.locals.context));
      res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="report-${req.params.reportId}.pdf"`);
      res.send(await reportPdf(view));
    }),
  );
  allowOnly(router, pdf, ["GET"]);
  return router;
}
