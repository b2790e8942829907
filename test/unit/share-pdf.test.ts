// The report's PDF (src/share/pdf.ts) read back as text (pdfjs): every page carries its footer and number, and no
// section heading is left alone at a page's foot, whatever the length of the text before it.
import { reportPdf } from "../../src/share/pdf";
import { reportView, type ReportData } from "../../src/share/view";
import { pdfText } from "../support/pdf-text";

const HEADINGS = ["The property", "Executive summary", "Market valuation", "Comparable properties", "Showing activity", "Social media reach", "Agent insights", "The neighborhood"];

const report = (description: string): ReportData => ({
  id: "r1",
  address: "12 Garden Lane",
  city: "Springfield",
  state: "IL",
  price: 700000,
  sqft: 2000,
  description,
  clientSummary: "Priced in line with recent sales nearby.\n\nShowings have been steady.",
  listingAgent: "Lee Listing",
  showComps: true,
  showShowings: true,
  showSocial: true,
  showAgentInsights: true,
  showNeighborhood: true,
  valuation: {
    estimatedValue: 620000,
    valueRange: { low: 610000, high: 650000 },
    pricePerSqft: { median: 310 },
    comparablesUsed: 3,
    comparablesTotal: 3,
    confidence: { level: "high", score: 0.8 },
    comparables: ["a", "b", "c"].map((id) => ({ id, used: true })),
  },
  comparables: ["a", "b", "c"].map((id, i) => ({ id, address: `${i + 1} Elm St`, price: 600000 + i * 20000, sqft: 2000, included: true })),
  showings: [{ showingDate: "2026-07-04T15:00:00Z", eventType: "open_house", attendeesCount: 14 }],
  engagement: { totals: { posts: 1, likes: 10, comments: 2, shares: 1, views: 400 }, platforms: [{ platform: "instagram", posts: 1, likes: 10, comments: 2, shares: 1, views: 400 }] },
  agentInsights: [
    { title: "Priced to sell", body: "Three pending sales on this street closed above list.", category: "pricing" },
    { title: "Location", body: "A quiet street near the park.", category: "neighborhood" },
  ],
});

describe("the report's PDF", () => {
  it("numbers every page in a footer and never ends a page with a heading, for descriptions of any length", async () => {
    const line = "A bright family home on a quiet street, with a large garden, a new kitchen and room to grow.";
    let longest = 0;
    // 0 to 78 lines of description move every later heading through every position on the page.
    for (let lines = 0; lines <= 78; lines += 3) {
      const pages = await pdfText(await reportPdf(reportView(report(Array.from({ length: lines }, () => line).join("\n\n")))));
      longest = Math.max(longest, pages.length);
      pages.forEach((text, i) => {
        const footer = `12 Garden Lane · Prepared on `;
        const number = `Page ${i + 1} of ${pages.length}`;
        expect({ lines, page: i + 1, footer: text.includes(footer), number: text.includes(number) }).toEqual({ lines, page: i + 1, footer: true, number: true });
        // What the page says before its footer (written last) must not end in a heading.
        const body = text.slice(0, text.lastIndexOf(footer)).trim();
        expect({ lines, page: i + 1, endsWithHeading: HEADINGS.find((h) => body.endsWith(h)) ?? null }).toEqual({ lines, page: i + 1, endsWithHeading: null });
      });
    }
    expect(longest).toBeGreaterThanOrEqual(3);
  });

  it("places the list price on the value-range bar's legend", async () => {
    const text = (await pdfText(await reportPdf(reportView(report(""))))).join("\n");
    expect(text).toContain("Estimate $620,000");
    expect(text).toContain("List price $700,000");
  });
});
