// Debian's Chromium for the browser tests (or CHROMIUM_PATH): whether it is there — a failure under REQUIRE_CHROMIUM,
// which .ci/run sets after installing it, a skip with a message otherwise — and where the tests' screenshots go.
import { existsSync } from "node:fs";
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
