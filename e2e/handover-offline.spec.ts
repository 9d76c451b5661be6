import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import {
  download,
  goOffline,
  goOnline,
  offlineRig,
  oneQuestion,
  question,
  signInAt,
  startCase,
} from "./offline-support";
import { accounts } from "./support";

/**
 * A staff device handed to the patient without a network (docs/decisions/058-hand-over.md): the service
 * worker answers every other page with the case's fill page, the PIN returns the device offline, and the
 * patient's answers reach the staff member's case as the patient's once the network is back.
 */

const bar = (page: Page) => page.getByTestId("handover-bar");

/** The patient's page: the case's fill page with the patient's bar, nothing of staff's app. */
async function patientsPage(page: Page, url: string) {
  await expect(page).toHaveURL(url);
  await expect(bar(page)).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  await expect(question(page, "Befinden").getByLabel("gut")).toBeChecked();
}

type Rig = Awaited<ReturnType<typeof offlineRig>>;

/**
 * Staff download a survey, open a case and hand the device over online; without a network the kept fill
 * document is the patient's page too, and the patient's answer is kept on the device.
 */
async function answeredOffline(page: Page, rig: Rig) {
  await signInAt(page, "admin");
  const title = `Übergabe offline ${Date.now()}`;
  const surveyId = await publishedSurvey(page, title, oneQuestion);
  await page.goto(rig.url("/surveys"));
  await download(page, title);
  const patientId = `HOFF_${Date.now()}`;
  const fill = rig.url(`/survey/${surveyId}/fill/${patientId}`);
  await page.goto(rig.url(`/survey/${surveyId}`));
  await startCase(page, patientId);
  await page.getByTestId("handover-open").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel(/^PIN$/).fill("2468");
  await dialog.getByLabel("PIN wiederholen").fill("2468");
  await page.getByTestId("handover-start").click();
  await expect(bar(page)).toBeVisible();

  await goOffline(page.context(), rig.gate);
  await page.reload();
  await expect(bar(page)).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  await question(page, "Befinden").getByLabel("gut").check();
  await expect(question(page, "Befinden").getByTestId("save-state")).toHaveText("Auf diesem Gerät gespeichert");
  return { title, surveyId, patientId, fill };
}

async function typePin(page: Page, pin: string) {
  await page.getByTestId("handover-return").click();
  await page.getByLabel("PIN", { exact: true }).fill(pin);
  await page.getByTestId("handover-pin-submit").click();
}

/** Who answered the case, as the server recorded it. */
const respondentOf = async (page: Page, surveyId: number, patientId: string) =>
  (await api<{ Respondent?: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${surveyId}`)).Respondent;

test("a hand-over offline: address, back and reload keep the patient's page; the PIN and the sync", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    const { title, surveyId, patientId, fill } = await answeredOffline(page, rig);

    // Typed addresses of kept pages (the list, the start page), another case: the patient's page each time.
    for (const address of ["/surveys", `/survey/${surveyId}`, `/survey/${surveyId}/fill/ANDERE_1`, "/"]) {
      await page.goto(rig.url(address));
      await patientsPage(page, fill);
    }
    // Back, down to the pages staff opened before the hand-over, and a reload.
    for (let i = 0; i < 6; i++) {
      await page.goBack();
      await patientsPage(page, fill);
    }
    await page.reload();
    await patientsPage(page, fill);
    // A link of the app to another page (as the staff's menu has) leads back to the case's page as well.
    await page.evaluate(() => {
      const router = (window as { __remixRouter?: { navigate: (to: string) => Promise<void> } }).__remixRouter;
      if (!router) throw new Error("no router");
      return router.navigate("/surveys");
    });
    await patientsPage(page, fill);
    // The server out of reach while the browser thinks it is online: the kept copies answer, the same way.
    await context.setOffline(false);
    await page.goto(rig.url("/surveys"));
    await patientsPage(page, fill);
    await context.setOffline(true);

    // Staff return by the PIN, still offline: the case's page is theirs, and so are the kept pages.
    await typePin(page, "2468");
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    await expect(page).toHaveURL(fill);
    await page.goto(rig.url("/surveys"));
    await expect(page).toHaveURL(rig.url("/surveys"));
    await expect(page.getByTestId("survey-row").filter({ hasText: title })).toBeVisible();

    // Online again: the sync brings the patient's answer into the case; the server's mode, which still
    // refuses staff's calls, ends by the token the PIN opened. The network comes back unsteadily: the first
    // try at the end fails, and the sync waits for the next, rather than going on and leaving the mode.
    let endTries = 0;
    await context.route("**/api/handover/end", (route) =>
      ++endTries === 1 ? route.abort("internetdisconnected") : route.continue(),
    );
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    const surveysStatus = () => page.evaluate(async () => (await fetch("/api/surveys?take=5&skip=0")).status);
    await expect.poll(surveysStatus, { timeout: 20_000 }).toBe(200);
    expect(endTries).toBeGreaterThan(1);
    await page.goto(rig.url("/surveys"));
    await expect(page).toHaveURL(rig.url("/surveys"));
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    expect(await respondentOf(page, surveyId, patientId)).toBe("handover");

    // The case's history names the patient, handed the device by the staff member.
    await page.goto(rig.url(`/survey/${surveyId}/history?patientId=${patientId}`));
    const rows = page.getByRole("table", { name: "Befinden" }).locator("tbody tr");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("gut");
    await expect(rows.first()).toContainText(`Patient:in (Übergabe durch ${accounts.admin.fullName})`);
    // The hand-over's end is the case's event, said as ended by the PIN without a network.
    await expect(
      page.getByText("Gerät an das Personal zurückgegeben (PIN ohne Netz, später übertragen)"),
    ).toBeVisible();
  } finally {
    await rig.dispose(context);
  }
});

test("the network back while the patient still holds the device: the answer syncs as theirs, the page stays", async () => {
  test.setTimeout(120_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    const { surveyId, patientId, fill } = await answeredOffline(page, rig);
    await goOnline(context, rig.gate);
    await expect(page.getByText("1 Offline-Erfassung wurde synchronisiert.")).toBeVisible({ timeout: 30_000 });
    await patientsPage(page, fill);
    await expect(page.getByTestId("open-sync")).toHaveCount(0);
    // Online, the server's rule keeps the patient's page; no sign-in is asked for meanwhile.
    await page.goto(rig.url("/surveys"));
    await patientsPage(page, fill);
    await page.waitForTimeout(2_000);
    await patientsPage(page, fill);

    // The PIN gives the device back; the case is the patient's.
    await typePin(page, "2468");
    await expect(page.getByTestId("handover-open")).toBeVisible();
    await expect(bar(page)).toHaveCount(0);
    expect(await respondentOf(page, surveyId, patientId)).toBe("handover");
  } finally {
    await rig.dispose(context);
  }
});
