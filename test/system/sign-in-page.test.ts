// The open-house sign-in form (docs/open-house-sign-in.md) in headless Chromium with JavaScript off: on a phone, and
// as a kiosk on a tablet where two visitors sign in one after the other and nothing of the first is on screen, in the
// fields or one step back in the history when the second starts; the page with its errors; axe finds nothing on any
// of them, nothing loads from elsewhere and no rule of the content security policy is broken. Screenshots go to
// artifacts/screenshots/sign-in-*.png. Needs Debian's chromium (or CHROMIUM_PATH), like test/system/share-page.test.ts.
import type { Page } from "playwright-core";
import { prisma } from "../../src/db";
import { chromiumFor, keepScreenshot } from "../support/chromium";
import { expectAxeClean, publicPages, type PublicPages } from "../support/public-page";

const available = chromiumFor("sign-in page browser tests");
const PHONE = { width: 390, height: 844 };
const TABLET = { width: 820, height: 1180 };
/** The form refuses a sign-in sent within 2 s of being served (a robot's speed): a visitor here takes a little longer. */
const THINKING_MS = 2_200;

(available ? describe : describe.skip)("the sign-in page in Chromium", () => {
  let pages: PublicPages;

  async function openHouse(): Promise<{ showingId: string; path: string }> {
    const report = await pages.api.post("/v1/reports", { address: "12 Garden Lane", city: "Springfield", state: "IL", zip: "62704", price: 700000, custom_agent_name: "Jordan Agent", primary_color: "#0B2545", secondary_color: "#8DA9C4" });
    const showing = await pages.api.post("/v1/showings", { report_id: report.body.data.id, event_type: "open_house", title: "Sunday open house" });
    const link = await pages.api.post(`/v1/showings/${showing.body.data.id}/sign-in-links`, { questions: ["How did you hear about this open house?"] });
    return { showingId: showing.body.data.id, path: new URL(link.body.data.url).pathname };
  }

  // Read through locators (Playwright's own isolated world): the page's main world runs no script with JavaScript off.
  async function fieldValues(page: Page): Promise<string> {
    const inputs = page.locator("input[type=text], input[type=email], input[type=tel]");
    const values: string[] = [];
    for (let i = 0; i < (await inputs.count()); i++) values.push(await inputs.nth(i).inputValue());
    return values.join("|");
  }
  async function ticked(page: Page): Promise<number> {
    const boxes = page.locator("input[type=checkbox]");
    let n = 0;
    for (let i = 0; i < (await boxes.count()); i++) if (await boxes.nth(i).isChecked()) n++;
    return n;
  }

  async function signIn(page: Page, visitor: { name: string; email: string; phone: string; answer: string }): Promise<void> {
    await page.getByLabel("Your name").fill(visitor.name);
    await page.getByLabel("E-mail", { exact: false }).first().fill(visitor.email);
    await page.getByLabel("Phone", { exact: false }).first().fill(visitor.phone);
    await page.getByLabel("No", { exact: true }).check();
    await page.getByLabel("How did you hear about this open house?").fill(visitor.answer);
    await page.locator("input[name=consent_email]").check();
    await page.waitForTimeout(THINKING_MS);
    await Promise.all([page.waitForURL(/\/thanks/), page.getByRole("button", { name: "Sign in" }).click()]);
  }

  beforeAll(async () => {
    // The form sent with errors is answered 400 on purpose (the page with the problems); Chromium logs that status.
    pages = await publicPages("Garden Realty", /status of 400 \(Bad Request\)/);
  });
  afterAll(() => pages?.close());

  it("signs a visitor in on a phone with JavaScript off, showing each problem next to its field", async () => {
    const { showingId, path: pagePath } = await openHouse();
    const context = await pages.browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const { page, problems } = await pages.open(context, pagePath);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("12 Garden Lane");
    expect(await ticked(page)).toBe(0); // every consent box starts unticked
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await keepScreenshot(page, "sign-in-phone.png", { fullPage: true });

    // Sent empty: the errors stand next to their fields, which point at them.
    await page.waitForTimeout(THINKING_MS);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#name-error").textContent()).resolves.toBe("Please enter your name.");
    await expect(page.getByLabel("Your name").getAttribute("aria-describedby")).resolves.toBe("name-error");
    await keepScreenshot(page, "sign-in-phone-errors.png", { fullPage: true });

    await signIn(page, { name: "Robin Visitor", email: "robin@example.com", phone: "555 010 2030", answer: "A flyer" });
    await expect(page.getByRole("heading", { name: "Thank you for signing in!" }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole("link", { name: "Withdraw your consent" }).isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    expect(await prisma.attendee.count({ where: { showingId } })).toBe(1);
    await context.close();
  }, 120_000);

  it("as a kiosk, shows the second visitor nothing of the first: not on screen, not in the fields, not one step back", async () => {
    const { showingId, path: pagePath } = await openHouse();
    const context = await pages.browser.newContext({ viewport: TABLET, javaScriptEnabled: false });
    const { page, problems } = await pages.open(context, `${pagePath}?kiosk=1`);
    expect(await page.locator("form").getAttribute("autocomplete")).toBe("off");
    const first = { name: "Alex Firstvisitor", email: "alex.first@example.com", phone: "555 111 2222", answer: "Saw the sign" };
    await signIn(page, first);
    await keepScreenshot(page, "sign-in-kiosk-thanks.png", { fullPage: true });
    const leftOf = async (visitor: typeof first) => {
      const html = await page.content();
      return [visitor.name, visitor.email, visitor.phone, visitor.answer].filter((v) => html.includes(v));
    };
    // The thank-you with a fresh form: empty fields, unticked boxes, nothing of the first visitor, no withdrawal link.
    expect(page.url()).toBe(`${pages.origin}${pagePath}/thanks?kiosk=1`);
    await expect(page.getByText("Next visitor? Please sign in below.").isVisible()).resolves.toBe(true);
    expect(await fieldValues(page)).toBe("||||");
    expect(await ticked(page)).toBe(0);
    expect(await leftOf(first)).toEqual([]);
    expect(await page.getByRole("link", { name: "Withdraw your consent" }).count()).toBe(0);
    // One step back is the empty form: the browser kept nothing of what was typed (autocomplete off, no-store).
    await page.goBack();
    expect(await fieldValues(page)).toBe("||||");
    expect(await ticked(page)).toBe(0);
    expect(await leftOf(first)).toEqual([]);
    await page.goForward();

    const second = { name: "Sam Secondvisitor", email: "sam.second@example.com", phone: "555 333 4444", answer: "Online" };
    await signIn(page, second);
    expect(await leftOf(first)).toEqual([]);
    expect(await leftOf(second)).toEqual([]);
    expect(await fieldValues(page)).toBe("||||");
    expect(problems).toEqual([]);
    expect(await prisma.attendee.count({ where: { showingId } })).toBe(2);
    expect((await pages.api.get(`/v1/showings/${showingId}`)).body.data.attendees_count).toBe(2);
    await context.close();
  }, 120_000);

  // axe runs its script in the page, so these pages are checked with JavaScript on (they have no script of their own:
  // what axe reads is what a browser without JavaScript shows).
  it("is axe-clean on a phone and a tablet: the form, its errors, the thank-you, the kiosk's, the withdrawal page", async () => {
    const { path: pagePath } = await openHouse();
    for (const viewport of [PHONE, TABLET]) {
      const context = await pages.browser.newContext({ viewport });
      const { page, problems } = await pages.open(context, pagePath);
      await expectAxeClean(page);
      await page.waitForTimeout(THINKING_MS);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.locator("#name-error").waitFor();
      await expectAxeClean(page);
      await signIn(page, { name: "Robin Visitor", email: "robin@example.com", phone: "555 010 2030", answer: "A flyer" });
      await expectAxeClean(page);
      await page.getByRole("link", { name: "Withdraw your consent" }).click();
      await page.getByRole("button", { name: "Withdraw my consent" }).waitFor();
      await expectAxeClean(page);
      await page.goto(`${pages.origin}${pagePath}/thanks?kiosk=1`);
      await expectAxeClean(page);
      expect(problems).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
