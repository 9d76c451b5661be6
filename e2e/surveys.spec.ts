import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { holdScripts, signIn, surveyRow } from "./support";

const row = surveyRow;

async function openRowMenu(page: Page, title: string) {
  await row(page, title).locator("summary").click();
}

test.describe("surveys as an editor", () => {
  test("creates, renames (a failed rename reverts), dates, clones, archives, restores and deletes", async ({
    page,
  }) => {
    await signIn(page, "editor");
    await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
    await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
    await expect(page.getByTestId("survey-title")).toHaveText("Neue Umfrage");

    // Rename in place: the edit toggle, type, Enter.
    await page.getByRole("button", { name: "Titel bearbeiten" }).click();
    await page.getByLabel("Titel", { exact: true }).fill("Blutdruck-Studie E2E");
    await page.getByLabel("Titel", { exact: true }).press("Enter");
    await expect(page.getByTestId("survey-title")).toHaveText("Blutdruck-Studie E2E");
    // The title shows at once; the reload comes once the field says the server has it.
    await expect(page.getByTestId("title-save-state")).toHaveText("Gespeichert");
    await page.reload();
    await expect(page.getByTestId("survey-title")).toHaveText("Blutdruck-Studie E2E");

    // A blank title is not sent: it is reverted, and the notice says why.
    await page.getByRole("button", { name: "Titel bearbeiten" }).click();
    await page.getByLabel("Titel", { exact: true }).fill("   ");
    await page.getByLabel("Titel", { exact: true }).blur();
    await expect(page.getByTestId("toast").filter({ hasText: "Der Titel darf nicht leer sein." })).toBeVisible();
    await expect(page.getByTestId("survey-title")).toHaveText("Blutdruck-Studie E2E");

    // Dates: a start after the end pushes the end; save shows the notice.
    await page.getByLabel("Startdatum").fill("01.03.2027");
    await page.getByLabel("Enddatum").fill("10.03.2027");
    await page.getByLabel("Startdatum").fill("20.03.2027");
    await expect(page.getByLabel("Enddatum")).toHaveValue("20.03.2027");
    await page.getByLabel("Enddatum").fill("05.03.2027");
    await expect(page.getByText("Das Enddatum darf nicht vor dem Startdatum liegen.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Speichern" })).toBeDisabled();
    await page.getByLabel("Enddatum").fill("30.06.2027");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Umfrageinformationen gespeichert." })).toBeVisible();

    await page.getByRole("link", { name: "Zurück zur Übersicht" }).click();
    await expect(row(page, "Blutdruck-Studie E2E")).toContainText("20.03.2027 - 30.06.2027");
    await expect(row(page, "Blutdruck-Studie E2E")).toContainText("Entwurf");

    // Clone with a confirmation naming the source.
    await openRowMenu(page, "Blutdruck-Studie E2E");
    await row(page, "Blutdruck-Studie E2E").getByRole("link", { name: "Klonen" }).click();
    const dialog = page.getByRole("dialog", { name: "Umfrage klonen" });
    await expect(dialog).toContainText("„Blutdruck-Studie E2E“");
    await dialog.getByRole("button", { name: "Klonen" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde geklont." })).toBeVisible();
    await expect(row(page, "Kopie von Blutdruck-Studie E2E")).toBeVisible();

    // Archive (yes/no), then restore from the archive, archive again and delete permanently.
    await openRowMenu(page, "Kopie von Blutdruck-Studie E2E");
    await row(page, "Kopie von Blutdruck-Studie E2E").getByRole("link", { name: "Archivieren" }).click();
    await page.getByRole("dialog", { name: "Umfrage archivieren" }).getByRole("button", { name: "Ja" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde archiviert." })).toBeVisible();
    await expect(row(page, "Kopie von Blutdruck-Studie E2E")).toHaveCount(0);

    await page.locator('summary[title="Weitere Aktionen"]').click();
    await page.getByRole("link", { name: "Archiv", exact: true }).click();
    await expect(page).toHaveURL(/\/survey-archives$/);
    const archived = page.getByTestId("archive-row").filter({ hasText: "Kopie von Blutdruck-Studie E2E" });
    await expect(archived).toContainText("Archiviert");
    await archived.locator("summary").click();
    await archived.getByRole("button", { name: "Als Entwurf wiederherstellen" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde wiederhergestellt." })).toBeVisible();
    await expect(archived).toHaveCount(0);

    await page.getByRole("link", { name: "Archiv verlassen" }).click();
    await expect(row(page, "Kopie von Blutdruck-Studie E2E")).toContainText("Entwurf");
    await openRowMenu(page, "Kopie von Blutdruck-Studie E2E");
    await row(page, "Kopie von Blutdruck-Studie E2E").getByRole("link", { name: "Archivieren" }).click();
    await page.getByRole("dialog", { name: "Umfrage archivieren" }).getByRole("button", { name: "Ja" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde archiviert." })).toBeVisible();
    // The first archiving's notice may still show (a notice stays 5 s): the row leaving the list is what
    // says this archiving was done. An address opened before would cancel it.
    await expect(row(page, "Kopie von Blutdruck-Studie E2E")).toHaveCount(0);
    await page.goto("/survey-archives");
    await archived.locator("summary").click();
    await archived.getByRole("link", { name: "Endgültig löschen" }).click();
    const confirmDelete = page.getByRole("dialog", { name: "Umfrage endgültig löschen" });
    await expect(confirmDelete).toContainText("Kopie von Blutdruck-Studie E2E");
    await confirmDelete.getByRole("button", { name: "Endgültig löschen" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde endgültig gelöscht." })).toBeVisible();
    await expect(archived).toHaveCount(0);
  });

  test("a confirmation closes on Escape and gives focus back", async ({ page }) => {
    await signIn(page, "editor");
    await openRowMenu(page, "Herzinsuffizienz – Verlaufsbogen");
    await row(page, "Herzinsuffizienz – Verlaufsbogen").getByRole("link", { name: "Klonen" }).click();
    const dialog = page.getByRole("dialog", { name: "Umfrage klonen" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Klonen" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/surveys$/);
  });

  test("debounced search highlights the matches", async ({ page }) => {
    await signIn(page, "editor");
    await expect(page.getByTestId("survey-row")).not.toHaveCount(0);
    const search = page.getByRole("searchbox", { name: "Umfragen durchsuchen" });
    await search.pressSequentially("herz", { delay: 50 });
    // Nothing happens while typing; 600 ms after the last key the list is filtered.
    await expect(page).toHaveURL(/\?q=herz$/);
    await expect(page.getByTestId("survey-row")).toHaveCount(1);
    await expect(page.getByTestId("survey-row").locator("mark")).toHaveText("Herz");
    await search.fill("gibt es nicht");
    await page.getByRole("button", { name: "Suchen" }).click();
    await expect(page.getByText("Keine Umfragen zu „gibt es nicht“")).toBeVisible();
  });
});

test("a search typed and reloaded before it ran comes back in the field and is searched", async ({ page }) => {
  await signIn(page, "editor");
  await expect(page.getByTestId("survey-row")).not.toHaveCount(0);
  const search = page.getByRole("searchbox", { name: "Umfragen durchsuchen" });
  await search.pressSequentially("herz", { delay: 20 });
  // Reloaded within the 600 ms the search waits for.
  await page.reload();
  await expect(search).toHaveValue("herz");
  await expect(page).toHaveURL(/\?q=herz$/);
  await expect(page.getByTestId("survey-row")).toHaveCount(1);
  // Once searched, nothing typed waits: the whole list by the logo stays whole after a reload.
  await page.getByRole("link", { name: "Umfragen – zur Übersicht" }).click();
  await expect(page).toHaveURL(/\/surveys$/);
  await page.reload();
  await expect(search).toHaveValue("");
  await expect(page).toHaveURL(/\/surveys$/);
});

test.describe("on a slow device", () => {
  // The page's scripts are held back below; a worker would answer them from its cache instead.
  test.use({ serviceWorkers: "block" });

  test("a search typed before the page's script ran is searched once it runs", async ({ page }) => {
    await signIn(page, "editor");
    const release = await holdScripts(page);
    await page.goto("/surveys", { waitUntil: "commit" });
    const search = page.getByRole("searchbox", { name: "Umfragen durchsuchen" });
    await search.pressSequentially("herz", { delay: 20 });
    release();
    await expect(page).toHaveURL(/\?q=herz$/);
    await expect(page.getByTestId("survey-row")).toHaveCount(1);
    await expect(search).toHaveValue("herz");
  });
});

test.describe("surveys as an approver", () => {
  test("publishes a draft and unpublishes it again", async ({ page }) => {
    await signIn(page, "approver");
    const title = "Patientenzufriedenheit Station 3A";
    await expect(page.getByRole("button", { name: "Umfrage hinzufügen" })).toHaveCount(0);
    await openRowMenu(page, title);
    await row(page, title).getByRole("link", { name: "Umfrage bearbeiten" }).click();
    await expect(
      page.getByText("Sie können diesen Entwurf ansehen und veröffentlichen, aber nicht bearbeiten"),
    ).toBeVisible();
    await page.getByRole("link", { name: "Veröffentlichen" }).click();
    await page
      .getByRole("dialog", { name: "Umfrage veröffentlichen" })
      .getByRole("button", { name: "Veröffentlichen" })
      .click();
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage wurde veröffentlicht." })).toBeVisible();
    await expect(row(page, title)).toContainText("Aktiv");

    await openRowMenu(page, title);
    await row(page, title).getByRole("link", { name: "Umfrage bearbeiten" }).click();
    await page.getByRole("link", { name: "Veröffentlichung zurückziehen" }).click();
    await page
      .getByRole("dialog", { name: "Veröffentlichung zurückziehen" })
      .getByRole("button", { name: "Veröffentlichung zurückziehen" })
      .click();
    await expect(page.getByTestId("toast").filter({ hasText: "Die Umfrage ist wieder ein Entwurf." })).toBeVisible();
    await expect(page.locator(".editor-head .status")).toHaveText("Entwurf");
  });
});

test.describe("surveys as a plain user", () => {
  test("sees only what they may fill, without editing actions", async ({ page }) => {
    await signIn(page, "user");
    await expect(row(page, "Herzinsuffizienz – Verlaufsbogen")).toBeVisible();
    await expect(row(page, "Post-operative Pain Assessment")).toBeVisible();
    await expect(row(page, "Sturzrisiko-Screening")).toHaveCount(1);
    await expect(page.getByText("Patientenzufriedenheit Station 3A")).toHaveCount(0);
    await expect(page.getByText("Medikationsabgleich (alt)")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Umfrage hinzufügen" })).toHaveCount(0);
    await openRowMenu(page, "Herzinsuffizienz – Verlaufsbogen");
    const menu = row(page, "Herzinsuffizienz – Verlaufsbogen").locator(".menu__panel");
    await expect(menu.getByRole("link")).toHaveText(["Umfrage ausfüllen"]);
    const response = await page.goto("/survey/3/edit");
    expect(page.url()).toMatch(/\/surveys$|\/403$/);
    expect(response?.ok()).toBe(true);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the list searches on submit, clones through the confirmation and the archive restores", async ({ page }) => {
    await signIn(page, "admin");
    await page.getByRole("searchbox", { name: "Umfragen durchsuchen" }).fill("pain");
    await page.getByRole("button", { name: "Suchen" }).click();
    await expect(page).toHaveURL(/\?q=pain$/);
    await expect(page.getByTestId("survey-row")).toHaveCount(1);
    await expect(page.getByTestId("survey-row").locator("mark")).toHaveText("Pain");

    await openRowMenu(page, "Post-operative Pain Assessment");
    await row(page, "Post-operative Pain Assessment").getByRole("link", { name: "Klonen" }).click();
    await page.getByRole("dialog", { name: "Umfrage klonen" }).getByRole("button", { name: "Klonen" }).click();
    await expect(row(page, "Kopie von Post-operative Pain Assessment")).toBeVisible();

    await openRowMenu(page, "Kopie von Post-operative Pain Assessment");
    await row(page, "Kopie von Post-operative Pain Assessment").getByRole("link", { name: "Archivieren" }).click();
    await page.getByRole("dialog", { name: "Umfrage archivieren" }).getByRole("button", { name: "Ja" }).click();
    await expect(row(page, "Kopie von Post-operative Pain Assessment")).toHaveCount(0);

    await page.goto("/survey-archives?q=kopie");
    const archived = page.getByTestId("archive-row").filter({ hasText: "Kopie von Post-operative Pain Assessment" });
    await expect(archived.locator("mark")).toHaveText("Kopie");
    await archived.locator("summary").click();
    await archived.getByRole("button", { name: "Als Entwurf wiederherstellen" }).click();
    await expect(archived).toHaveCount(0);
    await expect(page.getByText("Die Umfrage wurde wiederhergestellt.")).toHaveCount(0); // toasts need JavaScript
  });
});

test("a period open at one end reads 'ab …' or 'bis …', with no dash that leads nowhere", async ({ page }) => {
  await signIn(page, "admin");
  const stamp = Date.now();
  const make = async (Title: string, period: Record<string, string>) => {
    const created = await api<{ Id: number }>(page, "POST", "/surveys", { Title });
    await api(page, "PUT", `/surveys/${created.Id}`, period);
  };
  await make(`Nur Start ${stamp}`, { StartDate: "01.01.2027" });
  await make(`Nur Ende ${stamp}`, { EndDate: "31.12.2027" });
  await page.goto("/surveys");
  await expect(row(page, `Nur Start ${stamp}`).locator(".row__dates")).toHaveText("ab 01.01.2027");
  await expect(row(page, `Nur Ende ${stamp}`).locator(".row__dates")).toHaveText("bis 31.12.2027");
});

/**
 * Where the element's text wraps: for each line break, the character before it, or "-" where the break is at a
 * soft hyphen the page draws (a `.shy` mark after the character).
 */
async function wrapPoints(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const chars: { ch: string; top: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        const beforeShy = (node.nextSibling as Element | null)?.classList?.contains("shy") ?? false;
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = [...range.getClientRects()].find((r) => r.width > 0);
          const ch = beforeShy && i === text.length - 1 ? "-" : text[i]!;
          chars.push({ ch, top: rect ? Math.round(rect.top) : Number.NaN });
        }
      }
      const breaks: string[] = [];
      let lastShown = -1;
      for (let i = 0; i < chars.length; i++) {
        if (Number.isNaN(chars[i]!.top)) continue;
        if (lastShown >= 0 && chars[i]!.top > chars[lastShown]!.top + 2) breaks.push(chars[i - 1]!.ch);
        lastShown = i;
      }
      return breaks;
    });
}

test("a long German title on a phone breaks between words or at a syllable with a hyphen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await signIn(page, "admin");
  const title = `Wundverlaufsdokumentation Herzinsuffizienzambulanz ${Date.now() % 1000}`;
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  await page.goto("/surveys");
  const rowTitle = row(page, title).locator(".row__title");
  await expect(rowTitle).toHaveText(title);
  const breaksIn = async (selector: string) => {
    const breaks = await wrapPoints(page, selector);
    expect(breaks.length, `${selector} wraps at all on a phone`).toBeGreaterThan(0);
    for (const ch of breaks) expect([" ", "-"]).toContain(ch);
  };
  await rowTitle.evaluate((el) => el.setAttribute("data-probe", "row"));
  await breaksIn("[data-probe=row]");
  await page.goto(`/survey/${survey.Id}/edit`);
  await breaksIn("[data-testid=survey-title]");
});
