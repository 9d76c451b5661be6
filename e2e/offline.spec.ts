import { expect, test } from "@playwright/test";
import { api, publishedSurvey } from "./api";
import { png } from "./images";
import { download, goOffline, goOnline, offlineRig, question, signInAt, startCase } from "./offline-support";

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
    const other = page.getByTestId("survey-row").filter({ hasText: "Herzinsuffizienz" });
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

    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 20_000 });
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
