// The service in a real browser (headless Chromium through playwright-core): a front-end app on another origin
// calling REST and GraphQL (CORS), GraphiQL at /graphql and Swagger UI at /docs, each loading nothing from outside
// this machine. Screenshots go to artifacts/screenshots/ (README "Development"). Needs Debian's chromium
// (`apt-get install chromium`; .ci/run installs it) or CHROMIUM_PATH; skipped with a message without one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { createTeam, startTestApp, type TestApp, type TestTeam } from "../support/app";
import { axeViolations, isSerious } from "../support/axe";
import { restClient } from "../support/openapi";
import { CHROMIUM, chromiumFor, keepScreenshot } from "../support/chromium";

const available = chromiumFor("browser tests");

/** Starts a node:http server on a free 127.0.0.1 port. */
async function listen(handler: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

(available ? describe : describe.skip)("in Chromium", () => {
  let t: TestApp;
  let team: TestTeam;
  let api: { server: http.Server; origin: string };
  let browser: Browser;
  let page: Page;
  /** Requests the page made to anywhere but the service (data: and blob: URLs are the page's own). */
  let outside: string[];

  beforeAll(async () => {
    t = await startTestApp();
    team = await createTeam();
    const rest = restClient(t.app, team.auth);
    const reportId = (await rest.post("/v1/reports", { address: "12 Browser Lane", price: 450000 })).body.data.id;
    await rest.post("/v1/showings", { report_id: reportId, attendee_name: "Jordan Buyer", showing_date: "2026-05-01T14:00:00Z" });
    await rest.post(`/v1/reports/${reportId}/comparables`, { address: "14 Browser Lane", price: 440000, distance_miles: 0.1 });
    api = await listen(t.app);
    browser = await chromium.launch({ executablePath: CHROMIUM });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => api?.server.close(resolve));
    await t?.close();
  });
  beforeEach(async () => {
    // A context of its own per test, so a test can open a second tab that shares the first one's storage.
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    outside = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(api.origin) && !/^(data|blob):/.test(r.url())) outside.push(r.url());
    });
  });
  afterEach(() => page.context().close());

  /**
   * Serious or critical axe findings on what this service puts on the page (`ours`: our title, our document's
   * description, a control our settings add), in the light and the dark colour scheme. GraphiQL's and Swagger UI's own
   * widgets have findings of their own (their colours, their tab lists) that no setting of ours changes.
   */
  async function ownViolations(ours: string[]): Promise<string[]> {
    const found: string[] = [];
    // Only the parts that are ours are analysed (the whole of Swagger UI's page takes axe most of a minute).
    const present: string[] = [];
    for (const selector of ours) if ((await page.locator(selector).count()) > 0) present.push(selector);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const v of (await axeViolations(page, { include: present })).filter(isSerious)) {
        for (const node of v.nodes) found.push(`${scheme} ${v.id}: ${node.target.join(" ")}`);
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    return found;
  }

  /** Replaces the text of a Monaco editor (GraphiQL's) as a user pasting it would. */
  async function paste(editor: string, text: string) {
    await page.locator(editor).click();
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText(text);
    // The editor closes brackets and quotes as they are typed: drop what it added after the text.
    await page.keyboard.press("Shift+Control+End");
    await page.keyboard.press("Delete");
  }

  /**
   * The text of an element once it contains `expected` (the editors show spaces as no-break spaces). Polled through
   * locators: page.waitForFunction compiles its function in the page, which GraphiQL's content security policy forbids.
   */
  async function textOnceItHas(selector: string, expected: string): Promise<string> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const text = (await page.locator(selector).innerText()).replace(/\u00a0/g, " ");
      if (text.includes(expected)) return text;
      if (Date.now() > deadline) throw new Error(`${selector} never showed ${expected}; it shows:\n${text}`);
      await page.waitForTimeout(200);
    }
  }

  it("lets an app on another origin call REST and GraphQL with a key and read the rate-limit headers", async () => {
    const app = await listen((_req, res) => res.end("<!doctype html><title>Front-end app</title>"));
    try {
      await page.goto(app.origin);
      const answers = await page.evaluate(
        async ({ origin, key }) => {
          const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
          const rest = await fetch(`${origin}/v1/reports`, { headers });
          const graphql = await fetch(`${origin}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: "{ me { team { id } } }" }) });
          return {
            rest: { status: rest.status, remaining: rest.headers.get("X-RateLimit-Remaining"), requestId: rest.headers.get("X-Request-Id"), total: (await rest.json()).total },
            graphql: { status: graphql.status, body: await graphql.json() },
          };
        },
        { origin: api.origin, key: team.key },
      );
      expect(answers.rest).toEqual({ status: 200, remaining: expect.stringMatching(/^\d+$/), requestId: expect.any(String), total: 1 });
      expect(answers.graphql).toEqual({ status: 200, body: { data: { me: { team: { id: team.teamId } } }, extensions: { cost: expect.anything() } } });
    } finally {
      await new Promise((resolve) => app.server.close(resolve));
    }
  });

  it("GraphiQL shows the schema once a key is pasted and runs the README's nested query", async () => {
    // As a person does it, in a fresh browser: open the Headers panel, paste the key from the clipboard (a paste, not
    // typing), wait, then open the docs pane and read it — no click on the re-fetch icon.
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${api.origin}/graphql`);
    const headers = '.monaco-editor[data-uri$="-headers.json"]';
    await page.waitForSelector("section.graphiql-query-editor .monaco-editor", { timeout: 30_000 });
    await page.getByRole("button", { name: "Headers", exact: true }).click();
    await page.locator(headers).click();
    await page.keyboard.press("Control+A");
    await page.evaluate((text) => navigator.clipboard.writeText(text), `{"Authorization": "Bearer ${team.key}"}`);
    await page.keyboard.press("Control+V");
    await page.waitForTimeout(1_500);
    await page.click('button[aria-label^="Show Documentation Explorer"]');
    const docs = page.locator(".graphiql-doc-explorer");
    await docs.getByText("Root Types").waitFor({ timeout: 15_000 });
    await docs.getByText("mutation: Mutation").waitFor();

    const query =
      "{ reports(limit: 10, status: all) { total items { id address price status showingsCount showings { showingDate attendeeName eventType } comparables { address price distanceMiles } } } }";
    await paste('section.graphiql-query-editor .monaco-editor', query);
    // GraphiQL reads the operation name from the editor a moment after a change (debounced); a click before that
    // asks for the default query's "Overview" in the new text. A person takes longer than this to reach the button.
    await page.waitForTimeout(1_000);
    await page.click("button.graphiql-execute-button");
    const text = await textOnceItHas("section.result-window", '"Jordan Buyer"');
    expect(text).toContain('"12 Browser Lane"');
    expect(text).toContain('"14 Browser Lane"');
    await keepScreenshot(page, "graphiql.png");
    expect(outside).toEqual([]);
    // Our title in GraphiQL's corner.
    expect(await ownViolations([".graphiql-logo"])).toEqual([]);

    // The key is kept out of persistent storage: nothing in localStorage holds it, and a new tab starts without it.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(team.key);
    const other = await page.context().newPage();
    await other.goto(`${api.origin}/graphql`);
    await other.waitForSelector(headers, { state: "attached", timeout: 30_000 });
    expect(await other.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(team.key);
    expect(await other.content()).not.toContain(team.key);
    await other.close();
  });

  it("/docs lists every route and its Try it out works with a key", async () => {
    const doc = await (await fetch(`${api.origin}/v1/openapi.json`)).json();
    const operations = Object.values<Record<string, unknown>>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    await page.goto(`${api.origin}/docs`);
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    expect(await page.locator(".opblock").count()).toBe(operations);

    await page.click("button.authorize");
    await page.fill("#auth-bearer-value", team.key);
    await page.click('button[aria-label="Apply credentials"]');
    await page.click("button.btn-done");
    // Swagger UI keeps the key in memory only: not in localStorage, where it would outlive the tab.
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(team.key);

    async function tryItOut(operationId: string, tag: string, check?: (block: Locator) => Promise<void>): Promise<string> {
      const block = page.locator(`#operations-${tag}-${operationId}`);
      await block.locator(".opblock-summary-control").click();
      await block.locator("button.try-out__btn").click();
      await check?.(block);
      await block.locator("button.execute").click();
      const status = block.locator(".live-responses-table tbody .response-col_status").first();
      await status.waitFor({ timeout: 15_000 });
      return (await status.innerText()).trim();
    }
    expect(await tryItOut("getCurrentUser", "Users")).toBe("200");
    // Optional filters start empty (an address filled in turns the list into one best match), and the example body is
    // a realistic report, not "string" in every text field.
    const list = await tryItOut("listReports", "Reports", async (block) => {
      expect(await block.locator('input[placeholder="address"]').inputValue()).toBe("");
      expect(await block.locator('input[placeholder="address_contains"]').inputValue()).toBe("");
    });
    expect(list).toBe("200");
    expect(await page.locator("#operations-Reports-listReports .live-responses-table .response-col_description pre").first().innerText()).toContain('"total"');
    const created = await tryItOut("createReport", "Reports", async (block) => {
      const body = await block.locator("textarea.body-param__text").inputValue();
      expect(body).not.toContain('"string"');
      expect(JSON.parse(body).address).toMatch(/^\d+ \w+/);
    });
    expect(created).toBe("201"); // with its pre-filled example body
    await keepScreenshot(page, "docs.png");
    expect(outside).toEqual([]);
    // The document's description and the bar our settings fill (servers, Authorize).
    expect(await ownViolations([".information-container", ".scheme-container"])).toEqual([]);
  }, 120_000);
});
