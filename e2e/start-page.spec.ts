import type { Page } from "@playwright/test";
import { expect, pageStarted, test } from "./test";
import { turkish, translatedSurvey } from "./language-support";
import { chooseLanguage, holdScripts, signIn, surveyRow } from "./support";

const HEART = "Herzinsuffizienz – Verlaufsbogen";
const PAIN = "Post-operative Pain Assessment";
const ENDED = "Sturzrisiko-Screening";
const DATE_TIME = /^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/;

const row = surveyRow;

/** Signs in as the participant and picks the language (it is saved per person, so other specs may change it). */
async function signInAsUser(page: Page, language: "Deutsch" | "English" = "Deutsch") {
  await signIn(page, "user");
  await chooseLanguage(page, language);
}

/** The survey's id, read from its row in the list. */
async function surveyIdOf(page: Page, title: string): Promise<number> {
  await page.goto("/surveys");
  return Number(await row(page, title).getAttribute("data-survey-id"));
}

/** A fresh patient id per run, so runs never see each other's cases. */
function newPatientId(prefix: string) {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

const field = (page: Page) => page.getByLabel("Patienten-ID");
const mainButton = (page: Page) => page.getByTestId("start-button");
const mark = (page: Page) => page.getByTestId("patient-id-mark");
const status = (page: Page) => page.getByTestId("patient-id-status");

/** Submits (closes) a case through the API, as the end of the fill flow does. */
async function closeCase(page: Page, surveyId: number, patientId: string) {
  const origin = new URL(page.url()).origin;
  const query = new URLSearchParams({ patientId, surveyId: String(surveyId) });
  const closed = await page.request.post(`/api/patients/close?${query}`, { headers: { origin } });
  expect(closed.status()).toBe(204);
}

const CLOSED_MESSAGE = "Dieser Fall wurde bereits abgeschlossen und kann daher nicht geöffnet werden.";

test.describe("survey start page", () => {
  test("validates the id, starts a case, lists it, suggests it and opens it again", async ({ page }) => {
    await signInAsUser(page);
    await row(page, HEART).locator("summary").click();
    await row(page, HEART).getByRole("link", { name: "Umfrage ausfüllen" }).click();
    await expect(page).toHaveURL(/\/survey\/\d+$/);
    const surveyId = Number(new URL(page.url()).pathname.split("/")[2]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(HEART);
    await expect(page.getByText("Strukturierte Verlaufskontrolle")).toBeVisible();
    await expect(page.getByRole("img", { name: "Bild der Einrichtung" })).toBeVisible();
    await expect(page.locator("#patient-id-helper")).toHaveText("Pflichtfeld");

    // The id is mandatory here: nothing typed, nothing to start.
    await expect(mainButton(page)).toHaveText("Neue Umfrage starten");
    await expect(mainButton(page)).toBeDisabled();

    // An invalid id: the message (announced) and a cross.
    await field(page).fill("abc-1");
    await expect(status(page)).toHaveText("Die Kennung darf nur Buchstaben, Ziffern und Unterstriche enthalten.");
    await expect(status(page)).toHaveAttribute("aria-live", "polite");
    await expect(mark(page)).toHaveAttribute("data-state", "bad");
    await expect(field(page)).toHaveAttribute("aria-invalid", "true");
    await expect(mainButton(page)).toBeDisabled();

    // A new valid id: a tick, and the button starts a new case.
    const patientId = newPatientId("Herz");
    await field(page).fill(patientId);
    await expect(mark(page)).toHaveAttribute("data-state", "ok");
    await expect(status(page)).toHaveText("Die Kennung ist gültig.");
    await expect(mainButton(page)).toHaveText("Neue Umfrage starten");
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/${patientId}$`));

    // Back on the start page the case is among the latest open responses, with its time.
    await page.goto(`/survey/${surveyId}`);
    const entry = page.getByTestId("latest-response").filter({ hasText: patientId });
    await expect(entry).toHaveCount(1);
    await expect(entry.locator("time")).toHaveText(DATE_TIME);
    // In the clinic's zone, as the audit trail and the free-text list show times (not the server's zone).
    const iso = await entry.locator("time").getAttribute("datetime");
    const berlin = new Intl.DateTimeFormat("de-DE", {
      timeZone: "Europe/Berlin",
      ...{ year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" },
      hourCycle: "h23",
    } as const).format(new Date(iso!));
    await expect(entry.locator("time")).toHaveText(berlin.replace(",", ""));
    await expect(entry.getByRole("link")).toHaveAttribute("href", `/survey/${surveyId}/fill/${patientId}`);

    // Its first letters suggest it; the whole id turns the button into "open".
    await field(page).pressSequentially(patientId.slice(0, 6), { delay: 20 });
    await expect(page.locator(`#patient-id-suggestions option[value="${patientId}"]`)).toHaveCount(1);
    await field(page).fill(patientId);
    await expect(mainButton(page)).toHaveText("Umfrage öffnen");
    await expect(status(page)).toHaveText("Zu dieser Kennung gibt es einen offenen Fall.");
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/${patientId}$`));

    // Clicking the entry in the list opens it too.
    await page.goto(`/survey/${surveyId}`);
    await page.getByTestId("latest-response").filter({ hasText: patientId }).getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/${patientId}$`));

    // Once closed, the case leaves the list; its id shows the closed message and the button clears the field.
    await closeCase(page, surveyId, patientId);
    await page.goto(`/survey/${surveyId}`);
    await expect(page.getByTestId("latest-response").filter({ hasText: patientId })).toHaveCount(0);
    await field(page).fill(patientId);
    await expect(status(page)).toHaveText(CLOSED_MESSAGE);
    await expect(mark(page)).toHaveAttribute("data-state", "bad");
    await expect(mainButton(page)).toHaveText("Leeren");
    await mainButton(page).click();
    await expect(field(page)).toHaveValue("");
    await expect(field(page)).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}$`));
  });

  test("with auto-generation an empty field starts a case under a 12-digit id", async ({ page }) => {
    await signInAsUser(page);
    const surveyId = await surveyIdOf(page, PAIN);
    await page.goto(`/survey/${surveyId}`);
    await expect(page.locator("#patient-id-helper")).toContainText("Optional");
    await expect(mainButton(page)).toBeEnabled();
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/\\d{12}$`));
  });

  test("a survey that is not active says so and offers the way back", async ({ page }) => {
    await signInAsUser(page);
    const surveyId = await surveyIdOf(page, ENDED);
    await page.goto(`/survey/${surveyId}`);
    await expect(page.getByTestId("start-blocked")).toHaveText(
      "Diese Umfrage ist nicht aktiv und kann daher nicht ausgefüllt werden.",
    );
    await expect(page.getByLabel("Patienten-ID")).toHaveCount(0);
    await page.getByRole("link", { name: "Zurück zur Übersicht" }).first().click();
    await expect(page).toHaveURL(/\/surveys$/);
  });

  test("an unknown survey goes back to the list with a notice", async ({ page }) => {
    await signInAsUser(page);
    await page.goto("/survey/987654");
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(
      page.getByTestId("toast").filter({ hasText: "Die Umfrage konnte nicht geladen werden." }),
    ).toBeVisible();
  });

  test("in English", async ({ page }) => {
    await signInAsUser(page, "English");
    const surveyId = await surveyIdOf(page, HEART);
    await page.goto(`/survey/${surveyId}`);
    await expect(page.locator("#patient-id-helper")).toHaveText("Mandatory");
    await page.getByLabel("Patient ID").fill("a b");
    await expect(status(page)).toHaveText("The id may contain only letters, digits and underscores.");
    await page.getByLabel("Patient ID").fill("Case_1");
    await expect(page.getByTestId("start-button")).toHaveText("Start new survey");
    await expect(page.getByRole("link", { name: "Back to survey list" })).toBeVisible();
  });
});

test.describe("survey start page on a slow device", () => {
  // The page's scripts are held back below; a worker would answer them from its cache instead.
  test.use({ serviceWorkers: "block" });

  test("an id typed and a language picked before the page's script ran start that case, in that language", async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, "admin");
    await chooseLanguage(page, "Deutsch");
    const id = await translatedSurvey(page, `früh ${Date.now()}`);
    const patientId = newPatientId("Frueh");

    const release = await holdScripts(page);
    await page.goto(`/survey/${id}`, { waitUntil: "commit" });
    await field(page).fill(patientId);
    await page.getByTestId("case-language").selectOption("tr");
    release();
    await pageStarted(page, 20_000);
    // The page goes on with what the person gave it: the id checked, the title in Turkish, the button ready.
    await expect(mark(page)).toHaveAttribute("data-state", "ok");
    await expect(page.getByTestId("start-title")).toHaveText(new RegExp(`^${turkish.title} `));
    await expect(mainButton(page)).toBeEnabled();
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
    await expect(page.getByTestId("fill-region")).toHaveAttribute("lang", "tr");
  });

  test("the list's 'ready offline' box ticked before the page's script ran filters once it runs", async ({ page }) => {
    await signInAsUser(page);
    const release = await holdScripts(page);
    await page.goto("/surveys", { waitUntil: "commit" });
    await page.getByTestId("ready-filter").check();
    release();
    await pageStarted(page, 20_000);
    // Nothing is kept on this device: the filter leaves no survey.
    await expect(page.getByTestId("ready-filter")).toBeChecked();
    await expect(page.getByTestId("survey-row")).toHaveCount(0);
  });
});

test.describe("survey start page without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("shows the id problem, then starts a new case", async ({ page }) => {
    await signInAsUser(page);
    const surveyId = await surveyIdOf(page, HEART);
    await page.goto(`/survey/${surveyId}`);

    await field(page).fill("no-dashes");
    await mainButton(page).click();
    await expect(status(page)).toHaveText("Die Kennung darf nur Buchstaben, Ziffern und Unterstriche enthalten.");
    await expect(field(page)).toHaveValue("no-dashes");
    await expect(mark(page)).toHaveAttribute("data-state", "bad");

    await field(page).fill("");
    await mainButton(page).click();
    await expect(status(page)).toHaveText("Bitte geben Sie eine Patienten-ID ein.");

    const patientId = newPatientId("NoJs");
    await field(page).fill(patientId);
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/${patientId}$`));
  });

  test("a closed case shows the message, keeps the id, and the button clears it", async ({ page }) => {
    await signInAsUser(page);
    const surveyId = await surveyIdOf(page, HEART);
    await page.goto(`/survey/${surveyId}`);
    const patientId = newPatientId("Closed");
    await field(page).fill(patientId);
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/fill/${patientId}$`));
    await page.goto(`/survey/${surveyId}`);
    await closeCase(page, surveyId, patientId);

    await field(page).fill(patientId);
    await mainButton(page).click();
    await expect(status(page)).toHaveText(CLOSED_MESSAGE);
    await expect(field(page)).toHaveValue(patientId);
    await expect(mainButton(page)).toHaveText("Leeren");
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}$`));
    await expect(field(page)).toHaveValue("");
    await expect(mainButton(page)).toHaveText("Neue Umfrage starten");
  });

  test("with auto-generation an empty field starts a case", async ({ page }) => {
    await signInAsUser(page);
    const surveyId = await surveyIdOf(page, PAIN);
    await page.goto(`/survey/${surveyId}`);
    await mainButton(page).click();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/\\d{12}$`));
  });
});
