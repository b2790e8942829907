// A share link's public page (docs/api.md "Share links") in headless Chromium: a screenshot with
// each display switch off and on, in two pairs of colours, at desktop and phone width; axe finds nothing; the page
// reads the same with JavaScript disabled, loads nothing from elsewhere and breaks no rule of its content security
// policy. Screenshots go to artifacts/screenshots/share-*.png. Needs Debian's chromium (or CHROMIUM_PATH) like
// test/system/browser.test.ts: skipped with a message without one, a failure under REQUIRE_CHROMIUM.
import sharp from "sharp";
import { chromiumFor, keepScreenshot } from "../support/chromium";
import { expectAxeClean, publicPages, type PublicPages } from "../support/public-page";

const available = chromiumFor("share page browser tests");
const SWITCHES = {
  show_comps_on_report: "valuation",
  show_showings_on_report: "activity",
  show_social_on_report: "social",
  show_agent_insights_on_report: "insights",
  show_neighborhood_on_report: "neighborhood",
} as const;
const COLOURS = { navy: ["#0B2545", "#8DA9C4"], lemon: ["#FFEB3B", "#FFF59D"] } as const;

(available ? describe : describe.skip)("the share page in Chromium", () => {
  let pages: PublicPages;
  /** The report each shared page shows, by the page's path. */
  const reportIds = new Map<string, string>();

  /** A report with something in every section, in the given colours and switches; the path of its page. */
  async function sharedReport(colours: readonly [string, string], switches: Record<string, boolean> = {}, fields: Record<string, string> = {}): Promise<string> {
    const id = (
      await pages.api.post("/v1/reports", {
        address: "12 Garden Lane",
        city: "Springfield",
        state: "IL",
        zip: "62704",
        price: 700000,
        beds: 3,
        baths: 2.5,
        sqft: 2000,
        year_built: 1998,
        property_type: "single_family",
        description: "A bright family home on a quiet street, with a large garden and a new kitchen.",
        custom_agent_name: "Jordan Agent",
        custom_agent_email: "jordan@example.com",
        agent_phone: "+1 (217) 555-0107",
        brokerage_name: "Garden Realty Group",
        agent_license: "IL 475.123456",
        primary_color: colours[0],
        secondary_color: colours[1],
        ...fields,
      })
    ).body.data.id;
    await pages.api.patch(`/v1/reports/${id}`, { executive_summary: "Priced in line with three recent sales nearby.\n\nShowings have been steady.", ...switches });
    const comparableIds: string[] = [];
    for (const [address, price, sqft, adjustments] of [["14 Garden Lane", 600000, 2000, { garage: 10000 }], ["3 Oak Avenue", 640000, 2000, { pool: -20000 }], ["5 Pine Road", 585000, 1800, {}]] as const) {
      const comparable = await pages.api.post(`/v1/reports/${id}/comparables`, { address, city: "Springfield", price, sqft, beds: 3, baths: 2, distance_miles: 0.4, sale_date: "2026-06-01T00:00:00Z", adjustments });
      comparableIds.push(comparable.body.data.id);
    }
    await pages.api.post("/v1/showings", { report_id: id, attendee_name: "Pat Private", attendee_email: "pat@example.com", feedback: "Kitchen dated", showing_date: "2026-07-01T15:00:00Z" });
    await pages.api.post("/v1/showings", { report_id: id, event_type: "open_house", attendees_count: 14, showing_date: "2026-07-04T15:00:00Z" });
    await pages.api.post(`/v1/reports/${id}/social-posts/import`, { posts: [{ platform: "instagram", external_id: "p1", likes: 120, comments: 14, shares: 3, views: 2400 }] });
    await pages.api.post(`/v1/reports/${id}/insights`, { title: "Priced to sell", body: "Three pending sales on this street closed above list.", category: "pricing" });
    await pages.api.post(`/v1/reports/${id}/insights`, { title: "Location", body: "A quiet street near the park and the primary school.", category: "neighborhood" });
    // A photo of the house, and the agent's photo and the brokerage's logo in the header.
    const [, , face, logo] = await Promise.all([
      photo(id, "The house from the street", [70, 120, 90], 1200, 800),
      photo(id, "The garden from the terrace", [90, 140, 60], 1200, 900),
      photo(id, "Jordan Agent", [200, 160, 140], 400, 400),
      photo(id, "Garden Realty Group", [30, 60, 110], 600, 200),
    ]);
    expect((await pages.api.patch(`/v1/reports/${id}`, { agent_photo_id: face, brokerage_logo_id: logo })).status).toBe(200);
    await photo(id, "14 Garden Lane from the street", [150, 150, 160], 900, 600, `/comparables/${comparableIds[0]}`);
    const pagePath = new URL((await pages.api.post(`/v1/reports/${id}/share-links`, {})).body.data.url).pathname;
    reportIds.set(pagePath, id);
    return pagePath;
  }

  /** Uploads a plain-coloured JPEG as one of the report's photos; its id. */
  async function photo(reportId: string, alt: string, [r, g, b]: number[], width: number, height: number, of = ""): Promise<string> {
    const form = new FormData();
    form.set("alt", alt);
    form.set("file", new Blob([await sharp({ create: { width, height, channels: 3, background: { r, g, b } } }).jpeg().toBuffer()], { type: "image/jpeg" }), "photo.jpg");
    const res = await fetch(`${pages.origin}/v1/reports/${reportId}${of}/photos`, { method: "POST", headers: pages.auth, body: form });
    expect(res.status).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  }

  beforeAll(async () => {
    pages = await publicPages("Garden Realty");
  });
  afterAll(() => pages?.close());

  it.each(Object.entries(COLOURS))("shows every section in the %s colours, axe-clean at desktop and phone width", async (name, colours) => {
    const pagePath = await sharedReport(colours);
    for (const [size, viewport] of [["desktop", { width: 1280, height: 900 }], ["phone", { width: 390, height: 844 }]] as const) {
      const context = await pages.browser.newContext({ viewport });
      const { page, problems } = await pages.open(context, pagePath);
      for (const section of Object.values(SWITCHES)) expect(await page.locator(`#${section}`).count()).toBe(1);
      // The header's agent line, its phone a tel: link (axe checks its contrast on the band's colour below).
      expect(await page.locator("header .agent a").getAttribute("href")).toBe("tel:+12175550107");
      // The logo and the agent's photo loaded in the header (under the page's policy), the house under it, and the
      // first comparable's cover in its row.
      await page.locator("img.comp-photo").scrollIntoViewIfNeeded(); // loaded lazily
      await page.waitForFunction(() => (document.querySelector("img.comp-photo") as HTMLImageElement | null)?.complete === true);
      await page.locator("ul.gallery img").scrollIntoViewIfNeeded(); // the gallery: the photos after the cover
      await page.waitForFunction(() => (document.querySelector("ul.gallery img") as HTMLImageElement | null)?.complete === true);
      for (const image of ["header img.logo", "header img.agent-photo", "figure.hero img", "ul.gallery img", "table.comps img.comp-photo"]) {
        expect({ image, loaded: await page.locator(image).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0) }).toEqual({ image, loaded: true });
      }
      await expectAxeClean(page);
      // Nothing wider than the screen but the comparables' own scrolling table.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await keepScreenshot(page, `share-${name}-${size}.png`, { fullPage: true });
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 240_000);

  it.each(Object.entries(SWITCHES))("leaves out the section of %s when it is off", async (name, section) => {
    const pagePath = await sharedReport(COLOURS.navy, { [name]: false });
    const context = await pages.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await pages.open(context, pagePath);
    for (const other of Object.values(SWITCHES)) expect({ other, count: await page.locator(`#${other}`).count() }).toEqual({ other, count: other === section ? 0 : 1 });
    await keepScreenshot(page, `share-${section}-off.png`, { fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("lays out an agent name holding a right-to-left override within itself: the line around it reads in order", async () => {
    // U+202E reverses what follows it; unisolated, it would also reverse " · jordan@example.com" and put it first.
    const pagePath = await sharedReport(COLOURS.navy, {}, { custom_agent_name: "Jordan \u202EtnegA", address: "\u202E12 Garden Lane" });
    const context = await pages.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await pages.open(context, pagePath);
    const box = async (selector: string) => (await page.locator(selector).boundingBox())!;
    const [line, name, email] = [await box("footer p:first-child"), await box("footer strong"), await box("footer a[href^='mailto:']")];
    // Left to right: "Prepared on … by", the name, then the e-mail, all on one line.
    expect(name.x).toBeGreaterThan(line.x + 20);
    expect(email.x).toBeGreaterThanOrEqual(name.x + name.width);
    expect(email.y).toBe(name.y);
    expect(await page.locator("footer strong").evaluate((e) => getComputedStyle(e).unicodeBidi)).toBe("isolate");
    await keepScreenshot(page, "share-right-to-left-override.png", { fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(["light", "dark"] as const)("stacks each comparable as a card on a phone (%s), marked used or not, with JavaScript off", async (colorScheme) => {
    const pagePath = await sharedReport(COLOURS.navy);
    // One included comparable without a size (not used by the valuation) and one the agent excluded (never shown).
    const id = reportIds.get(pagePath)!;
    await pages.api.post(`/v1/reports/${id}/comparables`, { address: "9 Birch Court", city: "Springfield", price: 610000, beds: 3, baths: 2 });
    await pages.api.post(`/v1/reports/${id}/comparables`, { address: "77 Excluded Way", city: "Springfield", price: 990000, sqft: 2000, included: false });
    for (const [size, viewport] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1280, height: 900 }]] as const) {
      const context = await pages.browser.newContext({ viewport, colorScheme, javaScriptEnabled: false });
      const { page, problems } = await pages.open(context, pagePath);
      await expect(page.getByText("From 3 of 4 comparable properties", { exact: false }).isVisible()).resolves.toBe(true);
      expect(await page.content()).not.toContain("77 Excluded Way");
      const rows = page.locator("#comparables tbody tr");
      expect(await rows.count()).toBe(4);
      // The used ones first, each marked; the one without a size last, "Not used".
      expect(await page.locator("#comparables td.use").allInnerTexts()).toEqual(["Used", "Used", "Used", "Not used"]);
      expect((await rows.nth(3).innerText()).includes("9 Birch Court")).toBe(true);
      const boxes = await Promise.all([0, 1, 2, 3].map(async (i) => (await rows.nth(i).boundingBox())!));
      if (size === "phone") {
        // Cards: each within the screen, one under the other, its figures labelled; nothing to scroll sideways.
        for (const b of boxes) expect(b.x >= 0 && b.x + b.width <= viewport.width).toBe(true);
        for (let i = 1; i < boxes.length; i++) expect(boxes[i].y).toBeGreaterThanOrEqual(boxes[i - 1].y + boxes[i - 1].height);
        const labels = await page.locator("#comparables tbody tr:first-child td").evaluateAll((cells) => cells.map((c) => getComputedStyle(c, "::before").content));
        expect(labels).toEqual(['"Sale price"', '"Adjustments"', '"Adjusted price"', '"Sq ft"', '"$/sq ft"', '"Beds / baths"', '"Distance"', '"Sold"', '"Similarity"', '"Valuation"']);
        expect(await page.locator(".scroll").evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
        // The column heads are there for screen readers only (a 1-pixel box): each card's cells carry them.
        expect((await page.locator("#comparables thead").boundingBox())!.height).toBeLessThanOrEqual(1);
      } else {
        // A table: the rows side by side in columns under a visible head.
        expect((await page.locator("#comparables thead").boundingBox())!.height).toBeGreaterThan(10);
        expect(boxes[0].width).toBeGreaterThan(600);
        expect(boxes[1].y).toBe(boxes[0].y + boxes[0].height);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await keepScreenshot(page.locator("#valuation"), `share-comparables-${size}-${colorScheme}.png`);
      expect(problems).toEqual([]);
      await context.close();
    }
    // axe with scripts on (it runs in the page), at phone width.
    const context = await pages.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
    const { page } = await pages.open(context, pagePath);
    await expectAxeClean(page);
    await context.close();
  }, 240_000);

  it("reads the same with JavaScript disabled, and prints", async () => {
    const pagePath = await sharedReport(COLOURS.lemon);
    const context = await pages.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const { page, problems } = await pages.open(context, pagePath);
    for (const text of ["12 Garden Lane", "Executive summary", "Market valuation", "14 Garden Lane", "Showing activity", "Jordan Agent"]) {
      await expect(page.getByText(text, { exact: false }).first().isVisible()).resolves.toBe(true);
    }
    expect(await page.content()).not.toMatch(/Pat Private|pat@example\.com|Kitchen dated/);
    await keepScreenshot(page, "share-no-javascript.png", { fullPage: true });
    await page.emulateMedia({ media: "print" });
    await keepScreenshot(page, "share-print.png", { fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  });
});
