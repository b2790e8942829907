// POST /v1/reports/{reportId}/summary: generates (and by default saves) the report's executive summary.
import { Router } from "express";
import { operation, run } from "./graphql";
import { jsonBody, optionalBodyObject } from "./input";
import { allowOnly, handle } from "./route";

const GENERATE = operation(`mutation RestGenerateSummary($reportId: ID!, $tone: SummaryTone, $length: SummaryLength, $save: Boolean) {
  generateSummary(reportId: $reportId, tone: $tone, length: $length, save: $save) {
    report_id: reportId executive_summary: executiveSummary source model generated_at: generatedAt saved warnings
  }
}`);

const PATH = "/reports/:reportId/summary";

export function summaryRouter(): Router {
  const router = Router();
  router.post(
    PATH,
    jsonBody,
    handle(async (req, res) => {
      const { tone, length, save } = optionalBodyObject(req);
      const { generateSummary } = await run<{ generateSummary: unknown }>(GENERATE, { reportId: req.params.reportId, tone, length, save }, res.locals.context);
      res.json({ data: generateSummary, message: "Summary generated" });
    }),
  );
  allowOnly(router, PATH, ["POST"]);
  return router;
}
