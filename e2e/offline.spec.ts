import { hasKeptPage } from "./device-storage";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { png } from "./images";
import { accounts } from "./support";
import {
  download,
  fillOffline,
  goOffline,
  goOnline,
  offlineRig,
  oneQuestion,
  question,
  signInAt,
  startCase,
} from "./offline-support";

test("download, fill with a file offline across a reload and a browser restart, then the answers sync", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  let { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Offline-Test ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, [
      { Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] },
      { Title: "Befund", Type: "FreeText", attachments: true },
    ]);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    await page.reload();
    await expect(page.getByTestId("offline-indicator")).toHaveClass(/net--offline/);
    const row = page.getByTestId("survey-row").filter({ hasText: title });
    await expect(row).toHaveAttribute("data-downloaded", "true");
    // Surveys not downloaded are disabled offline; "ready for offline" shows only the downloaded ones.
    // The demo survey itself, not a copy another spec made of it.
    const other = page
      .getByTestId("survey-row")
      .filter({ hasText: "Herzinsuffizienz" })
      .filter({ hasNotText: "Kopie von" });
    await expect(other).toHaveAttribute("aria-disabled", "true");
    await page.getByTestId("ready-filter").check();
    await expect(other).toHaveCount(0);
    await expect(row).toBeVisible();
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Umfrage ausfüllen" }).click();
    await startCase(page, "OFF_1");
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    await question(page, "Befinden").getByLabel("gut").check();
    const text = question(page, "Befund").getByRole("textbox");
    await text.fill("ohne Befund");
    await text.blur();
    await question(page, "Befund")
      .getByLabel("Anhänge")
      .setInputFiles({ name: "befund.png", mimeType: "image/png", buffer: png() });
    await expect(question(page, "Befund").getByTestId("attachment-local")).toContainText("befund.png");

    // A reload while offline keeps everything.
    await page.reload();
    await expect(question(page, "Befinden").getByLabel("gut")).toBeChecked();
    await expect(question(page, "Befund").getByRole("textbox")).toHaveValue("ohne Befund");
    await expect(question(page, "Befund").getByTestId("attachment-local")).toContainText("befund.png");
    await page.getByTestId("submit-survey").click();
    await expect(page).toHaveURL(/page=done/);

    // The browser is closed and opened again on the same profile, still without a network.
    await context.close();
    ({ context, page } = await rig.launch());
    await goOffline(context, rig.gate);
    await page.goto(rig.url("/surveys")).catch(() => undefined);
    await expect(page.getByTestId("open-sync")).toHaveText("1 nicht synchronisierte Erfassung");

    // The sync modal lists the fill; its file modal shows the file waiting for the upload.
    await page.getByTestId("open-sync").click();
    const modal = page.getByRole("dialog", { name: "Nicht synchronisierte Offline-Erfassungen" });
    await modal.getByRole("button", { name: "1 Datei von OFF_1 anzeigen" }).click();
    const files = page.getByRole("dialog", { name: "Hochzuladende Dateien von OFF_1" });
    await expect(files.getByRole("row").filter({ hasText: "befund.png" })).toContainText(
      "Wartet auf die Synchronisierung",
    );

    // The network returns: the automatic sync starts, which closes the file modal, and uploads everything.
    await goOnline(context, rig.gate);
    await expect(files).toBeHidden({ timeout: 20_000 });
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 20_000 });
    await expect(modal).toBeHidden();
    await expect(page.getByTestId("open-sync")).toHaveCount(0);

    // What arrived on the server.
    const state = await api<{ State: string; PatientDataId: number }>(
      page,
      "GET",
      `/patients?patientId=OFF_1&surveyId=${surveyId}`,
    );
    expect(state.State).toBe("Closed");
    const responses = await api<{ TextResponse?: string; AnswerOptionId?: number }[]>(
      page,
      "GET",
      `/question-responses/?surveyId=${surveyId}&patientId=OFF_1`,
    );
    expect(responses).toHaveLength(2);
    expect(responses.some((r) => r.TextResponse === "ohne Befund")).toBe(true);
    const counts = await api<{ NumberOfFileAttachment: number }[]>(
      page,
      "GET",
      `/file-attachments/count?patientDataId=${state.PatientDataId}`,
    );
    expect(counts.map((c) => c.NumberOfFileAttachment)).toEqual([1]);
  } finally {
    await rig.dispose(context);
  }
});

test("a fill page opened online keeps its survey: offline, the same page opens again from this device", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Geöffnet ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, oneQuestion);
    // Never downloaded from the list: the fill page itself keeps the survey once it has started.
    await page.goto(rig.url(`/survey/${surveyId}`));
    await startCase(page, "KEPT_1");
    await expect(page.getByTestId("fill-offline-notice")).toHaveCount(0);
    await expect.poll(() => hasKeptPage(page, `/__offline-shell/${surveyId}`), { timeout: 30_000 }).toBe(true);

    await goOffline(context, rig.gate);
    await page.reload();
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    await question(page, "Befinden").getByLabel("gut").check();
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    await page.reload();
    await expect(question(page, "Befinden").getByLabel("gut")).toBeChecked();
    await expect(page).toHaveURL(new RegExp(`/survey/${surveyId}/fill/KEPT_1`));
  } finally {
    await rig.dispose(context);
  }
});

test("back online after the sign-in lapsed, the app signs in again without leaving the page, then syncs", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Stille Anmeldung ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, oneQuestion);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${surveyId}`), "STILL_1", true);
    await page.goto(rig.url("/surveys"));
    await expect(page.getByTestId("open-sync")).toHaveText("1 nicht synchronisierte Erfassung");

    // The app's session lapses while offline; the identity provider still knows the person.
    await context.clearCookies({ name: "sv_session" });
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    // The same page, never reloaded: the sign-in happened in a hidden frame.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(page.url()).toBe(rig.url("/surveys"));
    const state = await api<{ State: string }>(page, "GET", `/patients?patientId=STILL_1&surveyId=${surveyId}`);
    expect(state.State).toBe("Closed");

    // Signed out at the provider too: the person signs in on the provider's page, and nothing kept is lost.
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${surveyId}`), "STILL_2", true);
    await page.goto(rig.url("/surveys"));
    await context.clearCookies();
    await goOnline(context, rig.gate);
    await page.locator("#username").fill(accounts.admin.username);
    await page.locator("#password").fill(accounts.admin.password);
    await page.locator("button[type=submit]").click();
    // The provider returns to the app's public address; the device's data lives at the gate's address.
    await expect(page.getByTestId("greeting")).toBeVisible();
    await page.goto(rig.url("/surveys"));
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    const second = await api<{ State: string }>(page, "GET", `/patients?patientId=STILL_2&surveyId=${surveyId}`);
    expect(second.State).toBe("Closed");
  } finally {
    await rig.dispose(context);
  }
});
