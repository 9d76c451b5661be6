import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** The WCAG 2.1 A and AA rules; best-practice rules are outside the budget. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * Runs axe-core on the page as it is now (open modals, menus and panels included) and expects no serious or
 * critical violation, and one main landmark at the top level. Soft, so that one run lists every screen's
 * findings; the test still fails.
 */
export async function expectNoSeriousViolations(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(" ")} ${n.failureSummary?.split("\n")[1]?.trim() ?? ""}`),
    }));
  expect.soft(serious, `${screen} (${page.url()})`).toEqual([]);
  // One main landmark, at the top level: screen readers jump to it, and a nested second one confuses that.
  const landmarks = await new AxeBuilder({ page })
    .withRules(["landmark-no-duplicate-main", "landmark-main-is-top-level"])
    .analyze();
  expect
    .soft(
      landmarks.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${screen} (${page.url()}) main landmark`,
    )
    .toEqual([]);
}
