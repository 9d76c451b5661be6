import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { signIn } from "./support";
import { backToGerman, LANGUAGES, pageWithoutScripts, signInIn, WIDTHS } from "./screens-support";

/**
 * The audit screens' patient-id fields drawn as the app's fields, and the signing page saying on the page
 * that a meaning is missing.
 */

test("the patient-id fields of a case's history and of the data page are drawn as the app's fields", async ({
  page,
}) => {
  await signIn(page, "admin");
  const id = await publishedSurvey(page, `Suchfeld ${Date.now()}`, [{ Title: "Notiz", Type: "FreeText" }]);
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    for (const [path, button] of [
      ["history", "Verlauf anzeigen"],
      ["data", "Daten anzeigen"],
    ] as const) {
      await page.goto(`/survey/${id}/${path}`);
      const field = page.getByRole("search").getByLabel("Patienten-ID");
      await expect(field).toBeVisible();
      // The app's field (class "input", as on the editor's forms), drawn here beside the page's own.
      const look = await field.evaluate((input) => {
        const probe = document.createElement("input");
        probe.className = "input";
        input.parentElement!.append(probe);
        const keys = ["borderTopStyle", "borderTopWidth", "borderTopColor", "borderRadius", "padding", "fontSize"];
        const read = (el: Element) => {
          const style = getComputedStyle(el) as unknown as Record<string, string>;
          return Object.fromEntries(keys.map((k) => [k, style[k]]));
        };
        const [own, app] = [read(input), read(probe)];
        probe.remove();
        return { own, app };
      });
      expect(look.own, `${path} at ${viewport.width} px`).toEqual(look.app);
      // As tall as the button beside it (on a desktop on its line; on a phone the button may go under it).
      const [fieldBox, buttonBox] = await Promise.all([
        field.boundingBox(),
        page.getByRole("search").getByRole("button", { name: button }).boundingBox(),
      ]);
      expect(Math.abs(fieldBox!.height - buttonBox!.height)).toBeLessThanOrEqual(2);
      if (viewport.width > 640) {
        expect(Math.abs(fieldBox!.y + fieldBox!.height - (buttonBox!.y + buttonBox!.height))).toBeLessThanOrEqual(1);
      }
    }
  }
});

const SIGN = {
  "de-DE": {
    submit: "Unterschreiben",
    missing: "Bitte wählen Sie die Bedeutung der Unterschrift.",
    legend: "Bedeutung",
  },
  "en-US": { submit: "Sign", missing: "Please choose the meaning of the signature.", legend: "Meaning" },
};

/** A published survey whose cases are signed, with an open case of `patientId`. */
async function signedCase(page: Page, patientId: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Unterschrift ${Date.now()}` });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Notiz",
    Type: "FreeText",
  });
  await api(page, "PUT", `/surveys/${survey.Id}`, { RequiresSignature: true });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${survey.Id}`);
  return survey.Id;
}

for (const language of LANGUAGES) {
  test(`"${SIGN[language].submit}" without a meaning says so on the page, with and without scripts [${language}]`, async ({
    page,
    browser,
  }) => {
    const words = SIGN[language];
    await signInIn(page, language);
    try {
      const id = await signedCase(page, "SIGN_EMPTY_1");
      const here = `/survey/${id}/sign/SIGN_EMPTY_1`;
      await page.goto(here);
      await page.getByRole("button", { name: words.submit, exact: true }).click();
      // Said on the page (not in the browser's bubble), the group marked and focus on its first meaning.
      const message = page.getByRole("alert").filter({ hasText: words.missing });
      await expect(message).toBeVisible();
      const group = page.getByRole("group", { name: new RegExp(words.legend) });
      await expect(group).toHaveAttribute("aria-invalid", "true");
      await expect(group).toHaveAccessibleDescription(words.missing);
      await expect(group.getByRole("radio").first()).toBeFocused();
      await expect(page).toHaveURL(new RegExp(`${here}$`));
      // A meaning chosen: the message goes.
      await group.getByRole("radio").first().check();
      await expect(message).toHaveCount(0);

      // Without scripts the server's answer says it.
      const plain = await pageWithoutScripts(browser, language);
      await plain.goto(here);
      await plain.getByRole("button", { name: words.submit, exact: true }).click();
      await expect(plain.getByText(words.missing)).toBeVisible();
      await expect(plain.getByRole("group", { name: new RegExp(words.legend) })).toHaveAttribute(
        "aria-invalid",
        "true",
      );
      await plain.context().close();
    } finally {
      await backToGerman(page, language);
    }
  });
}
