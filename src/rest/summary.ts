// POST /v1/reports/{reportId}/summary: generates (and by default saves) the report's executive summary.
import { operation, runRoot } from "./graphql";
import { optionalBodyObject } from "./input";
import { reportIdParam } from "./report-items";
import type { RestRoute } from "./route";
import * as s from "./schemas";

const GENERATE = operation(`mutation RestGenerateSummary($reportId: ID!, $tone: SummaryTone, $length: SummaryLength, $save: Boolean) {
  generateSummary(reportId: $reportId, tone: $tone, length: $length, save: $save) {
    report_id: reportId executive_summary: executiveSummary source model generated_at: generatedAt saved warnings
  }
}`);

export const summaryRoutes: RestRoute[] = [
  {
    method: "post",
    path: "/v1/reports/{reportId}/summary",
    operationId: "generateSummary",
    tag: "Summaries",
    summary: (needs) =>
      `Write the report's executive summary from its facts, valuation, showings, engagement and insights (needs ${needs}; reports:update to save)`,
    description:
      'The template provider (default) writes offline and deterministically; an OpenAI-compatible model can be configured (README "AI summaries"). The text is screened for fair-housing phrases and for numbers that are not in the inputs (warnings). Saved as the report\'s executive_summary unless save is false.',
    operations: [GENERATE],
    params: reportIdParam,
    body: s.summaryBody,
    bodyOptional: true,
    answer: { data: s.generatedSummary },
    message: "Summary generated",
    responseDescription: "The summary",
    errors: [422, 502, 504],
    run: (req, res) => {
      const { tone, length, save } = optionalBodyObject(req);
      return runRoot(GENERATE, { reportId: req.params.reportId, tone, length, save }, res.locals.context);
    },
  },
];
