// axe-core's checks of a browser page, run in the page itself: axe's source is added to the document once (a
// single-page app keeps it across its own route changes) and `axe.run` reports the violations only. @axe-core/
// playwright's builder added the source again on every check and finished each one in a new blank page (for
// cross-origin frames, which none of these pages has): ~0.9-2.6 s a check on two cores, against 0.05-0.3 s here,
// with the same rules.
import { readFileSync } from "node:fs";
import type { Result, RunOptions } from "axe-core";
import type { Page } from "playwright-core";

const SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export interface AxeScope {
  /** Only these rules (axe's ids); every rule when left out. */
  rules?: string[];
  /** Only the elements these selectors match; the whole document when left out. */
  include?: string[];
}

/** axe's violations on the page as it stands. */
export async function axeViolations(page: Page, scope: AxeScope = {}): Promise<Result[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(SOURCE);
  const options: RunOptions = { resultTypes: ["violations"], ...(scope.rules ? { runOnly: { type: "rule", values: scope.rules } } : {}) };
  return page.evaluate(
    ({ include, options }) => {
      const { axe } = window as unknown as { axe: typeof import("axe-core") };
      return axe.run(include?.length ? { include: include.map((selector) => [selector]) } : document, options).then((r) => r.violations);
    },
    { include: scope.include, options },
  );
}

/** A violation axe rates serious or critical. */
export const isSerious = (v: Result): boolean => v.impact === "serious" || v.impact === "critical";

/** Each violation as one line: its rule, its impact and the elements it found. */
export const describeViolations = (violations: Result[], prefix = ""): string[] =>
  violations.map((v) => `${prefix}${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
