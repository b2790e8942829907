// generateSummary: an executive summary of a report written by the configured provider from the report's facts,
// valuation, showings, engagement and insights; screened (fair housing, grounding, length) and saved unless asked not
// to (docs/api.md "AI-generated summaries").
import { recordAudit } from "../../../audit/log";
import { config } from "../../../config";
import { recordEvent, withEvents } from "../../../webhooks/outbox";
import { reportRecord } from "../payloads";
import { builder } from "../../builder";
import { ApiError, isRowGone, notFound } from "../../errors";
import { requirePermission, teamIdOf } from "../../scope";
import { REPORT_NOT_FOUND } from "../report/lookup";
import { summaryFactsOf } from "./facts";
import { summaryInputs } from "./inputs";
import { summaryProvider } from "./providers";
import { flaggedPhrases, inputNumbers, screenWarnings, SUMMARY_LENGTHS, withinWords, WORD_LIMITS, wordCount, type SummaryLength } from "./screen";
import { SUMMARY_TONES, type SummaryTone } from "./template";
import { needs } from "../../needs";

const Tone = builder.enumType("SummaryTone", {
  description: "How a summary reads: professional (default), warm or luxury",
  values: SUMMARY_TONES,
});
const Length = builder.enumType("SummaryLength", {
  description: `How long a summary may be: short (≤ ${WORD_LIMITS.short} words), standard (default, ≤ ${WORD_LIMITS.standard}) or long (≤ ${WORD_LIMITS.long})`,
  values: SUMMARY_LENGTHS,
});
const Source = builder.enumType("SummarySource", {
  description: "template: written offline from the inputs; ai: written by a language model",
  values: ["template", "ai"] as const,
});

interface GeneratedSummary {
  reportId: string;
  executiveSummary: string;
  source: "template" | "ai";
  model: string;
  generatedAt: Date;
  saved: boolean;
  warnings: string[];
}

const GeneratedSummaryType = builder.objectRef<GeneratedSummary>("GeneratedSummary").implement({
  description: "A generated executive summary and what the screen found in it",
  fields: (t) => ({
    reportId: t.exposeID("reportId", { description: "The report's id" }),
    executiveSummary: t.exposeString("executiveSummary", { description: "The summary" }),
    source: t.field({ type: Source, description: "Who wrote it", resolve: (s) => s.source }),
    model: t.exposeString("model", { description: "The model (template-v1 for the template)" }),
    generatedAt: t.expose("generatedAt", { type: "DateTime", description: "When it was written" }),
    saved: t.exposeBoolean("saved", { description: "Whether it is now the report's executiveSummary" }),
    warnings: t.exposeStringList("warnings", {
      description:
        "fair_housing:<phrase> for each listed phrase it contains; ungrounded_number:<n> for each number not in the inputs; truncated:<words> when a model's text was cut to the length's limit",
    }),
  }),
});

const blocked = (phrases: string[]) =>
  new ApiError(() => `Summary not saved: the fair-housing screen flagged ${phrases.map((p) => `"${p}"`).join(", ")}`, 422, "FAIR_HOUSING_FLAGGED");

builder.mutationFields((t) => ({
  generateSummary: t.field({
    type: GeneratedSummaryType,
    ...needs("ai_insights:create", "Writes an executive summary of a report from its facts, valuation, showings, social engagement and agent insights, and saves it as the report's executiveSummary unless save is false.", "(and reports:update to save)"),
    args: {
      reportId: t.arg.id({ required: true, description: "The report's id" }),
      tone: t.arg({ type: Tone, defaultValue: "professional", description: "professional (default), warm or luxury" }),
      length: t.arg({ type: Length, defaultValue: "standard", description: "short, standard (default) or long" }),
      save: t.arg.boolean({ defaultValue: true, description: "Save it as the report's executiveSummary (default true)" }),
    },
    resolve: async (_root, args, ctx) => {
      const tone: SummaryTone = args.tone ?? "professional";
      const length: SummaryLength = args.length ?? "standard";
      const save = args.save ?? true;
      if (save) requirePermission(ctx, "reports:update");
      const teamId = teamIdOf(ctx);
      const reportId = String(args.reportId);

      const generatedAt = new Date();
      const inputs = await summaryInputs(teamId, reportId, generatedAt);
      const written = await summaryProvider().write(inputs, tone, length);
      // A model may run past the limit: its first sentences that fit are kept, and the warning says so.
      const words = wordCount(written.text);
      const text = withinWords(written.text, WORD_LIMITS[length]);
      const warnings = [...screenWarnings(text, inputNumbers(inputs)), ...(text === written.text ? [] : [`truncated:${words}`])];

      if (save) {
        const flagged = flaggedPhrases(text);
        if (config.AI_FAIR_HOUSING === "block" && flagged.length) throw blocked(flagged);
        const summary = { report_id: reportId, executive_summary: text, source: written.source, model: written.model, generated_at: generatedAt.toISOString(), warnings };
        await withEvents(async (tx) => {
          // Recorded with it: the facts it was written from, to tell when it goes stale (facts.ts).
          const { count } = await tx.report.updateMany({ where: { id: reportId, teamId }, data: { executiveSummary: text, summaryFacts: summaryFactsOf(inputs) } });
          // Deleted while the summary was written.
          if (count === 0) throw notFound(REPORT_NOT_FOUND);
          // The report changed too: a receiver mirroring reports gets it from report.updated like any other change.
          await recordEvent(tx, teamId, "summary.generated", summary);
          await recordAudit(tx, ctx, { teamId, action: "summary.generated", target: { type: "report", id: reportId } });
          await recordEvent(tx, teamId, "report.updated", await reportRecord(tx, reportId));
        }).catch((err: unknown) => {
          throw isRowGone(err) ? notFound(REPORT_NOT_FOUND) : err;
        });
      }
      return { reportId, executiveSummary: text, source: written.source, model: written.model, generatedAt, saved: save, warnings };
    },
  }),
}));
