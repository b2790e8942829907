// /v1/reports/{reportId}/summary: POST generates (and by default saves) the report's executive summary; GET answers
// the saved one and whether the facts it was written from still hold.
import { operation, runRoot } from "./graphql";
import { optionalBodyObject } from "./input";
import { reportIdParam } from "./report-items";
import { objectShape } from "./object-shapes";
import type { RestRoute } from "./route";
import * as s from "./schemas";

const GENERATE = operation(`mutation RestGenerateSummary($reportId: ID!, $tone: SummaryTone, $length: SummaryLength, $save: Boolean) {
  generateSummary(reportId: $reportId, tone: $tone, length: $length, save: $save) {
    report_id: reportId executive_summary: executiveSummary source model generated_at: generatedAt saved warnings
  }
}`);

/** The saved summary and its staleness, from the Report type's fields. */
const STATE = objectShape("Report", { fields: [["report_id", "id"], "executiveSummary", "summaryStale", "summaryStaleFields"] });
const READ = operation(`query RestSummaryState($id: ID!) { report(id: $id) { ${STATE.selection} } }`);

export const summaryRoutes: RestRoute[] = [
  {
    method: "get",
    cacheable: true,
    path: "/v1/reports/{reportId}/summary",
    operationId: "getSummary",
    tag: "Summaries",
    summary: (needs) => `The report's saved executive summary, and whether the facts it was written from still hold (needs ${needs})`,
    description:
      "summary_stale is true when a fact the summary was written from changed since it was saved (summary_stale_fields names them: price, valuation, showings, social, insights…); null when there is no summary, or it was saved before its facts were recorded. The client's page and PDF never print a stale summary: they print one written from the current, shown facts instead.",
    operations: [READ],
    params: reportIdParam,
    answer: { data: STATE.schema.meta({ id: "SummaryState" }) },
    responseDescription: "The saved summary and its staleness",
    errors: [404],
    run: (req, res) => runRoot(READ, { id: req.params.reportId }, res.locals.context),
  },
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
