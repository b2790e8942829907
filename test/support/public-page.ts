// The service's public pages (a share link's report, an open-house sign-in form) in headless Chromium: the test's app
// on a loopback port with a team and its REST client, one browser, pages opened with a record of what must not happen
// on them, and axe. Used by test/system/share-page.test.ts and test/system/sign-in-page.test.ts (which check chromiumFor first).
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { createTeam, listening, startTestApp } from "./app";
import { axeViolations, describeViolations } from "./axe";
import { CHROMIUM, SCREENSHOTS } from "./chromium";
import { restClient } from "./openapi";

export interface PublicPages {
  /** The team's REST client, to make what the pages show. */
  api: ReturnType<typeof restClient>;
  /** The team's Authorization header (for what the REST client does not send: a photo's multipart upload). */
  auth: Record<string, string>;
  /** Where the app listens: `http://127.0.0.1:<port>`. */
  origin: string;
  browser: Browser;
  /**
   * Opens `pagePath` in a new page of `context` and expects 200; `problems` collects console errors and warnings
   * (a broken rule of the content security policy among them; not those matching `expectedConsole`), script errors
   * and requests leaving the server.
   */
  open(context: BrowserContext, pagePath: string): Promise<{ page: Page; problems: string[] }>;
  close(): Promise<void>;
}

/** Starts the app for a new team named `teamName` and launches Chromium; screenshots' folder made. */
export async function publicPages(teamName: string, expectedConsole?: RegExp): Promise<PublicPages> {
  const t = await startTestApp();
  let server: Awaited<ReturnType<typeof listening>> | undefined;
  try {
    const team = await createTeam({ name: teamName });
    server = await listening(t.app);
    const origin = server.base;
    const browser = await chromium.launch({ executablePath: CHROMIUM });
    mkdirSync(SCREENSHOTS, { recursive: true });
    const open = async (context: BrowserContext, pagePath: string) => {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on("console", (m) => {
        if ((m.type() === "error" || m.type() === "warning") && !expectedConsole?.test(m.text())) problems.push(`console: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("request", (r) => {
        if (!r.url().startsWith(origin)) problems.push(`request leaving the server: ${r.url()}`);
      });
      const res = await page.goto(origin + pagePath);
      expect(res?.status()).toBe(200);
      return { page, problems };
    };
    const close = async () => {
      await browser.close();
      await server?.close();
      await t.close();
    };
    return { api: restClient(t.app, team.auth), auth: team.auth, origin, browser, open, close };
  } catch (err) {
    await server?.close();
    await t.close();
    throw err;
  }
}

/** axe finds no violation on the page as it stands. */
export async function expectAxeClean(page: Page): Promise<void> {
  expect(describeViolations(await axeViolations(page))).toEqual([]);
}
