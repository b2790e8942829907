// The dashboard's report page in headless Chromium against the real server: the report's branding (agent phone,
// brokerage, licence) edited in its form and read back from the API, shown read-only to a key without
// reports:update; the display switches and brand colours; and the report's share links with their views (count and
// last view) after the client opened one, created, opened and revoked from the page; its photos uploaded, made the
// cover, the agent's photo or the logo, and deleted.
// Screenshots go to artifacts/screenshots/dashboard-report-*.png. Needs Debian's chromium (or CHROMIUM_PATH) like
// test/system/dashboard.test.ts: skipped with a message without one, a failure under REQUIRE_CHROMIUM.
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import sharp from "sharp";
import request from "supertest";
import { addKey, createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { axeViolations, describeViolations, isSerious } from "../support/axe";
import { restClient } from "../support/openapi";
import { CHROMIUM, chromiumFor, keepScreenshot } from "../support/chromium";

const available = chromiumFor("dashboard report page browser tests");
const ROOT = path.join(__dirname, "..", "..");
const ADMIN = "api_keys:read,api_keys:create,api_keys:delete,reports:read";

(available ? describe : describe.skip)("the dashboard's report page in Chromium", () => {
  let t: TestApp;
  let team: TestTeam;
  let api: ReturnType<typeof restClient>;
  let server: http.Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let reportId: string;
  let problems: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, "scripts/build-dashboard.mjs"), "--if-stale"], { cwd: ROOT, stdio: "inherit" });
    t = await startTestApp();
    team = await createTeam({ name: "Branding Realty" });
    api = restClient(t.app, team.auth);
    reportId = (await api.post("/v1/reports", { address: "7 Brand Street", city: "Springfield", state: "IL", price: 500000, agent_phone: "217-555-0101" })).body.data.id;
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });
  beforeEach(async () => {
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    problems = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  });
  afterEach(async () => {
    await page.context().close();
    expect(problems).toEqual([]);
  });

  /** Signs in with a key of the team holding `permissions` and opens the report's page. */
  async function openReport(permissions: string) {
    const key = (await addKey(team.teamId, permissions)).Authorization.slice("Bearer ".length);
    await page.goto(`${origin}/dashboard/`);
    await page.getByLabel("Admin API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    await page.goto(`${origin}/dashboard/#/reports/${reportId}`);
    await page.getByRole("heading", { name: "7 Brand Street", level: 1 }).waitFor();
  }
  async function noSeriousAxeViolation() {
    expect(describeViolations((await axeViolations(page)).filter(isSerious))).toEqual([]);
  }

  it("edits the branding: saved through the API, an emptied field cleared", async () => {
    await openReport(`${ADMIN},reports:update`);
    const branding = page.getByRole("region", { name: "Agent and branding" });
    expect(await branding.getByLabel("Agent phone").inputValue()).toBe("217-555-0101");
    await branding.getByLabel("Agent phone").fill("");
    await branding.getByLabel("Brokerage name").fill("Prairie Home Realty");
    await branding.getByLabel("Agent license number").fill("IL 475.123456");
    await branding.getByRole("button", { name: "Save branding" }).click();
    await branding.getByText("Saved.").waitFor();
    expect((await api.get(`/v1/reports/${reportId}`)).body.data).toMatchObject({ agent_phone: null, brokerage_name: "Prairie Home Realty", agent_license: "IL 475.123456" });
    // A value the API refuses is shown as its message, and nothing changes.
    await branding.getByLabel("Agent phone").evaluate((input: HTMLInputElement) => input.removeAttribute("maxlength"));
    await branding.getByLabel("Agent phone").fill("9".repeat(101));
    await branding.getByRole("button", { name: "Save branding" }).click();
    await branding.getByRole("alert").getByText("agentPhone must be at most 100 characters").waitFor();
    expect((await api.get(`/v1/reports/${reportId}`)).body.data.agent_phone).toBeNull();
    // The refused request is logged by Chromium itself when the answer is a 400.
    problems = problems.filter((p) => !p.includes("status of 400"));
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-branding.png", { fullPage: true });
  });

  it("shows the branding read-only to a key without reports:update, and no share links without reports:share", async () => {
    await api.patch(`/v1/reports/${reportId}`, { brokerage_name: "Read Only Realty" });
    await openReport(ADMIN);
    const branding = page.getByRole("region", { name: "Agent and branding" });
    await branding.getByText("Read Only Realty").waitFor();
    expect(await branding.getByRole("textbox").count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Share links" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Preview the client's page" }).count()).toBe(0);
  });

  it("the agent's screen: switches and colours saved, previewed, a link created and opened, then revoked — desktop and phone, light and dark", async () => {
    const { body } = await api.post("/v1/reports", { address: "9 Switch Lane", price: 410000 });
    const id = body.data.id as string;
    await api.post(`/v1/reports/${id}/comparables`, { address: "11 Switch Lane", price: 400000, sqft: 1500 });
    await openReport(`${ADMIN},reports:update,reports:share`);
    await page.goto(`${origin}/dashboard/#/reports/${id}`);
    await page.getByRole("heading", { name: "9 Switch Lane", level: 1 }).waitFor();

    // The comparables switched off and a brand colour set: saved through the API.
    const display = page.getByRole("region", { name: "What your client sees" });
    expect(await display.getByLabel("Comparables and the valuation").isChecked()).toBe(true);
    await display.getByLabel("Comparables and the valuation").uncheck();
    await display.getByLabel(/^Brand colour/).fill("#0a7d5a");
    await display.getByRole("button", { name: "Save what the client sees" }).click();
    await display.getByText("Saved.").waitFor();
    expect((await api.get(`/v1/reports/${id}`)).body.data).toMatchObject({ show_comps_on_report: false, show_showings_on_report: true, primary_color: "#0a7d5a" });

    // A preview before any link: the client's page as it stands, marked as a preview, counting no view.
    await display.getByRole("button", { name: "Preview the client's page" }).click();
    const preview = await display.getByRole("link", { name: "Open the preview" }).getAttribute("href");
    expect(preview).toMatch(new RegExp(`^${origin}/r/p1_[A-Za-z0-9_-]{70}$`));
    const previewed = await (await fetch(preview!)).text();
    expect(previewed).toContain("9 Switch Lane");
    expect(previewed).toContain("This is the page your client will see");
    expect(previewed).not.toContain("11 Switch Lane");
    expect((await api.get(`/v1/reports/${id}`)).body.data.views_count).toBe(0);

    // A link: created with a label, its address shown once; the client's page leaves the comparables out.
    const links = page.getByRole("region", { name: "Share links", exact: true });
    await links.getByLabel("Label (optional)").fill("For the Parks");
    await links.getByRole("button", { name: "Create a link" }).click();
    const url = await page.getByTestId("secret").inputValue();
    expect(url).toMatch(new RegExp(`^${origin}/r/[A-Za-z0-9_-]+$`));
    const client = await (await fetch(url)).text();
    expect(client).toContain("9 Switch Lane");
    expect(client).not.toContain("11 Switch Lane");
    await page.getByRole("button", { name: "Done" }).click();
    // The list was read when the link was made; opened again, it shows the client's view.
    await page.reload();
    const row = page.getByRole("region", { name: "Share links table" }).getByRole("row").filter({ hasText: "For the Parks" });
    await row.getByRole("cell", { name: "1 view", exact: true }).waitFor();
    // Keyboard only: from the section's heading, the first link's Revoke in at most 5 Tabs.
    await page.getByRole("heading", { name: "Share links", exact: true }).evaluate((h) => ((h as HTMLElement).tabIndex = -1, (h as HTMLElement).focus()));
    const focusedText = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText?.trim() ?? "");
    let tabs = 0;
    for (; tabs < 5 && !(await focusedText()).startsWith("Revoke"); tabs++) await page.keyboard.press("Tab");
    expect([tabs <= 5, (await focusedText()).replace(/\s+/g, " ")]).toEqual([true, "Revoke the link For the Parks"]);
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-agent-screen.png", { fullPage: true });

    // On a phone, in the dark scheme: the report's content fits, axe finds nothing serious, and revoking asks first.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => Math.max(...Array.from(document.querySelectorAll("main *"), (e) => (e.closest("thead") ? 0 : e.getBoundingClientRect().right))))).toBeLessThanOrEqual(390);
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-agent-screen-phone-dark.png", { fullPage: true });
    page.once("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: "Revoke the link For the Parks" }).click();
    await row.getByText("Revoked", { exact: true }).waitFor();
    expect(await row.getByRole("button").count()).toBe(0);
    expect((await fetch(url)).status).not.toBe(200);
  });

  it("lists the report's share links with their views: count and last view, or not opened yet", async () => {
    const opened = (await api.post(`/v1/reports/${reportId}/share-links`, { label: "Sent to the Smiths" })).body.data;
    await api.post(`/v1/reports/${reportId}/share-links`, { label: "Not opened" });
    expect((await request(t.app).get(`/r/${opened.token}`)).status).toBe(200);
    await openReport(`${ADMIN},reports:share`);
    const table = page.getByRole("region", { name: "Share links table" });
    const smiths = table.getByRole("row").filter({ hasText: "Sent to the Smiths" });
    await smiths.getByRole("cell", { name: "1 view", exact: true }).waitFor();
    expect(await smiths.locator("time").count()).toBe(3); // last viewed, created, expires
    const unopened = table.getByRole("row").filter({ hasText: "Not opened" }).first();
    await unopened.getByRole("cell", { name: "0 views", exact: true }).waitFor();
    await unopened.getByText("Not opened yet").waitFor();
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-share-links.png", { fullPage: true });
    // On a phone the report's content does not scroll sideways (the links' rows become cards), and axe finds nothing
    // serious. (The page's top bar is left out: it spells out this key's permissions, one long unbroken word; and the
    // table's visually hidden head.)
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText("Sent to the Smiths", { exact: true }).waitFor();
    await page.waitForTimeout(300); // the table's resize handler lays it out as cards
    expect(await page.evaluate(() => Math.max(...Array.from(document.querySelectorAll("main *"), (e) => (e.closest("thead") ? 0 : e.getBoundingClientRect().right))))).toBeLessThanOrEqual(390);
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-phone.png", { fullPage: true });
  });

  it("photos: uploaded with their alt text, shown as thumbnails, made the cover, the agent's photo and the logo, deleted — desktop and phone", async () => {
    const { body } = await api.post("/v1/reports", { address: "15 Photo Row", price: 450000 });
    const id = body.data.id as string;
    await openReport(`${ADMIN},reports:update`);
    await page.goto(`${origin}/dashboard/#/reports/${id}`);
    await page.getByRole("heading", { name: "15 Photo Row", level: 1 }).waitFor();
    const photos = page.getByRole("region", { name: "Photos" });
    await photos.getByText("No photos yet.").waitFor();
    const upload = async (alt: string, r: number) => {
      const buffer = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g: 110, b: 90 } } }).jpeg().toBuffer();
      await photos.getByLabel(/^Photo \(JPEG/).setInputFiles({ name: `${alt}.jpg`, mimeType: "image/jpeg", buffer });
      await photos.getByLabel(/^Alt text/).fill(alt);
      await photos.getByRole("button", { name: "Upload" }).click();
      await photos.locator("li", { hasText: alt }).waitFor();
    };
    await upload("The front porch", 60);
    await upload("Jordan, the agent", 200);
    // Both thumbnails loaded (read with the key, shown from blob: URLs under the dashboard's policy).
    const thumbs = photos.locator("li img");
    await thumbs.nth(1).waitFor();
    expect(await thumbs.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0 && (i as HTMLImageElement).src.startsWith("blob:")))).toEqual([true, true]);
    expect(await photos.locator("li", { hasText: "The front porch" }).locator(".badges").innerText()).toBe("Cover");

    // The second made the cover, then the agent's photo: the API says so.
    const agent = photos.locator("li", { hasText: "Jordan, the agent" });
    await agent.getByRole("button", { name: "Make cover Jordan, the agent" }).click();
    await agent.locator(".badges", { hasText: "Cover" }).waitFor();
    await agent.getByRole("button", { name: "Agent's photo Jordan, the agent" }).click();
    await agent.locator(".badges", { hasText: "Agent's photo" }).waitFor();
    // The client's cover is then the first other photo.
    expect(await photos.locator("li", { hasText: "The front porch" }).locator(".badges").innerText()).toBe("Cover");
    const photoIds = (await api.get(`/v1/reports/${id}/photos`)).body.data as Array<{ id: string; alt: string; position: number }>;
    const jordan = photoIds.find((p) => p.alt === "Jordan, the agent")!;
    expect(jordan.position).toBe(0);
    expect((await api.get(`/v1/reports/${id}`)).body.data.agent_photo_id).toBe(jordan.id);
    // The other one the logo, and back.
    const porch = photos.locator("li", { hasText: "The front porch" });
    await porch.getByRole("button", { name: "Logo The front porch" }).click();
    await porch.locator(".badges", { hasText: "Brokerage logo" }).waitFor();
    expect((await api.get(`/v1/reports/${id}`)).body.data.brokerage_logo_id).toBe(photoIds.find((p) => p.alt === "The front porch")!.id);
    await porch.getByRole("button", { name: "Not the logo The front porch" }).click();
    await porch.locator(".badges", { hasText: "Cover" }).waitFor();
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-photos.png", { fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    await noSeriousAxeViolation();
    await keepScreenshot(page, "dashboard-report-photos-phone.png", { fullPage: true });

    // Deleting asks first; the agent's photo goes with it.
    page.once("dialog", (dialog) => void dialog.accept());
    await agent.getByRole("button", { name: "Delete Jordan, the agent" }).click();
    await agent.waitFor({ state: "detached" });
    expect((await api.get(`/v1/reports/${id}/photos`)).body.data.map((p: { alt: string }) => p.alt)).toEqual(["The front porch"]);
    expect((await api.get(`/v1/reports/${id}`)).body.data.agent_photo_id).toBeNull();
  });

  it("photos are read-only without reports:update", async () => {
    await openReport(ADMIN);
    const photos = page.getByRole("region", { name: "Photos" });
    await photos.getByText("Adding or changing photos needs reports:update.").waitFor();
    expect(await photos.getByRole("button").count()).toBe(0);
  });
});
