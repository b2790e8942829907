// Debian's Chromium for the browser tests (or CHROMIUM_PATH): whether it is there — a failure under REQUIRE_CHROMIUM,
// which .ci/run sets after installing it, a skip with a message otherwise — and the screenshots the tests leave.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOTS = path.join(__dirname, "..", "..", "artifacts", "screenshots");

/** Whether Chromium can run `what` (a file's browser tests); throws under REQUIRE_CHROMIUM when it cannot. */
export function chromiumFor(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  const why = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
  if (process.env.REQUIRE_CHROMIUM) throw new Error(`browser tests cannot run: ${why}`);
  console.warn(`${what} skipped: ${why}`);
  return false;
}

/**
 * Keeps a screenshot of `target` (a page, or one element of it) as artifacts/screenshots/<name>, for people to look at
 * what the browser tests saw. None with SCREENSHOTS=off: .ci/run sets it, as nobody opens a CI run's screenshots
 * and they took ~0.3 s each (a full page, PNG) — about a fifth of the dashboard's browser tests.
 */
export async function keepScreenshot(
  target: { screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown> },
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (process.env.SCREENSHOTS === "off") return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SCREENSHOTS, name), ...options });
}
