import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn } from "./support";

/**
 * The editor and statistics pages load the shared zod schemas. Under the pages' Content-Security-Policy
 * (script-src without 'unsafe-eval') nothing on them may try to evaluate source text: no violation is
 * reported and nothing is logged as an error. (The same check runs in Firefox: e2e/firefox/pages.test.ts.)
 */

async function watch(page: Page) {
  const problems: string[] = [];
  await page.addInitScript(() =>
    window.addEventListener(
      "securitypolicyviolation",
      (e) => console.error(`Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
      true,
    ),
  );
  page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  return problems;
}

test("the editor and statistics pages run without a blocked eval or any other error", async ({ page }) => {
  const problems = await watch(page);
  await signIn(page, "admin");
  await expect(page.getByTestId("greeting")).toBeVisible();

  await page.goto("/survey/1/edit#questionnaire");
  await expect(page.getByRole("tab", { name: /Fragebogen/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("Wie stark ist die Atemnot bei Belastung?").first()).toBeVisible();

  await page.goto("/survey/1/statistics#graphs");
  await expect(page.getByRole("tab", { name: "Diagramme" })).toHaveAttribute("aria-selected", "true");
  await expect(page.locator("svg").first()).toBeVisible();
  expect(problems).toEqual([]);
});
