import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn } from "./support";

const SURVEY = "Herzinsuffizienz – Verlaufsbogen";

async function startCase(page: Page, patientId: string) {
  await page.getByTestId("survey-row").filter({ hasText: SURVEY }).locator("summary").click();
  await page.getByRole("link", { name: "Umfrage ausfüllen" }).click();
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
}

function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

test("a user fills a survey for a patient: every kind, a sub-question, a dependence rule, and submits", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "user");
  const patientId = `E2E_${Date.now()}`;
  await startCase(page, patientId);

  // Intro, then the preliminary page: continue waits for every answer.
  await expect(page.getByText("Seite 1 von 4")).toBeVisible();
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await expect(page.getByText("Seite 2 von 4")).toBeVisible();
  const next = page.getByRole("button", { name: "Weiter" });
  await expect(next).toBeDisabled();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79").check();
  await expect(next).toBeEnabled();
  await next.click();

  // Questionnaire: the dependence rule shows the pregnancy question for "weiblich".
  await expect(page.getByText("Seite 3 von 4")).toBeVisible();
  await expect(question(page, "Schwangerschaft ausgeschlossen?")).toBeVisible();
  await question(page, "Wie stark ist die Atemnot bei Belastung?").getByLabel("mittel", { exact: true }).check();
  await expect(page.getByTestId("category-link").first()).toHaveAttribute("data-status", "inProcess");
  await question(page, "Haben Sie Wassereinlagerungen bemerkt?").getByLabel("Ja").check();
  await question(page, "Wo genau?").getByLabel("Knöchel").check();
  await question(page, "Wo genau?").getByLabel("Bauch").check();
  await question(page, "Schwangerschaft ausgeschlossen?").getByLabel("Ja").check();
  const text = question(page, "Weitere Beschwerden").getByRole("textbox");
  await text.fill("Müdigkeit am Abend");
  await text.blur();
  await expect(page.getByTestId("category-link").first()).toHaveAttribute("data-status", "complete");

  // Choosing the chosen single answer again removes it.
  await question(page, "Wie stark ist die Atemnot bei Belastung?").getByLabel("mittel", { exact: true }).click();
  await expect(
    question(page, "Wie stark ist die Atemnot bei Belastung?").getByLabel("mittel", { exact: true }),
  ).not.toBeChecked();
  await question(page, "Wie stark ist die Atemnot bei Belastung?").getByLabel("stark", { exact: true }).check();

  await page.getByRole("button", { name: "Nächste Kategorie" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Messwerte" })).toBeVisible();
  const weight = question(page, "Körpergewicht").getByRole("textbox");
  await weight.fill("80.55");
  await weight.blur();
  await question(page, "Systolischer Blutdruck").getByRole("textbox").fill("135");
  const when = question(page, "Zeitpunkt der Messung").getByRole("textbox");
  await when.fill("01.02.2026 10:30");
  await when.blur();
  await page.getByRole("button", { name: "Nächste Kategorie" }).click();
  await question(page, "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?")
    .getByLabel("2 kg in 3 Tagen")
    .check();

  // Everything is on the server.
  const surveyId = Number(/\/survey\/(\d+)\/fill/.exec(page.url())![1]);
  await expect
    .poll(
      async () =>
        (
          await page.evaluate(
            async ([s, p]) => (await fetch(`/api/question-responses/?surveyId=${s}&patientId=${p}`)).json(),
            [surveyId, patientId] as const,
          )
        ).length,
    )
    .toBe(9);

  await expect(page.getByTestId("submit-survey")).toHaveClass(/btn--primary/);
  await page.getByTestId("submit-survey").click();
  await expect(page.getByText("Ihre Angaben werden gespeichert …")).toBeVisible();
  await expect(page.getByText("Ihre Angaben wurden gespeichert.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Neu beginnen" })).toBeVisible();
  // It says what happened: the case closed now, not in 24 hours.
  await expect(page.getByTestId("closed-note")).toHaveText(
    new RegExp(
      `^Der Fall ${patientId} wurde am \\d{2}\\.\\d{2}\\.\\d{4} \\d{2}:\\d{2} abgeschlossen; seine Antworten können nicht mehr geändert werden\\.$`,
    ),
  );
  await expect(page.getByText(/24 Stunden/)).toHaveCount(0);

  // A closed case cannot be reopened.
  await page.goto(`/survey/${surveyId}/fill/${patientId}`);
  await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}$`));
  await expect(page.getByTestId("toast").filter({ hasText: "bereits abgeschlossen" })).toBeVisible();
});

test("a script in the intro does not run for the person who fills it", async ({ page }) => {
  await signIn(page, "admin");
  const id = await page.evaluate(async () => {
    const created = await (
      await fetch("/api/surveys", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ Title: "Skript-Test" }),
      })
    ).json();
    const put = (body: unknown) =>
      fetch(`/api/surveys/${created.Id}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    await put({
      IntroText:
        '<p>Willkommen</p><img src="x" onerror="window.__pwned=1"><script>window.__pwned=1</script><a href="javascript:window.__pwned=1">x</a>',
    });
    const cat = await (
      await fetch("/api/categories", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ SurveyId: created.Id, Title: "A" }),
      })
    ).json();
    await fetch("/api/questions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ SurveyId: created.Id, CategoryId: cat.Id, Title: "Frage", Type: "FreeText" }),
    });
    await fetch(`/api/surveys/${created.Id}/approve`, { method: "POST" });
    return created.Id as number;
  });
  await page.goto(`/survey/${id}`);
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill("SCRIPT_1");
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page.getByText("Willkommen")).toBeVisible();
  await expect(page.locator(".rich a")).not.toHaveAttribute("href", /javascript/);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test("'Weiter' pressed while a preliminary answer is still being saved waits for it and opens the questionnaire", async ({
  page,
}) => {
  await signIn(page, "user");
  await page.goto("/surveys");
  const patientId = `E2E_SLOW_${Date.now()}`;
  await startCase(page, patientId);
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  // The last answer's save is held back: "Weiter" is pressed before the server has stored it.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = false;
  await page.route("**/api/attribute-responses", async (route) => {
    sent = true;
    await held;
    await route.continue();
  });
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79").check();
  await expect.poll(() => sent).toBe(true);
  await page.getByRole("button", { name: "Weiter" }).click();
  await page.waitForTimeout(300);
  release();
  await expect(page.getByText("Seite 3 von 4")).toBeVisible();
  await expect(question(page, "Schwangerschaft ausgeschlossen?")).toBeVisible();
});

test("a preliminary answer the server refuses keeps the page: 'Weiter' does not open the questionnaire", async ({
  page,
}) => {
  await signIn(page, "user");
  await page.goto("/surveys");
  const patientId = `E2E_REFUSED_${Date.now()}`;
  await startCase(page, patientId);
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Geschlecht" }).getByLabel("weiblich").check();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/attribute-responses", async (route) => {
    await held;
    await route.fulfill({
      status: 400,
      contentType: "application/json",
      body: JSON.stringify({ Type: "VALIDATION_ERROR", Message: "refused" }),
    });
  });
  await page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79").check();
  await page.getByRole("button", { name: "Weiter" }).click();
  release();
  await expect(page.getByRole("group", { name: "Altersgruppe" }).getByLabel("65 bis 79")).not.toBeChecked();
  await expect(page.getByText("Seite 2 von 4")).toBeVisible();
  await expect(page.getByRole("button", { name: "Weiter" })).toBeDisabled();
  // Reached by keyboard all the same, it says why it does not go on yet.
  const weiter = page.getByRole("button", { name: "Weiter" });
  await expect(weiter).toHaveAccessibleDescription("Bitte beantworten Sie alle Fragen, um fortzufahren.");
  await weiter.focus();
  await expect(weiter).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Seite 2 von 4")).toBeVisible();
});
