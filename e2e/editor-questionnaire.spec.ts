import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectAnnounced, pickUp, signIn } from "./support";

async function newDraft(page: Page) {
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  return Number(/\/survey\/(\d+)\/edit/.exec(page.url())![1]);
}

async function addCategory(page: Page, title: string) {
  await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
  const dialog = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
  await dialog.getByLabel("Titel der Kategorie").fill(title);
  await dialog.getByRole("button", { name: "Speichern" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("category").filter({ hasText: title })).toBeVisible();
}

/**
 * Runs `act`, a move, and waits until it was saved and the page has read its data again: a card measured for
 * the mouse while the list is drawn anew can be in another place by the time the button goes down.
 */
async function savedAndReread(page: Page, act: () => Promise<unknown>) {
  const saved = page.waitForResponse((r) => /\/reorder/.test(r.url()) && r.request().method() !== "GET");
  const reread = page.waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()));
  await act();
  expect((await saved).ok()).toBe(true);
  await reread;
}

/**
 * A handle's box once the list stands still: after a drop the items glide to their places, and a box read on
 * the way is where another item will be when the pointer arrives.
 */
async function settledBox(handle: Locator) {
  let last = await handle.boundingBox();
  for (let tries = 0; tries < 50; tries++) {
    await handle.page().waitForTimeout(100);
    const now = await handle.boundingBox();
    if (JSON.stringify(now) === JSON.stringify(last)) return now!;
    last = now;
  }
  throw new Error("the list did not stand still within 5 s");
}

const categoryTitles = (page: Page) => page.getByTestId("category").locator(".category__title");

test.describe("questionnaire tab", () => {
  test("categories: add, validate, edit, reorder by mouse, keyboard and buttons, delete", async ({ page }) => {
    await newDraft(page);
    await page.getByRole("tab", { name: /Fragebogen/ }).click();
    await expect(page).toHaveURL(/#questionnaire$/);
    // The asterisk marks a questionnaire without questions.
    await expect(page.getByRole("tab", { name: /Fragebogen/ })).toContainText("*");

    await page.getByRole("button", { name: "+ Kategorie hinzufügen" }).click();
    const dialog = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await expect(dialog.getByText("Der Titel darf nicht leer sein.")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await addCategory(page, "Anamnese");
    await addCategory(page, "Befund");
    await addCategory(page, "Therapie");
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Befund", "Therapie"]);

    // Move buttons.
    await savedAndReread(page, () => page.getByRole("button", { name: "Therapie nach oben" }).click());
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);

    // Keyboard drag: focus the handle, Space, ArrowUp, Space. The drop goes where the list last said the item
    // is over ("… über Position 2."), worked out after the arrow key was handled: like a person who hears the
    // position first, the test waits for it before the drop, then for the drop to be said, saved and read.
    // The handle is named by its item; how to move it is its description, said once; its kind in German.
    const befundHandle = page.getByRole("button", { name: /^Befund verschieben/ });
    await expect(befundHandle).toHaveAccessibleName("Befund verschieben");
    await expect(befundHandle).toHaveAccessibleDescription(
      "Zum Aufnehmen Leertaste oder Eingabe drücken, mit den Pfeiltasten verschieben, mit Leertaste oder Eingabe ablegen, mit Escape abbrechen.",
    );
    await expect(befundHandle).toHaveAttribute("aria-roledescription", "Ziehgriff");
    await pickUp(page, befundHandle);
    await page.keyboard.press("ArrowUp");
    await expectAnnounced(page, "Befund über Position 2.");
    await savedAndReread(page, () => page.keyboard.press("Space"));
    await expect(page.getByText("Befund an Position 2 abgelegt.")).toBeAttached();
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Befund", "Therapie"]);

    // Mouse drag: Therapie to the top.
    const handle = page.getByRole("button", { name: /^Therapie verschieben/ });
    const target = page.getByRole("button", { name: /^Anamnese verschieben/ });
    const from = await settledBox(handle);
    const to = await settledBox(target);
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 10 });
    // Released once the list says where the item is (it works that out in an animation frame after the
    // pointer moved): a person lets go over the place they see, a release before it drops nowhere.
    await expectAnnounced(page, "Therapie über Position 1.");
    await savedAndReread(page, () => page.mouse.up());
    await expect(categoryTitles(page)).toHaveText(["Therapie", "Anamnese", "Befund"]);

    await page.reload();
    await page.getByRole("tab", { name: /Fragebogen/ }).click();
    await expect(categoryTitles(page)).toHaveText(["Therapie", "Anamnese", "Befund"]);

    const befund = page.getByTestId("category").filter({ hasText: "Befund" });
    await befund.getByRole("button", { name: "Bearbeiten" }).first().click();
    const edit = page.getByRole("dialog", { name: "Kategorie bearbeiten" });
    await edit.getByLabel("Titel der Kategorie").fill("Befunde");
    await edit.getByRole("button", { name: "Speichern" }).click();
    await expect(categoryTitles(page)).toHaveText(["Therapie", "Anamnese", "Befunde"]);

    await page
      .getByTestId("category")
      .filter({ hasText: "Therapie" })
      .getByRole("button", { name: "Löschen" })
      .first()
      .click();
    await page.getByRole("dialog", { name: "Kategorie löschen" }).getByRole("button", { name: "Löschen" }).click();
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Befunde"]);
  });

  test("a keyboard move: the held item stays put while the page reads its data, Escape and Tab put it back", async ({
    page,
  }) => {
    await newDraft(page);
    await page.getByRole("tab", { name: /Fragebogen/ }).click();
    for (const title of ["Anamnese", "Befund", "Therapie"]) await addCategory(page, title);
    // The data read after a move comes late (a slow network), while the next item is held.
    await page.route(/edit\.data/, async (route) => {
      await new Promise((late) => setTimeout(late, 1500));
      await route.continue();
    });
    const saved = page.waitForResponse((r) => /\/reorder/.test(r.url()) && r.request().method() !== "GET");
    await page.getByRole("button", { name: "Therapie nach oben" }).click();
    expect((await saved).ok()).toBe(true);
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);

    const befund = page.getByRole("button", { name: /^Befund verschieben/ });
    const reread = page.waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()));
    await pickUp(page, befund);
    await expectAnnounced(page, "Befund aufgenommen.");
    await reread;
    await page.keyboard.press("ArrowUp");
    await expectAnnounced(page, "Befund über Position 2.");
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Befund", "Therapie"]);
    await expect(befund).toBeFocused();
    // Past the top it stays first; Escape puts it back where it was picked up and drops nothing.
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expectAnnounced(page, "Befund über Position 1.");
    await expect(categoryTitles(page)).toHaveText(["Befund", "Anamnese", "Therapie"]);
    await page.keyboard.press("Escape");
    await expectAnnounced(page, "Verschieben von Befund abgebrochen.");
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);
    await expect(befund).not.toHaveAttribute("aria-pressed", "true");
    // Moving the focus on to another control puts it back too.
    await pickUp(page, befund);
    await page.keyboard.press("ArrowUp");
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Befund", "Therapie"]);
    await page.keyboard.press("Tab");
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);
    // The order read again from the server is the one the move button saved.
    await page.unrouteAll();
    await page.reload();
    await page.getByRole("tab", { name: /Fragebogen/ }).click();
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);
  });

  test("an order another editor saved while an item is held shows once it is put back; the held item stands out", async ({
    page,
  }) => {
    const surveyId = await newDraft(page);
    await page.getByRole("tab", { name: /Fragebogen/ }).click();
    for (const title of ["Anamnese", "Befund", "Therapie"]) await addCategory(page, title);
    const { Categories } = await api<{ Categories: { Id: number; Title: string }[] }>(
      page,
      "GET",
      `/surveys/${surveyId}`,
    );
    const therapie = Categories.find((c) => c.Title === "Therapie")!.Id;
    // The data read after a move comes late; meanwhile another editor puts Therapie first, and Befund is held.
    await page.route(/edit\.data/, async (route) => {
      await new Promise((late) => setTimeout(late, 1500));
      await route.continue();
    });
    const saved = page.waitForResponse((r) => /\/reorder/.test(r.url()) && r.request().method() !== "GET");
    const reread = page.waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()));
    await page.getByRole("button", { name: "Befund nach unten" }).click();
    expect((await saved).ok()).toBe(true);
    await api(page, "POST", `/categories/${therapie}/reorder?newPosition=0&surveyId=${surveyId}`);
    const befund = page.getByRole("button", { name: /^Befund verschieben/ });
    await pickUp(page, befund);
    const held = page.getByTestId("category").filter({ hasText: "Befund" }).locator("xpath=ancestor::li[1]");
    await expect(held).toHaveClass(/sortable__item--held/);
    await expect(held).toHaveCSS("opacity", "1");
    await reread;
    // While held, the list stays as the person sees it.
    await expect(categoryTitles(page)).toHaveText(["Anamnese", "Therapie", "Befund"]);
    await page.keyboard.press("Escape");
    await expect(held).not.toHaveClass(/sortable__item--held/);
    // Put back: the order read meanwhile is the one shown.
    await expect(categoryTitles(page)).toHaveText(["Therapie", "Anamnese", "Befund"]);
  });

  test("an approver and an Active survey see the editor read-only", async ({ page }) => {
    await signIn(page, "approver");
    await page.goto("/survey/1/edit#questionnaire");
    await expect(page.getByTestId("category").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "+ Kategorie hinzufügen" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Bearbeiten" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /verschieben/ })).toHaveCount(0);
    await expect(page.getByText("Diese Umfrage ist schreibgeschützt")).toBeVisible();
  });

  test("without JavaScript every tab is reachable", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, "editor");
    await page.goto("/survey/1/edit");
    for (const name of ["Start", "Einleitung", "Vorabfragen", "Fragebogen", "Abschluss"]) {
      await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
    }
    await page.getByRole("link", { name: "Fragebogen" }).click();
    await expect(page).toHaveURL(/#questionnaire$/);
    await expect(page.getByText("Wie stark ist die Atemnot bei Belastung?")).toBeVisible();
    await context.close();
  });
});

test("destructive confirmations start on the safe choice: a reflex Enter deletes nothing", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Sicher ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const created = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Bleibt",
    Type: "FreeText",
  });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  const question = page.locator(`[data-question-id="${created.Id}"]`);
  await question.getByRole("button", { name: "Löschen" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Abbrechen" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(question).toBeVisible();
  // Focus goes back to what opened it.
  await expect(question.getByRole("button", { name: "Löschen" })).toBeFocused();

  // The approver's unpublish, a confirmation in the page's address, starts on "Abbrechen" too.
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  await page.goto(`/survey/${survey.Id}/edit`);
  await page.getByRole("link", { name: "Veröffentlichung zurückziehen" }).click();
  const unpublish = page.getByRole("dialog", { name: /zurückziehen/ });
  await expect(unpublish.getByRole("link", { name: "Abbrechen" })).toBeFocused();
  expect((await api<{ Status: string }>(page, "GET", `/surveys/${survey.Id}`)).Status).not.toBe("Draft");
});
