// The team dashboard in headless Chromium against the real server: sign-in with an admin key, keys
// (create, use, revoke), usage, webhooks (an endpoint at a local receiver, a test event, its delivery, redelivery)
// and reports, with an axe check of every page at desktop and phone width. One browser launch for the file.
// Screenshots go to artifacts/screenshots/dashboard-*.png (docs/dashboard.md). Needs Debian's chromium (or
// CHROMIUM_PATH) like test/system/browser.test.ts: skipped with a message without one, a failure under REQUIRE_CHROMIUM.
// The webhook settings of test/support/server.ts DELIVERING (every delivering process of the suite shares them).
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.WEBHOOK_RETRY_SCHEDULE = "1,1";
process.env.WEBHOOK_POLL_MS = "100";

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { createApiKey } from "../../src/auth/api-keys";
import { parsePermissions } from "../../src/auth/permissions";
import { startDeliveryWorker, type DeliveryWorker } from "../../src/webhooks/worker";
import { addKey, createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { axeViolations, describeViolations, isSerious } from "../support/axe";
import { restClient } from "../support/openapi";
import { receiver, type Receiver } from "../support/receiver";
import { CHROMIUM, chromiumFor, keepScreenshot } from "../support/chromium";

const available = chromiumFor("dashboard browser tests");
const ROOT = path.join(__dirname, "..", "..");
const ADMIN = "api_keys:read,api_keys:create,api_keys:delete,reports:read,comparables:read,showings:read,social_media:read,webhooks:read,webhooks:create,webhooks:update,audit_log:read";

(available ? describe : describe.skip)("the dashboard in Chromium", () => {
  let t: TestApp;
  let worker: DeliveryWorker;
  let admin: TestTeam;
  let server: http.Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let hook: Receiver;
  /** Problems the page reported: content-security-policy violations, failed scripts, requests leaving the machine. */
  let problems: string[];

  beforeAll(async () => {
    // The build npm install / npm test make, made here when missing or stale (test:only on a fresh checkout).
    execFileSync(process.execPath, [path.join(ROOT, "scripts/build-dashboard.mjs"), "--if-stale"], { cwd: ROOT, stdio: "inherit" });
    t = await startTestApp();
    worker = startDeliveryWorker();
    admin = await createTeam({ name: "Dashboard Realty", permissions: ADMIN });
    const rest = restClient(t.app, admin.auth);
    const writer = await addKey(admin.teamId, "reports:create,comparables:create,showings:create,social_media:create,social_media:update");
    const seed = restClient(t.app, writer);
    const reportId = (await seed.post("/v1/reports", { address: "12 Dashboard Lane", city: "Springfield", state: "IL", price: 700000, sqft: 2000 })).body.data.id;
    await seed.post("/v1/showings", { report_id: reportId, attendee_name: "Jordan Buyer", showing_date: "2026-05-01T14:00:00Z", rating: 4 });
    for (const [address, price] of [["14 Dashboard Lane", 610000], ["16 Dashboard Lane", 620000], ["18 Dashboard Lane", 650000]] as const) {
      await seed.post(`/v1/reports/${reportId}/comparables`, { address, price, sqft: 2000, distance_miles: 0.2 });
    }
    await seed.post(`/v1/reports/${reportId}/social-posts/import`, { posts: [{ platform: "instagram", external_id: "C1", likes: 120, comments: 14, views: 2400 }] });
    await seed.post("/v1/reports", { address: "3 Other Street", price: 350000 });
    expect((await rest.get("/v1/reports")).status).toBe(200);
    hook = await receiver();
    server = http.createServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM });
    // axe needs a page of a context made with newContext(); a flow step waits 10 s at most.
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    problems = [];
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("request", (r) => {
      if (!r.url().startsWith(origin) && !/^(data|blob):/.test(r.url())) problems.push(`request leaving the machine: ${r.url()}`);
      if (r.url().includes(admin.key)) problems.push(`the key in a URL: ${r.url()}`);
    });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await hook?.close();
    await worker?.stop(1000);
    await t?.close();
  });
  afterEach(() => expect(problems).toEqual([]));

  /** No serious or critical axe violation on the page as it is now; then a screenshot of it. */
  async function checkPage(name: string) {
    expect(describeViolations((await axeViolations(page)).filter(isSerious))).toEqual([]);
    await keepScreenshot(page, `dashboard-${name}.png`, { fullPage: true });
  }

  const apiStatus = async (key: string) => (await fetch(`${origin}/v1/reports`, { headers: { Authorization: `Bearer ${key}` } })).status;
  const signInWith = async (key: string) => {
    await page.getByLabel("Admin API key").fill(key);
    await page.getByRole("button", { name: "Sign in" }).click();
  };

  it("signs in with an admin key only, keeping it in sessionStorage, under a policy without inline scripts", async () => {
    const res = await page.goto(`${origin}/dashboard/`);
    const policy = res!.headers()["content-security-policy"];
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("unsafe-inline");
    await page.getByRole("heading", { name: "Team dashboard" }).waitFor();
    await checkPage("sign-in");

    const reader = await addKey(admin.teamId, "reports:read");
    await signInWith(reader.Authorization.slice("Bearer ".length));
    await page.getByRole("alert").getByText("it lacks api_keys:read, api_keys:create, api_keys:delete").waitFor();
    await signInWith("prs_sk_live_" + "x".repeat(32));
    await page.getByRole("alert").getByText("That key is not valid").waitFor();
    // Chromium logs the refused request itself: that one is expected.
    expect(problems.splice(0)).toEqual(["console: Failed to load resource: the server responded with a status of 401 (Unauthorized)"]);

    await signInWith(admin.key);
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    expect(await page.evaluate(() => ({ session: Object.keys(sessionStorage), local: localStorage.length, cookie: document.cookie }))).toEqual({
      session: ["prs.dashboard.key"],
      local: 0,
      cookie: "",
    });
    expect(page.url()).not.toContain(admin.key);
  });

  it("creates a key shown once that works at once, and revokes it after a confirmation: then it gets 401", async () => {
    await page.getByRole("heading", { name: "The team's keys" }).waitFor();
    await page.getByRole("button", { name: "Create a key" }).click();
    await page.getByLabel("Name").fill("Browser key");
    await page.getByLabel("Description (optional)").fill("made in the dashboard");
    await page.getByRole("group", { name: "Reports" }).getByLabel("read").check();
    await page.getByLabel("Rate-limit tier").selectOption("free");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = page.getByTestId("secret");
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^prs_sk_live_[A-Za-z0-9]{32}$/);
    const row = page.locator("tr", { hasText: "Browser key" });
    await row.getByText("made in the dashboard").waitFor();
    await row.getByText("Reports: read").first().waitFor();
    await row.getByRole("cell", { name: "free" }).waitFor();
    expect(await apiStatus(key)).toBe(200);
    await checkPage("keys");

    // Shown once: gone after Done, and not on the page after a reload (the tab stays signed in).
    await page.getByRole("button", { name: "Done" }).click();
    await page.reload();
    await page.getByRole("heading", { name: "The team's keys" }).waitFor();
    expect(await page.content()).not.toContain(key);

    await page.getByRole("button", { name: "Revoke Browser key" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke “Browser key”?" });
    await dialog.waitFor();
    await checkPage("keys-revoke");
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await row.getByText(/UTC$/).last().waitFor();
    await page.locator("tr", { hasText: "Browser key" }).getByRole("button", { name: "Revoke Browser key" }).waitFor({ state: "detached" });
    expect(await apiStatus(key)).toBe(401);
  });

  it("shows the month's calls, each key's remaining hourly quota, and the requests-per-hour chart moving after requests", async () => {
    const user = await addKey(admin.teamId, "reports:read");
    const userId = (await (await fetch(`${origin}/graphql`, {
      method: "POST",
      headers: { ...admin.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ query: "{ apiKeys { id name } }" }),
    }).then((r) => r.json())) as { data: { apiKeys: { id: string; name: string }[] } }).data.apiKeys.filter((k) => k.name === "key reports:read").pop()!.id;
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Requests per hour" }).waitFor();
    const userRow = page.locator(`tr[data-key-id="${userId}"]`);
    await userRow.locator("td.week", { hasText: /^0$/ }).waitFor();
    const totalBefore = Number(await page.locator("figure.chart").getAttribute("data-total"));
    const callsBefore = Number((await page.getByTestId("calls-this-month").innerText()).replace(/\D/g, ""));
    expect(callsBefore).toBeGreaterThan(0);

    for (let i = 0; i < 5; i++) expect(await apiStatus(user.Authorization.slice(7))).toBe(200);
    await page.getByRole("button", { name: "Refresh" }).click();
    await userRow.locator("td.week", { hasText: /^5$/ }).waitFor();
    await userRow.getByText("995 of 1,000").waitFor();
    // Each key's answers per route and outcome over the period: the five reads, all below 400, and nothing refused.
    const routeRow = page.locator(`tr[data-route-key="${userId}"][data-route="GET /v1/reports"]`);
    await routeRow.locator("td.succeeded", { hasText: /^5$/ }).waitFor();
    expect(await routeRow.locator("td.client-errors, td.rate-limited, td.server-errors").allInnerTexts()).toEqual(["0", "0", "0"]);
    expect(Number(await page.locator("figure.chart").getAttribute("data-total"))).toBeGreaterThanOrEqual(totalBefore + 5);
    expect(Number((await page.getByTestId("calls-this-month").innerText()).replace(/\D/g, ""))).toBeGreaterThanOrEqual(callsBefore + 5);
    await checkPage("usage");
  });

  it("adds an endpoint at a local receiver, sends a test event, shows its delivery and redelivers it", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("button", { name: "Add an endpoint" }).click();
    await page.getByRole("heading", { name: "Add an endpoint" }).waitFor();
    await page.getByLabel("URL").fill(hook.url);
    await page.getByLabel("Description (optional)").fill("local receiver");
    await page.getByLabel("report.created").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = page.getByTestId("secret");
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();

    const endpoint = page.locator("li.endpoint", { hasText: hook.url });
    await endpoint.getByRole("button", { name: `Send test event to ${hook.url}` }).click();
    const [first] = await hook.count(1);
    expect(first.json.type).toBe("webhook.test");
    // One row per event, kept current without a refresh: it reads Delivered once the receiver answered.
    const row = endpoint.locator('tr.delivery[data-state="delivered"]', { hasText: "webhook.test" });
    await row.waitFor();
    expect(await row.locator("li.attempt").allInnerTexts()).toEqual([expect.stringMatching(/^#1 succeeded · HTTP 200 · \d+ ms · sent /)]);
    await checkPage("webhooks");

    // Redelivering an event the endpoint received asks first; then it arrives again, as a second attempt of the row.
    await row.getByRole("button", { name: /^Redeliver webhook\.test/ }).click();
    await page.getByRole("dialog", { name: "Send webhook.test again?" }).getByRole("button", { name: "Send again" }).click();
    const [, again] = await hook.count(2);
    expect(again.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    await row.locator("li.attempt", { hasText: "#2 succeeded" }).waitFor();

    await endpoint.getByRole("button", { name: `Disable ${hook.url}` }).click();
    await endpoint.getByText(/^Disabled/).waitFor();
    await endpoint.getByRole("button", { name: `Enable ${hook.url}` }).click();
    await endpoint.getByText(/^Enabled/).waitFor();
    await endpoint.getByRole("button", { name: `Rotate secret of ${hook.url}` }).click();
    // Rotating asks first (the webhooks page's confirmation).
    await page.getByRole("dialog", { name: `Rotate the signing secret of ${hook.url}?` }).getByRole("button", { name: "Rotate secret" }).click();
    expect(await page.getByTestId("secret").inputValue()).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Done" }).click();
  });

  it("lists and finds reports and shows one with its valuation, comparables, showings and engagement", async () => {
    await page.getByRole("link", { name: "Reports" }).click();
    await page.getByRole("heading", { name: "2 reports" }).waitFor();
    await checkPage("reports");
    await page.getByLabel("Find by address").fill("12 dashboard ln");
    await page.getByRole("radio", { name: "Best match" }).check();
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("heading", { name: "Best match for “12 dashboard ln”" }).waitFor();
    expect(await page.getByRole("link", { name: "3 Other Street" }).count()).toBe(0);
    await page.getByRole("link", { name: "12 Dashboard Lane" }).click();
    await page.getByRole("heading", { name: "12 Dashboard Lane", level: 1 }).waitFor();
    await page.getByTestId("estimated-value").getByText("$620,000").waitFor();
    await page.getByRole("cell", { name: "16 Dashboard Lane" }).waitFor();
    await page.getByRole("cell", { name: "Jordan Buyer" }).waitFor();
    await page.getByRole("heading", { name: "Social engagement" }).waitFor();
    await checkPage("report");
  });

  it("rolls a key with a chosen overlap: the new key shown once, the old one working until then, its last use shown", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "The team's keys" }).waitFor();
    const { key: oldKey } = await createApiKey({ teamId: admin.teamId, name: "Rolled in the browser", permissions: parsePermissions("reports:read") });
    expect(await apiStatus(oldKey)).toBe(200);
    await page.reload();
    const row = page.locator("tr", { hasText: "Rolled in the browser" }).first();
    // Its last use: when, from which address, with which route.
    await row.locator("td.last-used").getByText("GET /v1/reports").waitFor();
    await row.locator("td.last-used").getByText(/from 127\.0\.0\.1/).waitFor();
    await row.getByRole("button", { name: "Roll Rolled in the browser" }).click();
    const dialog = page.getByRole("dialog", { name: "Roll “Rolled in the browser”?" });
    await dialog.getByLabel("1 hour").check();
    await checkPage("keys-roll");
    await dialog.getByRole("button", { name: "Roll key" }).click();
    const shown = page.getByTestId("secret");
    await shown.waitFor();
    const newKey = await shown.inputValue();
    expect(newKey).toMatch(/^prs_sk_live_[A-Za-z0-9]{32}$/);
    expect(await apiStatus(newKey)).toBe(200);
    expect(await apiStatus(oldKey)).toBe(200); // until the end of the overlap
    await page.locator("tr", { hasText: "rolled: works until" }).first().waitFor();
    await checkPage("keys-rolled");
  });

  it("shows the audit log: who changed what, from where, filtered by action", async () => {
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log", level: 1 }).waitFor();
    const rolled = page.locator("tr", { hasText: "api_key.rolled" }).first();
    await rolled.getByText("test key").waitFor();
    await rolled.getByText("replaced_by_key_id").waitFor();
    await page.locator("tr", { hasText: "api_key.revoked" }).first().waitFor();
    await checkPage("audit-log");
    await page.getByText("Filter by action or day").click();
    await page.getByLabel("Action").selectOption("api_key.rolled");
    await page.getByRole("heading", { name: /^1 entry,/ }).waitFor();
    expect(await page.locator("tbody tr").count()).toBe(1);
    expect(page.url()).toContain("action=api_key.rolled");
  });

  it("downloads the usage export as CSV from the usage page", async () => {
    await page.getByRole("link", { name: "Usage" }).click();
    // One period picker for the page: the download covers the period the page shows.
    await page.getByRole("heading", { name: "Download usage, the last 24 hours" }).waitFor();
    expect(await page.getByRole("combobox").count()).toBe(1); // "Per" alone
    await page.getByRole("radio", { name: "7 days" }).check();
    await page.getByRole("heading", { name: "Download usage, the last 7 days" }).waitFor();
    await page.getByLabel("Per", { exact: true }).selectOption("day");
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-week-per-day-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, "utf8");
    const [header, ...lines] = text.trimEnd().split("\r\n");
    expect(header).toBe("key_id,key_name,key_prefix,period_start,requests");
    expect(lines.length).toBeGreaterThan(0);
    const firstDay = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - 6)).toISOString();
    for (const line of lines) expect(line.split(",")[3] >= firstDay).toBe(true);
    await checkPage("usage-download");
  });

  it("fits a phone-sized window (no sideways scrolling of the page) with no serious axe violation", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, link] of [["keys", "API keys"], ["usage", "Usage"], ["webhooks", "Webhooks"], ["reports", "Reports"], ["audit-log", "Audit log"]] as const) {
      await page.getByRole("link", { name: link }).click();
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(describeViolations((await axeViolations(page)).filter(isSerious), `${name}: `)).toEqual([]);
    }
    await page.getByRole("link", { name: "Usage" }).click();
    await page.getByRole("heading", { name: "Requests per hour" }).waitFor();
    await keepScreenshot(page, "dashboard-usage-phone.png", { fullPage: true });
  });

  it("signs out: the key is gone from the tab", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Admin API key").waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    await page.getByLabel("Admin API key").waitFor();
  });
});
