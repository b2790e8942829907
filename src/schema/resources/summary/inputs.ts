// What a summary is written from (docs/api.md "AI-generated summaries"): the report's facts, the valuation, the
// showings, the social engagement totals and the agent's insights — as one JSON-ready object in the REST names.
// Both providers get exactly this; the grounding check reads its numbers.
import { prisma } from "../../../db";
import { notFound } from "../../errors";
import { isUuid } from "../../scope";
import { valuate } from "../comparable/market-analysis";
import { VALUATION_SELECT } from "../comparable/valuation";
import { REPORT_NOT_FOUND } from "../report/lookup";
import { engagementOf } from "../social-post/engagement";

/** Texts longer than this are cut (at a word) before they reach a provider. */
const MAX_TEXT = 2000;
/** The newest feedback texts and insights a summary may draw on. */
const MAX_FEEDBACK = 10;
const MAX_INSIGHTS = 10;
export const RATING_SCALE = 5;

export interface SummaryInputs {
  property: {
    address: string;
    city: string | null;
    state: string | null;
    zip: string | null;
    property_type: string | null;
    price: number | null;
    beds: number | null;
    baths: number | null;
    sqft: number | null;
    year_built: number | null;
    lot_size: number | null;
    description: string | null;
    listing_agent: string;
  };
  /** Null when the report has no comparables. */
  valuation: {
    comparables_total: number;
    comparables_used: number;
    estimated_value: number | null;
    value_range: { low: number; high: number } | null;
    price_per_sqft: { min: number; median: number; max: number } | null;
    warnings: string[];
  } | null;
  showings: {
    showings: number;
    open_houses: number;
    open_house_attendees: number;
    rated: number;
    /** Mean rating to one decimal, null when none is rated. */
    average_rating: number | null;
    rating_scale: number;
    interested: number;
    /** The newest feedback texts, newest first. */
    feedback: string[];
  };
  /** Null when the report has no posts. */
  social: {
    posts: number;
    platforms: string[];
    views: number;
    reach: number;
    likes: number;
    comments: number;
    shares: number;
    saves: number;
  } | null;
  /** The newest insights, newest first. */
  insights: Array<{ category: string; title: string | null; body: string }>;
}

/** A text cut to MAX_TEXT characters at a word, without a dangling partial word. */
function bounded(text: string | null): string | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  if (trimmed.length <= MAX_TEXT) return trimmed;
  const cut = trimmed.slice(0, MAX_TEXT);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), 1)).trim();
}

/** The inputs of a report of the team, or a 404. Two statements: the report with its items, then engagement. */
export async function summaryInputs(teamId: string, reportId: string, now: Date): Promise<SummaryInputs> {
  const report = isUuid(reportId)
    ? await prisma.report.findFirst({
        where: { id: reportId, teamId },
        select: {
          id: true,
          address: true,
          city: true,
          state: true,
          zip: true,
          propertyType: true,
          beds: true,
          baths: true,
          yearBuilt: true,
          lotSize: true,
          description: true,
          listingAgent: true,
          customAgentName: true,
          ...VALUATION_SELECT,
          showings: { select: { eventType: true, rating: true, interested: true, feedback: true, attendeesCount: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] },
          agentInsights: { select: { category: true, title: true, body: true }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: MAX_INSIGHTS },
        },
      })
    : null;
  if (!report) throw notFound(REPORT_NOT_FOUND);

  const valuation = report.comparables.length ? valuate(report, report.comparables, now) : null;
  const showings = report.showings.filter((s) => s.eventType === "showing");
  const openHouses = report.showings.filter((s) => s.eventType === "open_house");
  const ratings = report.showings.map((s) => s.rating).filter((r): r is number => r != null);
  const engagement = await engagementOf(report.id, teamId);
  const { totals } = engagement;

  return {
    property: {
      address: report.address,
      city: report.city,
      state: report.state,
      zip: report.zip,
      property_type: report.propertyType,
      price: report.price,
      beds: report.beds,
      baths: report.baths,
      sqft: report.sqft,
      year_built: report.yearBuilt,
      lot_size: report.lotSize,
      description: bounded(report.description),
      listing_agent: report.customAgentName ?? report.listingAgent,
    },
    valuation: valuation && {
      comparables_total: valuation.comparablesTotal,
      comparables_used: valuation.comparablesUsed,
      estimated_value: valuation.estimatedValue,
      value_range: valuation.valueRange,
      price_per_sqft: valuation.pricePerSqft,
      warnings: [...valuation.warnings],
    },
    showings: {
      showings: showings.length,
      open_houses: openHouses.length,
      open_house_attendees: openHouses.reduce((sum, s) => sum + (s.attendeesCount ?? 0), 0),
      rated: ratings.length,
      average_rating: ratings.length ? Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10 : null,
      rating_scale: RATING_SCALE,
      interested: report.showings.filter((s) => s.interested).length,
      feedback: report.showings
        .map((s) => bounded(s.feedback))
        .filter((f): f is string => f !== null)
        .slice(0, MAX_FEEDBACK),
    },
    social: totals.posts
      ? {
          posts: totals.posts,
          platforms: engagement.platforms.map((p) => p.platform!),
          views: totals.views,
          reach: totals.reach,
          likes: totals.likes,
          comments: totals.comments,
          shares: totals.shares,
          saves: totals.saves,
        }
      : null,
    insights: report.agentInsights.map((i) => ({ category: i.category, title: bounded(i.title), body: bounded(i.body)! })),
  };
}
