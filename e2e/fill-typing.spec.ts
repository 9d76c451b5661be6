import type { Page } from "@playwright/test";
import { keptFill } from "./device-storage";
import { expect, pageStarted, test } from "./test";
import { api } from "./api";
import { serverAnswers } from "./fill-support";
import { goOffline, offlineRig, question, signInAt } from "./offline-support";
import { holdScripts, signIn } from "./support";

// A typed answer is kept as it is typed (docs/decisions/038-typed-work-kept.md): a reload or a closed tab
// in the middle of typing loses nothing, online (on the server) and offline (on this device).

const WOUND = "Wundverlauf – Dokumentation";
const REMARKS = "Bemerkungen zur Wunde";
const AREA = "Wundfläche";
const EXUDATE = "Exsudat";

/** The demo wound survey's id, by its title (the demo data makes it survey 7). */
async function woundSurveyId(page: Page): Promise<number> {
  const list = await api<{ Data: { Id: number; Title: string }[] }>(page, "GET", "/surveys");
  const found = list.Data.find((s) => s.Title === WOUND);
  if (!found) throw new Error("no demo wound survey");
  return found.Id;
}

/** Downloads the survey of exactly this title (the demo has a copy whose title begins the same). */
async function downloadExact(page: Page, title: string) {
  const row = page
    .getByTestId("survey-row")
    .filter({ has: page.locator(".row__title", { hasText: new RegExp(`^${title}$`) }) });
  await row.locator("summary").click();
  await row.getByTestId("row-download").click();
  await expect(row.getByTestId("row-ready")).toBeVisible({ timeout: 30_000 });
}

/** From the start page: a new case, its preliminary answers, then the category "Befund". */
async function toFindings(page: Page, patientId: string) {
  await page.locator("#patient-id").fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Art der Wunde" }).getByLabel("chronisch").check();
  await page.getByRole("group", { name: "Mobilität" }).getByLabel("selbstständig mobil").check();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  await page.getByRole("button", { name: "Weiter" }).click();
  await page.getByTestId("category-link").filter({ hasText: "Befund" }).click();
  await expect(question(page, REMARKS)).toBeVisible();
}

/** The device's kept fill of a case (the holder's sealed store, opened with the holder's keys). */
async function keptAnswers(page: Page, surveyId: number, patientId: string) {
  return (await keptFill(page, surveyId, patientId))?.answers ?? null;
}

test("online: typed text and a number are on the server without leaving the field, across a reload", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "user");
  const surveyId = await woundSurveyId(page);
  await page.goto(`/survey/${surveyId}`);
  const patientId = `TIPP_${Date.now()}`;
  await toFindings(page, patientId);

  const remarks = question(page, REMARKS).getByRole("textbox");
  await remarks.click();
  await remarks.pressSequentially("Schmerz beim Gehen", { delay: 30 });
  // The field says that it is saved, in a polite live region that describes it; the person never left it.
  const saved = question(page, REMARKS).getByTestId("save-state");
  await expect(saved).toHaveText("Gespeichert");
  await expect(saved).toHaveAttribute("role", "status");
  await expect(remarks).toHaveAccessibleDescription("Gespeichert");
  await page.waitForTimeout(3_000);
  await expect(remarks).toBeFocused();
  await page.reload();
  await expect(question(page, REMARKS).getByRole("textbox")).toHaveValue("Schmerz beim Gehen");
  expect((await serverAnswers(page, surveyId, patientId)).map((a) => a.TextResponse)).toContain("Schmerz beim Gehen");

  // A reload in the middle of typing: what was typed up to then arrives all the same.
  const area = question(page, AREA).getByRole("textbox");
  await area.click();
  await area.pressSequentially("12.5", { delay: 20 });
  const again = question(page, REMARKS).getByRole("textbox");
  await again.click();
  await again.press("End");
  await again.pressSequentially(", nachts", { delay: 20 });
  await page.reload();
  await expect(question(page, REMARKS).getByRole("textbox")).toHaveValue("Schmerz beim Gehen, nachts");
  await expect(question(page, AREA).getByRole("textbox")).toHaveValue("12,5");
  await expect
    .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.TextResponse ?? null).sort())
    .toContain("Schmerz beim Gehen, nachts");
  await expect
    .poll(async () =>
      (await serverAnswers(page, surveyId, patientId))
        .map((a) => (a as { NumericalResponse?: number }).NumericalResponse)
        .filter((n) => n !== undefined && n !== null),
    )
    .toEqual([12.5]);

  // A date and time is saved once it is whole, without leaving the field, also across a reload.
  await page.getByTestId("category-link").filter({ hasText: "Versorgung" }).click();
  const when = question(page, "Zeitpunkt des letzten Verbandwechsels").getByRole("textbox");
  await when.click();
  await when.pressSequentially("24.12.2026 18:30", { delay: 20 });
  await page.reload();
  await expect(question(page, "Zeitpunkt des letzten Verbandwechsels").getByRole("textbox")).toHaveValue(
    "24.12.2026 18:30",
  );
  await expect
    .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.DateTimeResponse ?? null))
    .toContain("24.12.2026 18:30");

  // A tab closed in the middle of typing: the server has what was typed. The tab closes once its page has
  // seen the typing (the field says it is being saved): words typed into a page whose script has not run
  // yet are given when it runs (the test "on a slow device" below), and a tab closed before that has no
  // script to send them.
  const other = await page.context().newPage();
  await other.goto(page.url());
  await pageStarted(other, 20_000);
  await other.getByTestId("category-link").filter({ hasText: "Befund" }).click();
  const field = question(other, REMARKS).getByRole("textbox");
  await field.click();
  await field.press("End");
  await field.pressSequentially(" und im Liegen", { delay: 20 });
  await expect(question(other, REMARKS).getByTestId("save-state")).toHaveAttribute("data-state", /^(saving|saved)$/);
  await other.close({ runBeforeUnload: true });
  await expect
    .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.TextResponse ?? null))
    .toContain("Schmerz beim Gehen, nachts und im Liegen");
});

test("an answer's save and the page's data reach the server without waking the service worker", async ({ page }) => {
  await signIn(page, "user");
  const surveyId = await woundSurveyId(page);
  // The worker is registered once a page has loaded and the browser is idle; the pages loaded after it is
  // active are its.
  await page.goto("/surveys");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.goto(`/survey/${surveyId}`);
  const patientId = `WACH_${Date.now()}`;
  await toFindings(page, patientId);
  await pageStarted(page, 20_000);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.waitForLoadState("networkidle");

  // The worker is stopped, as the browser stops an idle one; every start of it after that is seen.
  const cdp = await page.context().newCDPSession(page);
  const statuses: string[] = [];
  cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const version of versions) statuses.push(version.runningStatus);
  });
  await cdp.send("ServiceWorker.enable");
  // Stopped again should something have started it meanwhile.
  await expect
    .poll(async () => {
      await cdp.send("ServiceWorker.stopAllWorkers");
      await page.waitForTimeout(200);
      return statuses.at(-1);
    })
    .toBe("stopped");
  statuses.length = 0;

  await question(page, REMARKS).getByRole("textbox").fill("ohne den Dienst zu wecken");
  await page.keyboard.press("Tab");
  await expect
    .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.TextResponse ?? null))
    .toContain("ohne den Dienst zu wecken");
  // The page's data as a category's load asks for it (a click on a link would warm the worker up: the
  // browser's own doing, to answer the page it may open).
  const data = await page.evaluate(async () => (await fetch(`${location.pathname}.data?page=questionnaire`)).status);
  expect(data).toBe(200);
  expect(statuses.filter((status) => status !== "stopped")).toEqual([]);
});

test("a category picked is loaded once: no request of the page goes twice", async ({ page }) => {
  await signIn(page, "user");
  await page.goto(`/survey/${await woundSurveyId(page)}`);
  await toFindings(page, `KAT_${Date.now()}`);
  await pageStarted(page, 20_000);
  const loads: string[] = [];
  page.on("request", (r) => {
    if (/\.data\?/.test(r.url())) loads.push(r.url());
  });
  await page.getByTestId("category-link").filter({ hasText: "Versorgung" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Versorgung" })).toBeVisible();
  expect(loads.length).toBeGreaterThan(0);
  expect(loads.filter((url, i) => loads.indexOf(url) !== i)).toEqual([]);
});

test("offline: typed text is kept on the device without leaving the field, across a reload", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "user");
    const surveyId = await woundSurveyId(page);
    await page.goto(rig.url("/surveys"));
    await downloadExact(page, WOUND);
    await page.goto(rig.url(`/survey/${surveyId}`));
    await goOffline(context, rig.gate);
    const patientId = `TIPP_OFF_${Date.now()}`;
    await toFindings(page, patientId);
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();

    const remarks = question(page, REMARKS).getByRole("textbox");
    await remarks.click();
    await remarks.pressSequentially("Schmerz beim Gehen", { delay: 30 });
    await expect(question(page, REMARKS).getByTestId("save-state")).toHaveText("Auf diesem Gerät gespeichert");
    await page.waitForTimeout(3_000);
    const typed = await keptAnswers(page, surveyId, patientId);
    expect(Object.values(typed ?? {}).map((a) => a.TextResponse)).toContain("Schmerz beim Gehen");
    await page.reload();
    await expect(question(page, REMARKS).getByRole("textbox")).toHaveValue("Schmerz beim Gehen");

    // In the middle of typing, offline.
    const again = question(page, REMARKS).getByRole("textbox");
    await again.click();
    await again.press("End");
    await again.pressSequentially(", nachts", { delay: 20 });
    await page.reload();
    await expect(question(page, REMARKS).getByRole("textbox")).toHaveValue("Schmerz beim Gehen, nachts");
    const kept = await keptAnswers(page, surveyId, patientId);
    expect(Object.values(kept ?? {}).map((a) => a.TextResponse)).toContain("Schmerz beim Gehen, nachts");
  } finally {
    await rig.dispose(context);
  }
});

test.describe("on a slow device", () => {
  // The page's scripts are held back below; a worker would answer them from its cache instead.
  test.use({ serviceWorkers: "block" });

  test("words, a number, an answer and a date given before the page's script ran are saved once it runs", async ({
    page,
  }) => {
    await signIn(page, "user");
    const surveyId = await woundSurveyId(page);
    await page.goto(`/survey/${surveyId}`);
    const patientId = `FRUEH_${Date.now()}`;
    await toFindings(page, patientId);
    const at = page.url();

    let release = await holdScripts(page);
    await page.goto(at, { waitUntil: "commit" });
    const remarks = question(page, REMARKS).getByRole("textbox");
    await remarks.pressSequentially("vor dem Skript", { delay: 20 });
    await question(page, AREA).getByRole("textbox").pressSequentially("3.5", { delay: 20 });
    release();
    // Once the page runs, the field says it is saved, and the server has what was typed.
    await expect(question(page, REMARKS).getByTestId("save-state")).toHaveText("Gespeichert");
    await expect(remarks).toHaveValue("vor dem Skript");
    await expect
      .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.TextResponse ?? null))
      .toContain("vor dem Skript");
    await expect
      .poll(async () =>
        (await serverAnswers(page, surveyId, patientId)).map(
          (a) => (a as { NumericalResponse?: number }).NumericalResponse,
        ),
      )
      .toContain(3.5);

    // An answer tapped before the page's script ran: the page takes it as chosen then, and keeps it.
    release = await holdScripts(page);
    await page.goto(at, { waitUntil: "commit" });
    const tapped = question(page, EXUDATE).getByLabel("mäßig");
    await tapped.click();
    const optionId = Number(await tapped.getAttribute("value"));
    release();
    await expect(question(page, EXUDATE).getByTestId("save-state")).toHaveText("Gespeichert");
    await expect(tapped).toBeChecked();
    await expect
      .poll(async () =>
        (await serverAnswers(page, surveyId, patientId)).map(
          (a) => (a as { AnswerOptionId?: number | null; AnswerOptionIds?: number[] }).AnswerOptionId ?? null,
        ),
      )
      .toContain(optionId);
    // Drawn again (another category and back), the answer is still chosen.
    await page.getByTestId("category-link").filter({ hasText: "Versorgung" }).click();
    await expect(page).not.toHaveURL(at);
    await page.getByTestId("category-link").filter({ hasText: "Befund" }).click();
    await expect(question(page, EXUDATE).getByLabel("mäßig")).toBeChecked();

    // A date and time, on the category that has one.
    const befund = page.url();
    await page.getByTestId("category-link").filter({ hasText: "Versorgung" }).click();
    await expect(page).not.toHaveURL(befund);
    release = await holdScripts(page);
    await page.goto(page.url(), { waitUntil: "commit" });
    const when = question(page, "Zeitpunkt des letzten Verbandwechsels").getByRole("textbox");
    await when.pressSequentially("01.02.2026 07:45", { delay: 20 });
    release();
    await expect(question(page, "Zeitpunkt des letzten Verbandwechsels").getByTestId("save-state")).toHaveText(
      "Gespeichert",
    );
    await expect
      .poll(async () => (await serverAnswers(page, surveyId, patientId)).map((a) => a.DateTimeResponse ?? null))
      .toContain("01.02.2026 07:45");
  });
});
