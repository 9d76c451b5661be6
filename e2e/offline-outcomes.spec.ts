import fs from "node:fs";
import type { Locator } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { download, fillOffline, goOffline, goOnline, offlineRig, oneQuestion, signInAt } from "./offline-support";
import { chooseLanguage, openDatabase, signIn } from "./support";

/** Each cell of a table row starts and ends where the row does: the row's lines run in step. */
async function expectCellsInStep(row: Locator) {
  const rowBox = (await row.boundingBox())!;
  for (const cell of await row.locator(":scope > td").all()) {
    const box = (await cell.boundingBox())!;
    expect(Math.abs(box.y - rowBox.y), "cell top").toBeLessThanOrEqual(1);
    expect(Math.abs(box.y + box.height - (rowBox.y + rowBox.height)), "cell bottom").toBeLessThanOrEqual(1);
    expect(await cell.evaluate((td) => getComputedStyle(td).display)).toBe("table-cell");
  }
}

test("each sync outcome shows in the sync modal with its way out, and nothing goes without a confirmation", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await browser.newPage();
  await signIn(admin, "admin");
  const stamp = Date.now();
  const [a, b, c] = [`Konflikte ${stamp}`, `Zurückgezogen ${stamp}`, `Geändert ${stamp}`];
  const idA = await publishedSurvey(admin, a, oneQuestion);
  const idB = await publishedSurvey(admin, b, oneQuestion);
  const idC = await publishedSurvey(admin, c, oneQuestion);
  await api(admin, "POST", `/patients/add?patientId=DONE_1&surveyId=${idA}`);
  await api(admin, "POST", `/patients/close?patientId=DONE_1&surveyId=${idA}`);

  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    for (const title of [a, b, c]) await download(page, title);
    // Started elsewhere after the download, so this device does not know it (an open case it downloaded
    // would continue without a clash, decision 038).
    await api(admin, "POST", `/patients/add?patientId=CL_1&surveyId=${idA}`);

    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${idA}`), "CL_1");
    await fillOffline(page, rig.url(`/survey/${idA}`), "DONE_1");
    await fillOffline(page, rig.url(`/survey/${idB}`), "INV_1");
    await fillOffline(page, rig.url(`/survey/${idC}`), "HASH_1");
    await page.goto(rig.url("/surveys"));

    // Meanwhile on the server: B is unpublished, C is changed and published again.
    await api(admin, "PUT", `/surveys/${idB}/change-status?newStatusId=1`);
    await api(admin, "PUT", `/surveys/${idC}/change-status?newStatusId=1`);
    await api(admin, "POST", "/categories", { SurveyId: idC, Title: "Neu" });
    await api(admin, "POST", `/surveys/${idC}/approve`);

    await goOnline(context, rig.gate);
    const modal = page.getByRole("dialog", { name: "Nicht synchronisierte Offline-Erfassungen" });
    await expect(modal).toBeVisible({ timeout: 20_000 });
    const row = (patientId: string) => modal.locator(`[data-testid=sync-row][data-patient-id="${patientId}"]`);
    await expect(row("CL_1")).toHaveAttribute("data-error", "SYNC_SURVEY_PATIENTID_CLASH");
    await expect(row("DONE_1")).toHaveAttribute("data-error", "SYNC_SURVEY_ALREADY_CLOSED");
    await expect(row("INV_1")).toHaveAttribute("data-error", "SYNC_SURVEY_INVALID_STATUS");
    await expect(row("HASH_1")).toHaveAttribute("data-error", "SYNC_SURVEY_OUTDATED_HASH");
    await expect(modal.getByTestId("sync-all")).toBeVisible();
    await expect(row("INV_1").getByRole("button", { name: "Überschreiben" })).toHaveCount(0);
    // A survey changed or no longer active refuses the fill under any id and on every try: neither another id
    // nor a sync is offered.
    for (const id of ["INV_1", "HASH_1"]) {
      await expect(row(id).getByRole("button", { name: "Patienten-ID ändern" })).toHaveCount(0);
      await expect(row(id).getByRole("button", { name: "Synchronisieren" })).toHaveCount(0);
      await expect(row(id).getByRole("button", { name: "Löschen" })).toBeVisible();
    }
    await expect(row("DONE_1").getByRole("button", { name: "Patienten-ID ändern" })).toBeVisible();
    await expect(row("DONE_1").getByRole("button", { name: "Synchronisieren" })).toBeVisible();
    // Every cell of a row, the actions' too, spans the row: their lines run in step, at both widths.
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const id of ["CL_1", "DONE_1", "INV_1", "HASH_1"]) await expectCellsInStep(row(id));
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // Everything unsynced can be saved to a file first.
    const [file] = await Promise.all([page.waitForEvent("download"), modal.getByTestId("sync-export").click()]);
    const exported = JSON.parse(fs.readFileSync((await file.path())!, "utf8")) as { entries: { patientId: string }[] };
    expect(exported.entries.map((e) => e.patientId).sort()).toEqual(["CL_1", "DONE_1", "HASH_1", "INV_1"]);

    // A clash: overwrite the server's open case.
    await row("CL_1").getByRole("button", { name: "Überschreiben" }).click();
    await expect(row("CL_1")).toHaveCount(0);
    // Already closed: another patient id, then sync.
    await row("DONE_1").getByRole("button", { name: "Patienten-ID ändern" }).click();
    await modal.getByLabel("Neue Patienten-ID für DONE_1").fill("NEU_1");
    await modal.getByRole("button", { name: "Speichern" }).click();
    // Under its new id the fill waits for no decision, so the automatic sync (which runs whenever the
    // network comes back, the modal open or not) may take it before the click does.
    await row("NEU_1")
      .getByRole("button", { name: "Synchronisieren" })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await expect(row("NEU_1")).toHaveCount(0);

    // In English alike: the rows refused for good offer no sync.
    await page.keyboard.press("Escape");
    await expect(modal).toBeHidden();
    await chooseLanguage(page, "English");
    await page.getByTestId("open-sync").click();
    const english = page.getByRole("dialog", { name: "Unsynced offline fills" });
    for (const id of ["INV_1", "HASH_1"]) {
      const inEnglish = english.locator(`[data-testid=sync-row][data-patient-id="${id}"]`);
      await expect(inEnglish.getByRole("button", { name: "Delete", exact: true })).toBeVisible();
      await expect(inEnglish.getByRole("button", { name: "Sync", exact: true })).toHaveCount(0);
      await expect(inEnglish.getByRole("button", { name: "Change patient ID" })).toHaveCount(0);
    }
    await page.keyboard.press("Escape");
    await chooseLanguage(page, "Deutsch");
    await page.getByTestId("open-sync").click();

    // Unpublished and changed surveys: the local data goes only after a confirmation.
    const confirm = page.getByRole("dialog", { name: "Lokale Daten löschen?" });
    await row("INV_1").getByRole("button", { name: "Löschen", exact: true }).click();
    await confirm.getByRole("button", { name: "Abbrechen" }).click();
    await expect(row("INV_1")).toBeVisible();
    await row("INV_1").getByRole("button", { name: "Löschen", exact: true }).click();
    await confirm.getByTestId("confirm-delete").click();
    await expect(row("INV_1")).toHaveCount(0);
    await row("HASH_1").getByRole("button", { name: "Löschen", exact: true }).click();
    await confirm.getByTestId("confirm-delete").click();
    await expect(modal).toBeHidden();
    await expect(page.getByTestId("open-sync")).toHaveCount(0);

    for (const patientId of ["CL_1", "NEU_1"]) {
      const answers = await api<unknown[]>(admin, "GET", `/question-responses/?surveyId=${idA}&patientId=${patientId}`);
      expect(answers, patientId).toHaveLength(1);
    }
  } finally {
    await rig.dispose(context);
  }
});

test("a sync whose answer is lost is tried again and applied once", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await browser.newPage();
  await signIn(admin, "admin");
  const title = `Wiederholung ${Date.now()}`;
  const id = await publishedSurvey(admin, title, oneQuestion);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${id}`), "DUP_1", true);

    // The server applies the sync, but its answer never arrives: the device tries again later.
    rig.gate.loseNextSyncAnswer();
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });

    const state = await api<{ State: string }>(admin, "GET", `/patients?patientId=DUP_1&surveyId=${id}`);
    expect(state.State).toBe("Closed");
    expect(await api<unknown[]>(admin, "GET", `/question-responses/?surveyId=${id}&patientId=DUP_1`)).toHaveLength(1);
    const db = openDatabase();
    try {
      const cases = db.prepare("SELECT COUNT(*) AS n FROM patient_data WHERE survey_id = ?").get(id) as { n: number };
      const applied = db.prepare("SELECT COUNT(*) AS n FROM sync_requests WHERE survey_id = ?").get(id) as {
        n: number;
      };
      expect(cases.n).toBe(1);
      expect(applied.n).toBe(1);
    } finally {
      db.close();
    }
  } finally {
    await rig.dispose(context);
  }
});
