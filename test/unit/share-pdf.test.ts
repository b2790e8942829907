// The report's PDF (src/share/pdf.ts) read back as text (pdfjs): every page carries its footer and number, and no
// section heading is left alone at a page's foot, whatever the length of the text before it.
import { reportPdf } from "../../src/share/pdf";
import { reportView, type ReportData } from "../../src/share/view";
import { pdfText } from "../support/pdf-text";
import { sampleReport } from "../support/report-data";

const HEADINGS = ["The property", "Executive summary", "Market valuation", "Comparable properties", "Showing activity", "Social media reach", "Agent insights", "The neighborhood"];

const report = (description: string): ReportData =>
  sampleReport({ address: "12 Garden Lane", description, clientSummary: "Priced in line with recent sales nearby.\n\nShowings have been steady." });

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
