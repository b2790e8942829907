// The facts a saved executive summary was written from, kept beside it (reports.summary_facts), so that the API can
// say when it went stale and the client's page never prints a sentence that no longer holds or that quotes a section
// the agent hid (docs/api.md "AI-generated summaries"). Scalars are kept as they were; texts and whole sections as a
// short digest, which is all a comparison needs.
import { createHash } from "node:crypto";
import { prisma } from "../../../db";
import { Prisma } from "../../../generated/prisma/client";
import { summaryInputs, type SummaryInputs } from "./inputs";
import { templateSummary } from "./template";

/** Each fact a summary may quote, under its REST name: a value, or a digest of a text or a section. */
export type SummaryFacts = Record<string, string | number | null>;

/** The sections a summary may draw on, each with the display switch that shows it to the client. */
export const SUMMARY_SECTIONS = { valuation: "showComps", showings: "showShowings", social: "showSocial", insights: "showAgentInsights" } as const;
type Section = keyof typeof SUMMARY_SECTIONS;
export type SectionSwitches = Record<(typeof SUMMARY_SECTIONS)[Section], boolean>;

const digest = (value: unknown): string | null =>
  value == null ? null : createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16);

/** The facts of a summary's inputs. A section with nothing in it is null: a summary cannot have quoted it. */
export function summaryFactsOf(inputs: SummaryInputs): SummaryFacts {
  const p = inputs.property;
  const visits = inputs.showings.showings + inputs.showings.open_houses;
  return {
    address: digest([p.address, p.city, p.state, p.zip]),
    property_type: p.property_type,
    price: p.price,
    beds: p.beds,
    baths: p.baths,
    sqft: p.sqft,
    year_built: p.year_built,
    lot_size: p.lot_size,
    description: digest(p.description),
    listing_agent: p.listing_agent,
    valuation: digest(inputs.valuation),
    showings: visits ? digest(inputs.showings) : null,
    social: digest(inputs.social),
    insights: inputs.insights.length ? digest(inputs.insights) : null,
  };
}

/** The facts that differ between those recorded and the current ones, in the order summaryFactsOf names them. */
export function changedFacts(recorded: SummaryFacts, current: SummaryFacts): string[] {
  return Object.keys(current).filter((name) => (recorded[name] ?? null) !== current[name]);
}

/** The facts recorded beside a saved summary, or null when it was saved before facts were recorded. */
export function recordedFacts(value: Prisma.JsonValue | null): SummaryFacts | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as SummaryFacts) : null;
}

/**
 * Records the report's facts as they are now beside a summary an update or a create just saved (or clears them with
 * the summary), once the change is committed: the summary was written for the report as that change left it. Only
 * while the summary is still that text: a later change's facts are its own to record.
 */
export async function recordSummaryFacts(teamId: string, reportId: string, summary: string | null): Promise<void> {
  const summaryFacts = summary === null ? Prisma.DbNull : summaryFactsOf(await summaryInputs(teamId, reportId, new Date()));
  await prisma.report.updateMany({ where: { id: reportId, teamId, executiveSummary: summary }, data: { summaryFacts } });
}

export interface SummaryState {
  /** True when a fact the summary was written from changed; null without a summary, or without recorded facts. */
  stale: boolean | null;
  /** The changed facts' REST names; null when stale is null. */
  staleFields: string[] | null;
  /** What the client reads: the saved summary while it holds, else one written from the current, shown facts. */
  forClient: string | null;
}

/** The inputs a client may read: hidden sections left out, and never a visitor's own words. */
function shownInputs(inputs: SummaryInputs, shown: SectionSwitches): SummaryInputs {
  const none = { ...inputs.showings, showings: 0, open_houses: 0, open_house_attendees: 0, rated: 0, average_rating: null, interested: 0 };
  return {
    ...inputs,
    valuation: shown.showComps ? inputs.valuation : null,
    showings: { ...(shown.showShowings ? inputs.showings : none), feedback: [] },
    social: shown.showSocial ? inputs.social : null,
    insights: shown.showAgentInsights ? inputs.insights : [],
  };
}

/**
 * A report's saved summary against its current facts. The client's page keeps the saved text only when every fact
 * it was written from still holds and no section it drew on is hidden; otherwise it reads a summary written now by
 * the template from the facts it is shown (so a hidden estimate or yesterday's price is never quoted to a buyer).
 */
export async function summaryState(teamId: string, reportId: string): Promise<SummaryState> {
  const row = await prisma.report.findFirst({
    where: { id: reportId, teamId },
    select: { executiveSummary: true, summaryFacts: true, showComps: true, showShowings: true, showSocial: true, showAgentInsights: true },
  });
  if (!row?.executiveSummary) return { stale: null, staleFields: null, forClient: null };
  const inputs = await summaryInputs(teamId, reportId, new Date());
  const recorded = recordedFacts(row.summaryFacts);
  const changed = recorded && changedFacts(recorded, summaryFactsOf(inputs));
  const drewOnHidden = recorded !== null && (Object.keys(SUMMARY_SECTIONS) as Section[]).some((s) => recorded[s] !== null && !row[SUMMARY_SECTIONS[s]]);
  const holds = changed !== null && !changed.length && !drewOnHidden;
  return {
    stale: changed === null ? null : changed.length > 0,
    staleFields: changed,
    forClient: holds ? row.executiveSummary : templateSummary(shownInputs(inputs, row), "professional", "standard"),
  };
}

const states = new WeakMap<object, Map<string, Promise<SummaryState>>>();

/** summaryState once per request and report: the fields that read it share one computation. */
export function summaryStateOf(context: object, teamId: string, reportId: string): Promise<SummaryState> {
  let byReport = states.get(context);
  if (!byReport) states.set(context, (byReport = new Map()));
  let state = byReport.get(reportId);
  if (!state) byReport.set(reportId, (state = summaryState(teamId, reportId)));
  return state;
}
