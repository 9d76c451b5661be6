import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { expectStylesLoaded } from "./styles";

/** The WCAG 2.1 A and AA rules; best-practice rules are outside the budget. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const LANDMARK_RULES = ["landmark-no-duplicate-main", "landmark-main-is-top-level"];

/**
 * Runs axe-core on the page as it is now (open modals, menus and panels included) and expects no serious or
 * critical violation, and one main landmark at the top level; and expects every class drawn to have its styles
 * loaded (e2e/styles.ts). Soft, so that one run lists every screen's
 * findings; the test still fails.
 */
export async function expectNoSeriousViolations(page: Page, screen: string) {
  // The screen's styles came with it (a feature's stylesheet loads only with the pages that show it).
  await expectStylesLoaded(page, screen);
  // One pass: the WCAG rules, and the two landmark rules (best practice, so enabled by name).
  const results = await new AxeBuilder({ page })
    .options({
      runOnly: { type: "tag", values: TAGS },
      rules: Object.fromEntries(LANDMARK_RULES.map((rule) => [rule, { enabled: true }])),
    })
    .analyze();
  const wcag = results.violations.filter((v) => !LANDMARK_RULES.includes(v.id));
  const serious = wcag
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
  const landmarks = results.violations.filter((v) => LANDMARK_RULES.includes(v.id));
  expect
    .soft(
      landmarks.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${screen} (${page.url()}) main landmark`,
    )
    .toEqual([]);
}
