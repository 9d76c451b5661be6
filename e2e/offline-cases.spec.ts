import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { download, goOffline, goOnline, offlineRig, question, signInAt } from "./offline-support";

// Open cases of a downloaded survey continue offline (docs/decisions/038-typed-work-kept.md): the download
// brings the latest ones with their answers, a case filled online is kept as it is saved, and the sync
// sends only what changed, without a clash with one's own case; a case changed elsewhere meanwhile is a
// clash as before. Offline, the start page says when it cannot tell whether an id has a case.

const questions = [
  { Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] },
  { Title: "Notiz", Type: "FreeText" },
];

type Answer = { QuestionId: number; TextResponse?: string; AnswerOptionId?: number };
const answersOf = (page: Page, surveyId: number, patientId: string) =>
  api<Answer[]>(page, "GET", `/question-responses/?surveyId=${surveyId}&patientId=${patientId}`);

async function typeId(page: Page, patientId: string) {
  await page.locator("#patient-id").fill(patientId);
}

async function noteOf(page: Page, text: string) {
  const note = question(page, "Notiz").getByRole("textbox");
  await note.fill(text);
  await note.blur();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
}

test("a case started online continues offline with its answers and syncs without a clash", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Fortsetzen ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, questions);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    // Online: the case is started and answered.
    const patientId = `FALL_${Date.now()}`;
    await page.goto(rig.url(`/survey/${surveyId}`));
    await typeId(page, patientId);
    await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
    await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
    await question(page, "Befinden").getByLabel("gut").check();
    await expect(question(page, "Befinden").getByTestId("save-state")).toHaveText("Gespeichert");

    await goOffline(context, rig.gate);
    await page.goto(rig.url(`/survey/${surveyId}`));
    const status = page.getByTestId("patient-id-status");
    // An id this device does not know: it cannot tell whether the server has a case for it.
    await typeId(page, "NIE_GESEHEN_1");
    await expect(status).toHaveText(
      "Ohne Verbindung lässt sich nicht prüfen, ob es zu dieser Kennung einen Fall gibt. Ist sie vergeben, fragt die Synchronisierung nach.",
    );
    await expect(page.getByTestId("patient-id-mark")).toHaveAttribute("data-state", "none");
    await expect(page.locator("#patient-id")).toHaveAccessibleDescription(/Ohne Verbindung lässt sich nicht prüfen/);
    // The case of this device: open, with its answer.
    await typeId(page, patientId);
    await expect(status).toHaveText("Zu dieser Kennung ist ein offener Fall auf diesem Gerät gespeichert.");
    await page.getByRole("button", { name: "Umfrage öffnen" }).click();
    await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
    await expect(question(page, "Befinden").getByLabel("gut")).toBeChecked();
    await noteOf(page, "offline weitergeführt");
    await expect(question(page, "Notiz").getByTestId("save-state")).toHaveText("Auf diesem Gerät gespeichert");

    // Back online: the change is synced into the same case, without a question to the person.
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("open-sync")).toHaveCount(0);
    const answers = await answersOf(page, surveyId, patientId);
    expect(answers.map((a) => a.TextResponse).filter(Boolean)).toEqual(["offline weitergeführt"]);
    expect(answers.filter((a) => a.AnswerOptionId !== undefined)).toHaveLength(1);
    const state = await api<{ State: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${surveyId}`);
    expect(state.State).toBe("Open");

    // Offline once more: the device continues from what its sync left, again without a clash.
    await goOffline(context, rig.gate);
    await page.reload();
    await expect(question(page, "Notiz").getByRole("textbox")).toHaveValue("offline weitergeführt");
    await question(page, "Befinden").getByLabel("schlecht").check();
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    const again = await answersOf(page, surveyId, patientId);
    expect(again.map((a) => a.TextResponse).filter(Boolean)).toEqual(["offline weitergeführt"]);
    expect(again.filter((a) => a.AnswerOptionId !== undefined)).toHaveLength(1);
  } finally {
    await rig.dispose(context);
  }
});

test("the download brings the latest open cases; one changed elsewhere meanwhile is a clash as before", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Mitgebracht ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, questions);
    const survey = await api<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(
      page,
      "GET",
      `/surveys/${surveyId}`,
    );
    const noteId = survey.Categories[0].Questions.find((q) => q.Title === "Notiz")!.Id;
    const note = (patientId: string, TextResponse: string) =>
      api(page, "POST", "/question-responses/free-text", {
        SurveyId: surveyId,
        PatientId: patientId,
        QuestionId: noteId,
        TextResponse,
      });
    const stamp = Date.now();
    const [mine, theirs] = [`MEIN_${stamp}`, `FREMD_${stamp}`];
    for (const id of [mine, theirs]) {
      await api(page, "POST", `/patients/add?patientId=${id}&surveyId=${surveyId}`);
      await note(id, "vom Server");
    }
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    // Another device changes one of them after the download.
    await note(theirs, "anderswo geändert");

    await goOffline(context, rig.gate);
    for (const [id, text] of [
      [mine, "vom Server, ergänzt"],
      [theirs, "vom Server, hier geändert"],
    ]) {
      await page.goto(rig.url(`/survey/${surveyId}`));
      await typeId(page, id);
      await page.getByRole("button", { name: "Umfrage öffnen" }).click();
      await expect(question(page, "Notiz").getByRole("textbox")).toHaveValue("vom Server");
      await noteOf(page, text);
    }

    await goOnline(context, rig.gate);
    const modal = page.getByRole("dialog", { name: "Nicht synchronisierte Offline-Erfassungen" });
    await expect(modal).toBeVisible({ timeout: 30_000 });
    const row = modal.getByTestId("sync-row");
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute("data-patient-id", theirs);
    await expect(row.getByTestId("sync-error")).toHaveText(
      "Der Fall wurde auf dem Server geändert, seit dieses Gerät ihn übernahm: überschreiben, neue ID wählen oder löschen.",
    );
    expect((await answersOf(page, surveyId, mine)).map((a) => a.TextResponse)).toEqual(["vom Server, ergänzt"]);
    expect((await answersOf(page, surveyId, theirs)).map((a) => a.TextResponse)).toEqual(["anderswo geändert"]);

    // The person decides: overwrite puts this device's whole fill in place.
    await row.getByRole("button", { name: "Überschreiben" }).click();
    await expect(modal).toBeHidden({ timeout: 20_000 });
    expect((await answersOf(page, surveyId, theirs)).map((a) => a.TextResponse)).toEqual(["vom Server, hier geändert"]);
  } finally {
    await rig.dispose(context);
  }
});
