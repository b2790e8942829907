// A shared report's data as its view reads it (src/share/view.ts ReportData), for the unit tests of the view, the
// page and the PDF: every section on, a comparable the valuation did not use and one the agent excluded, and private
// fields a careless document might carry.
import type { ReportData } from "../../src/share/view";

/** The sample report, with `over` in place of its fields. */
export const sampleReport = (over: Partial<ReportData> = {}): ReportData => ({
  id: "r1",
  address: "1 Subject St",
  city: "Springfield",
  state: "IL",
  zip: "62704",
  price: 700000,
  sqft: 2000,
  listingAgent: "Lee Listing",
  showComps: true,
  showShowings: true,
  showSocial: true,
  showAgentInsights: true,
  showNeighborhood: true,
  valuation: { estimatedValue: 620000, valueRange: { low: 610000, high: 650000 }, pricePerSqft: { median: 310 }, comparablesUsed: 1, comparablesTotal: 3, confidence: { level: "medium", score: 0.6 }, comparables: [{ id: "c1", used: true }, { id: "c2", used: false }, { id: "c3", used: false }] },
  comparables: [
    { id: "c2", address: "No Size Ct", price: 500000, included: true },
    { id: "c1", address: "A St", price: 600000, sqft: 2000, adjustments: { garage: 10000 }, adjustedPrice: 610000, pricePerSqft: 305, similarity: 0.874, included: true },
    { id: "c3", address: "Dropped Rd", price: 900000, sqft: 1000, adjustedPrice: 900000, pricePerSqft: 900, included: false },
  ],
  // Extra fields a careless document might carry: the view never copies them.
  showings: [
    { showingDate: "2026-07-01T15:00:00Z", eventType: "showing", attendeesCount: 2, attendeeEmail: "pat@example.com", feedback: "dated kitchen" } as never,
    { showingDate: "2026-07-04T15:00:00Z", eventType: "open_house", attendeesCount: 14 },
  ],
  engagement: { totals: { posts: 1, likes: 10, comments: 2, shares: 1, views: 400 }, platforms: [{ platform: "instagram", posts: 1, likes: 10, comments: 2, shares: 1, views: 400 }] },
  agentInsights: [
    { title: "Priced to sell", body: "Closed above list.", category: "pricing" },
    { title: "Location", body: "Near the park.", category: "neighborhood" },
  ],
  ...over,
});
