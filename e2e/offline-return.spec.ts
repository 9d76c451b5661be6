import type { Page } from "@playwright/test";
import { appUrl, expect, test } from "./test";
import { publishedSurvey } from "./api";
import { chooseLanguage } from "./support";
import {
  download,
  fillOffline,
  goOffline,
  goOnline,
  offlineRig,
  question,
  signInAt,
  startCase,
} from "./offline-support";

// An open fill page tells the truth when the network returns (docs/decisions/009-offline-layer.md): the
// "no connection" notice goes as the connection is back; a field says its answer is saved on the server only
// once the sync has put it there (the sync is held at the gate meanwhile, and the server is asked), and the
// answers given after that go to the server directly.

const questions = [
  { Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] },
  { Title: "Notiz", Type: "FreeText" },
];

/** The server's answers of a case, asked past the gate (the page itself may be offline). */
async function held(page: Page, surveyId: number, patientId: string) {
  const query = `surveyId=${surveyId}&patientId=${patientId}`;
  const res = await page.request.get(`${appUrl()}/api/question-responses/?${query}`);
  if (res.status() === 404) return null;
  expect(res.ok()).toBe(true);
  return (await res.json()) as { QuestionId: number; TextResponse?: string; AnswerOptionId?: number }[];
}

const texts = (answers: Awaited<ReturnType<typeof held>>) =>
  (answers ?? []).flatMap((a) => (a.TextResponse ? [a.TextResponse] : []));

async function note(page: Page, text: string) {
  const field = question(page, "Notiz").getByRole("textbox");
  await field.fill(text);
  await field.blur();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
}

test("a page filled offline: the notice goes with the connection, 'Gespeichert' once the sync put the answers on the server", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Zurück ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, questions);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    const patientId = `ZURUECK_${Date.now()}`;
    await page.goto(rig.url(`/survey/${surveyId}`));
    await startCase(page, patientId);
    const notice = page.getByTestId("fill-offline-notice");
    await expect(notice).toHaveText(
      "Keine Verbindung: Die Antworten werden auf diesem Gerät gespeichert und synchronisiert, sobald das Netz zurück ist.",
    );
    await question(page, "Befinden").getByLabel("gut").check();
    await note(page, "offline notiert");
    const states = page.getByTestId("save-state");
    await expect(states).toHaveText(["Auf diesem Gerät gespeichert", "Auf diesem Gerät gespeichert"]);
    expect(await held(page, surveyId, patientId)).toBeNull();

    // The network returns; the sync waits at the gate: the connection is back, the answers are not there yet.
    const sync = rig.gate.holdSyncs();
    await goOnline(context, rig.gate);
    await expect(notice).toBeHidden();
    await sync.arrived;
    await expect(states).toHaveText(["Auf diesem Gerät gespeichert", "Auf diesem Gerät gespeichert"]);
    expect(await held(page, surveyId, patientId)).toBeNull();

    // The sync goes through: each field says so, and the server has both answers.
    sync.release();
    await expect(states).toHaveText(["Gespeichert", "Gespeichert"], { timeout: 30_000 });
    expect(texts(await held(page, surveyId, patientId))).toEqual(["offline notiert"]);
    expect(await held(page, surveyId, patientId)).toHaveLength(2);
    await expect(page.getByTestId("open-sync")).toHaveCount(0);

    // What is answered now goes to the server at once, not to this device.
    await note(page, "wieder online");
    await expect(question(page, "Notiz").getByTestId("save-state")).toHaveText("Gespeichert");
    expect(texts(await held(page, surveyId, patientId))).toEqual(["wieder online"]);
    await expect(page.getByTestId("open-sync")).toHaveCount(0);
    await expect(notice).toHaveCount(0);
  } finally {
    await rig.dispose(context);
  }
});

test("in English, a page that lost the network on its way: back online it says 'Saved' once the sync is through", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    await chooseLanguage(page, "English");
    try {
      const title = `Return ${Date.now()}`;
      // The fill page speaks the case's language (decision 055): a survey that offers English, so that the
      // case of a person whose interface is English is in English.
      const surveyId = await publishedSurvey(page, title, questions, { Languages: ["en"] });
      const patientId = `RETURN_${Date.now()}`;
      await page.goto(rig.url(`/survey/${surveyId}`));
      await page
        .getByLabel(/Patient/)
        .first()
        .fill(patientId);
      await page.getByRole("button", { name: "Start new survey" }).click();
      await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
      await page.waitForLoadState("networkidle");
      await question(page, "Befinden").getByLabel("gut").check();
      await expect(question(page, "Befinden").getByTestId("save-state")).toHaveText("Saved");

      // The network goes while the page is open: the next answer is kept on this device.
      await goOffline(context, rig.gate);
      await note(page, "kept here");
      const notice = page.getByTestId("fill-offline-notice");
      await expect(notice).toHaveText(
        "No connection: the answers are kept on this device and synced when the network returns.",
      );
      const state = question(page, "Notiz").getByTestId("save-state");
      await expect(state).toHaveText("Saved on this device");
      expect(texts(await held(page, surveyId, patientId))).toEqual([]);

      const sync = rig.gate.holdSyncs();
      await goOnline(context, rig.gate);
      await expect(notice).toBeHidden();
      await sync.arrived;
      await expect(state).toHaveText("Saved on this device");
      expect(texts(await held(page, surveyId, patientId))).toEqual([]);

      sync.release();
      await expect(state).toHaveText("Saved", { timeout: 30_000 });
      expect(texts(await held(page, surveyId, patientId))).toEqual(["kept here"]);
      await expect(question(page, "Befinden").getByTestId("save-state")).toHaveText("Saved");

      // The next answer goes to the server at once.
      const choice = async () => (await held(page, surveyId, patientId))?.find((a) => a.AnswerOptionId)?.AnswerOptionId;
      const good = await choice();
      await question(page, "Befinden").getByLabel("schlecht").check();
      await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
      await expect(question(page, "Befinden").getByTestId("save-state")).toHaveText("Saved");
      expect(await choice()).not.toBe(good);
      await expect(page.getByTestId("open-sync")).toHaveCount(0);
    } finally {
      await goOnline(context, rig.gate);
      await page.goto(rig.url("/surveys"));
      await chooseLanguage(page, "Deutsch");
    }
  } finally {
    await rig.dispose(context);
  }
});

test("a case submitted offline: its confirmation says the case is closed once the sync closed it", async () => {
  test.setTimeout(150_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Abgeschlossen ${Date.now()}`;
    const surveyId = await publishedSurvey(page, title, questions);
    await page.goto(rig.url("/surveys"));
    await download(page, title);

    await goOffline(context, rig.gate);
    const patientId = `ABSCHLUSS_${Date.now()}`;
    await fillOffline(page, rig.url(`/survey/${surveyId}`), patientId, true);
    const kept = page.getByText(
      `Die Antworten des Falls ${patientId} sind auf diesem Gerät gespeichert. Der Fall wird abgeschlossen, sobald er synchronisiert ist.`,
    );
    await expect(kept).toBeVisible();

    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    await expect(
      page.getByText(`Der Fall ${patientId} ist abgeschlossen; seine Antworten können nicht mehr geändert werden.`),
    ).toBeVisible();
    await expect(kept).toHaveCount(0);
    await expect(page.getByTestId("fill-offline-notice")).toHaveCount(0);
    const state = await page.request.get(`${appUrl()}/api/patients?patientId=${patientId}&surveyId=${surveyId}`);
    expect(((await state.json()) as { State: string }).State).toBe("Closed");
  } finally {
    await rig.dispose(context);
  }
});
