import { expect, test } from "./test";
import { signIn } from "./support";

/** A survey's title opens its start page; no row menu is ever empty, whatever the survey's state. */

test("the title opens the start page, and an ended survey's menu still offers its start page", async ({ page }) => {
  await signIn(page, "user");
  const rows = page.getByTestId("survey-row");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) {
    await row.locator("summary").click();
    await expect(row.locator(".menu__panel .menu__item").first()).toBeVisible();
    await row.locator("summary").click();
  }
  const ended = rows.filter({ hasText: "Beendet" }).first();
  await ended.locator("summary").click();
  await expect(ended.getByRole("link", { name: "Startseite öffnen" })).toBeVisible();
  await ended.locator("summary").click();

  const title = (await ended.getByTestId("row-title").innerText()).trim();
  await ended.getByTestId("row-title").click();
  await expect(page).toHaveURL(/\/survey\/\d+$/);
  await expect(page.getByTestId("start-title")).toHaveText(title);
  await expect(page.getByTestId("start-blocked")).toBeVisible();
});
