import type { Browser, Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { signIn } from "./support";

/**
 * The editor's header form (decision 025): a bad field shows its own message beside it, marked invalid and
 * described by that message, without JavaScript (the server's answer drawn on the page) and with it (the
 * same schema checking in the browser). Nothing of a refused form is stored.
 */

/** A signed-in page with JavaScript, to set up surveys and check what reached the server. */
async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, "admin");
  return page;
}

/** The field is marked invalid and its description is the given message. */
async function expectFieldError(page: Page, field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
  const texts = await Promise.all(describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).textContent()));
  expect(texts).toContain(message);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a cleared title and an end before the start come back beside their fields, as typed", async ({
    page,
    browser,
  }) => {
    const admin = await adminPage(browser);
    const title = `Formularfehler ohne JS ${Date.now()}`;
    const survey = await api<{ Id: number }>(admin, "POST", "/surveys", { Title: title });
    await signIn(page, "admin", `/survey/${survey.Id}/edit`);

    await page.getByLabel("Titel", { exact: true }).fill("");
    await page.getByLabel("Startdatum").fill("20.03.2027");
    await page.getByLabel("Enddatum").fill("05.03.2027");
    await page.getByRole("button", { name: "Speichern" }).click();

    await expect(page).toHaveURL(new RegExp(`/survey/${survey.Id}/edit$`));
    await expectFieldError(page, page.getByLabel("Titel", { exact: true }), "Der Titel darf nicht leer sein.");
    await expectFieldError(page, page.getByLabel("Enddatum"), "Das Enddatum darf nicht vor dem Startdatum liegen.");
    await expect(page.getByLabel("Startdatum")).not.toHaveAttribute("aria-invalid", "true");
    // The values stay as they were typed, so they can be corrected.
    await expect(page.getByLabel("Titel", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Enddatum")).toHaveValue("05.03.2027");
    const stored = await api<{ Title: string; StartDate: string; EndDate: string }>(
      admin,
      "GET",
      `/surveys/${survey.Id}`,
    );
    expect(stored).toMatchObject({ Title: title, StartDate: "", EndDate: "" });

    // Corrected, the same form saves.
    await page.getByLabel("Titel", { exact: true }).fill(`${title} korrigiert`);
    await page.getByLabel("Enddatum").fill("30.03.2027");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(page.getByRole("region", { name: `${title} korrigiert` })).toBeVisible();
    await expect(page.getByLabel("Enddatum")).not.toHaveAttribute("aria-invalid", "true");
    await expect
      .poll(async () => api<{ Title: string; EndDate: string }>(admin, "GET", `/surveys/${survey.Id}`))
      .toMatchObject({ Title: `${title} korrigiert`, StartDate: "20.03.2027", EndDate: "30.03.2027" });
    await admin.context().close();
  });
});

test.describe("with JavaScript", () => {
  test("a date that is none is named beside its field as it is typed, and not saved", async ({ page }) => {
    await signIn(page, "admin");
    const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Formularfehler ${Date.now()}` });
    await page.goto(`/survey/${survey.Id}/edit`);
    await expect(page.getByTestId("survey-title")).toBeVisible();

    await page.getByLabel("Startdatum").fill("31.02.2027");
    await expectFieldError(page, page.getByLabel("Startdatum"), "Bitte ein Datum im Format TT.MM.JJJJ eingeben.");
    await expect(page.getByRole("button", { name: "Speichern" })).toBeDisabled();
    await expectNoSeriousViolations(page, "editor header with a field error");
    await page.getByLabel("Startdatum").press("Enter");
    await expect(page.getByLabel("Startdatum")).toHaveValue("31.02.2027");
    expect((await api<{ StartDate: string }>(page, "GET", `/surveys/${survey.Id}`)).StartDate).toBe("");

    await page.getByLabel("Startdatum").fill("28.02.2027");
    await expect(page.getByLabel("Startdatum")).not.toHaveAttribute("aria-invalid", "true");
    await page.getByRole("button", { name: "Speichern" }).click();
    await expect(page.getByTestId("toast").filter({ hasText: "Umfrageinformationen gespeichert." })).toBeVisible();
    expect((await api<{ StartDate: string }>(page, "GET", `/surveys/${survey.Id}`)).StartDate).toBe("28.02.2027");
  });
});
