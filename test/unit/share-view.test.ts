// The view of a shared report (src/share/view.ts): the one function the public page and the PDFs are made from.
import { contrast, parseHex, WHITE } from "../../src/share/contrast";
import { escapeHtml, reportPage } from "../../src/share/page";
import { pdfFileName, reportView, telHref, themeOf, themeTextContrast } from "../../src/share/view";
import { sampleReport } from "../support/report-data";

const SWITCHES = ["showComps", "showShowings", "showSocial", "showAgentInsights", "showNeighborhood"] as const;
const SECTION = { showComps: "valuation", showShowings: "activity", showSocial: "social", showAgentInsights: "insights", showNeighborhood: "neighborhood" } as const;

describe("reportView", () => {
  it("shows every section whose switch is on, formatted, and never a private field", () => {
    const v = reportView(sampleReport());
    expect(v.valuation).toMatchObject({ estimate: "$620,000", low: "$610,000", high: "$650,000", position: 0.25, confidence: "Medium (score 0.60)" });
    // The included comparables, the used one first, each marked; the excluded one never.
    expect(v.valuation!.comparables).toEqual([
      expect.objectContaining({ address: "A St", adjustments: "+$10,000", adjustedPrice: "$610,000", pricePerSqft: "$305.00", similarity: "87%", used: true }),
      expect.objectContaining({ address: "No Size Ct", used: false }),
    ]);
    expect(v.valuation!.basis).toBe("From 1 of 2 comparable properties, at a median of $310 per sq ft.");
    expect(v.activity).toEqual({ showings: 1, openHouses: 1, attendees: 16, dates: [{ date: "Jul 1, 2026", kind: "Showing" }, { date: "Jul 4, 2026", kind: "Open house" }] });
    expect(v.social!.totals[0]).toEqual({ label: "Posts", value: "1" });
    expect(v.insights).toEqual([{ title: "Priced to sell", body: "Closed above list." }]);
    expect(v.neighborhood).toEqual([{ title: "Location", body: "Near the park." }]);
    expect(JSON.stringify(v)).not.toMatch(/pat@example\.com|dated kitchen|Dropped Rd/);
  });

  it.each(SWITCHES)("leaves out exactly the section of %s when it is off", (name) => {
    const v = reportView(sampleReport({ [name]: false }));
    for (const other of SWITCHES) expect({ other, present: v[SECTION[other]] !== undefined }).toEqual({ other, present: other !== name });
    const html = reportPage(v).html;
    for (const other of SWITCHES) expect({ other, present: html.includes(`id="${SECTION[other]}"`) }).toEqual({ other, present: other !== name });
  });

  it("leaves out sections with nothing to show and collections the reader may not read (null)", () => {
    const v = reportView(sampleReport({ comparables: null, valuation: null, showings: [], engagement: null, agentInsights: null }));
    expect([v.valuation, v.activity, v.social, v.insights, v.neighborhood]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it("leaves out a valuation with no estimate and no comparable (never \"From 0 of 0 comparable properties\")", () => {
    const empty = { estimatedValue: null, valueRange: null, pricePerSqft: null, comparablesUsed: 0, comparablesTotal: 0, confidence: { level: "low", score: 0 } };
    const v = reportView(sampleReport({ comparables: [], valuation: empty }));
    expect(v.valuation).toBeUndefined();
    const { html } = reportPage(v);
    expect(html).not.toMatch(/Market valuation|Not enough comparable|0 of 0/);
  });

  it("gives the page Open Graph tags: the address as title, the place and agent as description, escaped", () => {
    const { html } = reportPage(reportView(sampleReport({ address: '1 "Quoted" <St>' })));
    expect(html).toContain('<meta property="og:title" content="1 &quot;Quoted&quot; &lt;St&gt;">');
    expect(html).toContain('<meta property="og:description" content="Springfield, IL 62704 · Property report by Lee Listing">');
  });

  it("names the custom agent when set, else the listing agent", () => {
    const none = { phone: null, phoneHref: null, brokerage: null, license: null, photoId: null, logoId: null };
    expect(reportView(sampleReport({ customAgentName: "Jordan", customAgentEmail: "j@example.com" })).agent).toEqual({ name: "Jordan", email: "j@example.com", ...none });
    expect(reportView(sampleReport()).agent).toEqual({ name: "Lee Listing", email: null, ...none });
  });

  it("carries the agent's phone (with its tel: URL), brokerage and licence; blank ones are left out", () => {
    const agent = reportView(sampleReport({ agentPhone: " +1 (217) 555-0107 ", brokerageName: "Prairie Home Realty", agentLicense: "IL 475.123456" })).agent;
    expect(agent).toEqual({ name: "Lee Listing", email: null, phone: "+1 (217) 555-0107", phoneHref: "tel:+12175550107", brokerage: "Prairie Home Realty", license: "IL 475.123456", photoId: null, logoId: null });
    expect(reportView(sampleReport({ agentPhone: "  ", brokerageName: "", agentLicense: " " })).agent).toMatchObject({ phone: null, phoneHref: null, brokerage: null, license: null });
  });

  it.each([
    ["217-555-0107", "tel:2175550107"],
    ["+44 20 7946 0958", "tel:+442079460958"],
    ["(217) 555-0107 ext. 12", "tel:2175550107"],
    ["555-0107 x3", "tel:5550107"],
    ["call the office", null],
    ["12", null],
    ['"><script>', null],
    ["javascript:alert(1)//217-555-0107", null],
  ])("dials %s as %s", (phone, href) => {
    expect(telHref(phone)).toBe(href);
  });

  it("shows the agent line in the page's header: the phone as a tel: link, brokerage and licence, escaped", () => {
    const { html } = reportPage(reportView(sampleReport({ agentPhone: "217-555-0107", brokerageName: 'Prairie <Home> "Realty"', agentLicense: "IL 475.123456" })));
    const header = html.slice(html.indexOf('<header class="cover">'), html.indexOf("</header>"));
    expect(header).toContain('<p class="agent"><strong dir="auto">Lee Listing</strong> · <a href="tel:2175550107" dir="auto">217-555-0107</a> · <span dir="auto">Prairie &lt;Home&gt; &quot;Realty&quot;</span> · <span>License <span dir="auto">IL 475.123456</span></span></p>');
    // Without any of them, the agent alone; a phone that dials nothing is text, not a link.
    expect(reportPage(reportView(sampleReport())).html).toContain('<p class="agent"><strong dir="auto">Lee Listing</strong></p>');
    expect(reportPage(reportView(sampleReport({ agentPhone: "on request" }))).html).toContain('<p class="agent"><strong dir="auto">Lee Listing</strong> · <span dir="auto">on request</span></p>');
  });
});

describe("themeOf", () => {
  it("keeps every text at 4.5:1 or more, whatever the colours", () => {
    const hex = (n: number) => `#${n.toString(16).padStart(6, "0")}`;
    for (let i = 0; i < 2000; i++) {
      const theme = themeOf(hex((i * 2654435761) % 0x1000000), hex((i * 40503 + 12345) % 0x1000000));
      expect(themeTextContrast(theme)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(parseHex(theme.bar)!, WHITE)).toBeGreaterThanOrEqual(3);
    }
    for (const c of ["#fff", "#000", "#ffff00", "#777777", "#808080", null, "not a colour"]) expect(themeTextContrast(themeOf(c, c))).toBeGreaterThanOrEqual(4.5);
  });
});

it("escapes HTML", () => {
  expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
});

describe("the facts a client reads", () => {
  const factsOf = (fields: Record<string, unknown>) => Object.fromEntries(reportView(sampleReport(fields)).facts.map((f) => [f.label, f.value]));
  it("give the lot size its unit and name the property type as a person would", () => {
    expect(factsOf({ lotSize: 0.25, propertyType: "single family" })).toMatchObject({ "Lot size": "0.25 acres", "Property type": "Single-family home" });
    expect(factsOf({ lotSize: 1, propertyType: "SFR" })).toMatchObject({ "Lot size": "1 acre", "Property type": "Single-family home" });
    expect(factsOf({ propertyType: "condo" })).toMatchObject({ "Property type": "Condominium" });
    expect(factsOf({ propertyType: "tiny_house" })).toMatchObject({ "Property type": "Tiny house" });
  });
});

describe("the PDF's file name", () => {
  it("is the address in ASCII letters and digits, else report.pdf", () => {
    expect(pdfFileName(reportView(sampleReport({ address: "12 Garden Lane, Unit 4" })))).toBe("12-garden-lane-unit-4.pdf");
    expect(pdfFileName(reportView(sampleReport({ address: "Église Saint-Jean 7" })))).toBe("eglise-saint-jean-7.pdf");
    expect(pdfFileName(reportView(sampleReport({ address: "東京 \u202e" })))).toBe("report.pdf");
  });
});
