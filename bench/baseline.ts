// Scenario 1's baseline: a hand-written Express route behind the same auth middleware that reads the report with
// ONE Prisma call and writes the same JSON body as GET /v1/reports/{id}. The harness checks the two bodies are
// equal before it measures, so the baseline never does less work than the real route by accident.
import express, { type Express } from "express";
import { authenticate } from "../src/auth/middleware";
import type { RateLimiter } from "../src/auth/rate-limit";
import { prisma } from "../src/db";
import { errorHandler, sendError } from "../src/http/errors";
import { securityHeaders } from "../src/http/security";
import { adjustedPrice, pricePerSqft } from "../src/schema/resources/comparable/market-analysis";

const oldestFirst = [{ createdAt: "asc" as const }, { id: "asc" as const }];
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const count = (n: bigint | null) => (n === null ? null : Number(n));

async function readReport(id: string, teamId: string) {
  return prisma.report.findFirst({
    where: { id, teamId },
    include: {
      // The contract embeds at most the first 100 of each collection (docs/api.md "Embedded collections and restricted keys"), so the hand-written route does too.
      comparables: { orderBy: oldestFirst, take: 100 },
      showings: { orderBy: oldestFirst, take: 100 },
      socialMediaPosts: { orderBy: oldestFirst, take: 100 },
      agentInsights: { orderBy: oldestFirst, take: 100 },
      _count: { select: { showings: true } },
    },
  });
}

type Report = NonNullable<Awaited<ReturnType<typeof readReport>>>;

/** The body of GET /v1/reports/{id} (src/rest/shapes.ts toReportDetail), same keys in the same order. */
export function detailBody(r: Report) {
  return {
    data: {
      id: r.id,
      address: r.address,
      city: r.city,
      state: r.state,
      zip: r.zip,
      price: r.price,
      beds: r.beds,
      baths: r.baths,
      sqft: r.sqft,
      year_built: r.yearBuilt,
      property_type: r.propertyType,
      status: r.status,
      is_published: r.status === "published",
      is_draft: r.status === "draft",
      published_at: iso(r.publishedAt),
      views_count: r.viewsCount,
      saves_count: r.savesCount,
      showings_count: r._count.showings,
      created_at: iso(r.createdAt),
      updated_at: iso(r.updatedAt),
      bedrooms: r.beds,
      bathrooms: r.baths,
      square_feet: r.sqft,
      date_created: iso(r.createdAt),
      description: r.description,
      lot_size: r.lotSize,
      portal_url: r.portalUrl,
      portal_property_id: r.portalPropertyId,
      mls_id: r.mlsId,
      listing_agent: r.listingAgent,
      created_by: r.createdBy,
      custom_agent_name: r.customAgentName,
      custom_agent_email: r.customAgentEmail,
      primary_color: r.primaryColor,
      secondary_color: r.secondaryColor,
      executive_summary: r.executiveSummary,
      show_comps_on_report: r.showComps,
      show_neighborhood_on_report: r.showNeighborhood,
      show_social_on_report: r.showSocial,
      show_showings_on_report: r.showShowings,
      show_agent_insights_on_report: r.showAgentInsights,
      comparable_properties: r.comparables.map((c) => ({
        id: c.id, report_id: c.reportId, address: c.address, city: c.city, state: c.state, zip: c.zip, price: c.price, beds: c.beds,
        baths: c.baths, sqft: c.sqft, lot_size: c.lotSize, year_built: c.yearBuilt, distance_miles: c.distanceMiles,
        sale_date: iso(c.saleDate), days_on_market: c.daysOnMarket, status: c.status, source: c.source, mls_id: c.mlsId,
        latitude: c.latitude, longitude: c.longitude, adjustments: c.adjustments, included: c.included,
        adjusted_price: adjustedPrice(c), price_per_sqft: pricePerSqft(c), created_at: iso(c.createdAt), updated_at: iso(c.updatedAt),
      })),
      showing_events: r.showings.map((s) => ({
        id: s.id, service_id: s.serviceId, report_id: s.reportId, showing_date: iso(s.showingDate), scheduled_date: iso(s.scheduledDate),
        attendee_name: s.attendeeName, attendee_email: s.attendeeEmail, attendee_phone: s.attendeePhone, agent_name: s.agentName,
        feedback: s.feedback, rating: s.rating, interested: s.interested, event_type: s.eventType, title: s.title,
        attendees_count: s.attendeesCount, unique_showing_key: s.uniqueShowingKey, showing_time_start: iso(s.showingTimeStart),
        showing_time_end: iso(s.showingTimeEnd), created_at: iso(s.createdAt), updated_at: iso(s.updatedAt),
      })),
      // The counts are bigint columns: JSON numbers, as the field table sends them (social-post/fields.ts).
      social_media_posts: r.socialMediaPosts.map((p) => ({
        id: p.id, report_id: p.reportId, platform: p.platform, external_id: p.externalId, url: p.url, caption: p.caption, posted_at: iso(p.postedAt),
        likes: count(p.likes), comments: count(p.comments), shares: count(p.shares), saves: count(p.saves), views: count(p.views), reach: count(p.reach),
        metrics_at: iso(p.metricsAt), created_at: iso(p.createdAt), updated_at: iso(p.updatedAt),
      })),
      agent_insights: r.agentInsights.map((i) => ({
        id: i.id, report_id: i.reportId, title: i.title, body: i.body, category: i.category, author: i.author, source: i.source,
        created_at: iso(i.createdAt), updated_at: iso(i.updatedAt),
      })),
    },
  };
}

export const BASELINE_PATH = "/v1/reports/:id";

/**
 * The baseline app: same Express settings, security headers and auth middleware as the service, then the one
 * hand-written route. (Scenario 1 measures what REST-through-GraphQL costs, not the HTTP hygiene every response of
 * the service carries: the helmet headers are a dozen per response, about 0.1 ms.)
 */
export function buildBaselineApp(rateLimiter: RateLimiter): Express {
  const app = express();
  app.disable("x-powered-by");
  app.use(securityHeaders());
  app.use(authenticate(rateLimiter));
  app.get(BASELINE_PATH, async (req, res, next) => {
    try {
      const report = await readReport(String(req.params.id), res.locals.context.viewer!.teamId);
      if (!report) return sendError(res, 404, "Report not found");
      res.json(detailBody(report));
    } catch (err) {
      next(err);
    }
  });
  app.use(errorHandler);
  return app;
}
