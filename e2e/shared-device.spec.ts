import type { Page } from "@playwright/test";
import { api } from "./api";
import { hasKeptPage, keptFill, storageText } from "./device-storage";
import { download, goOffline, goOnline, offlineRig, question, signInAt, startCase } from "./offline-support";
import { accounts } from "./support";
import { expect, pageStarted, test } from "./test";

/**
 * A ward's computer: one browser profile, people taking turns (docs/decisions/048-shared-device.md). What
 * one person kept or typed offline is never shown to, readable in clear by, or synced under the next; the
 * person's work reaches the server under that person when they sign in there again.
 */

const TEXT = "Druckstelle an der linken Ferse";
type Rig = Awaited<ReturnType<typeof offlineRig>>;

/** A survey only the team "Station 3A" fills (its users: `user` and `admin`), with a choice and a text. */
async function teamSurvey(page: Page, title: string): Promise<number> {
  const teams = await api<{ Id: number; Name: string }[]>(page, "GET", "/teams");
  const team = teams.find((t) => t.Name === "Station 3A")!;
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const choice = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
    AllowFileAttachments: false,
  });
  for (const Text of ["gut", "schlecht"]) {
    await api(page, "POST", "/answer-options", {
      SurveyId: survey.Id,
      QuestionId: choice.Id,
      Text,
      IsExitAnswer: false,
    });
  }
  await api(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Befund",
    Type: "FreeText",
    AllowFileAttachments: false,
  });
  await api(page, "PUT", `/surveys/${survey.Id}`, { UserTeamPermissions: [team.Id] });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}

/** Signs out with the header's button; with nothing unsynced it goes straight to the provider's sign-in. */
async function signOut(page: Page) {
  await page.locator("[data-testid=sign-out]:visible").click();
  await expect(page.locator("#username")).toBeVisible({ timeout: 20_000 });
}

/** The texts of a case's answers on the server, as the signed-in person reads them; none while it is not there. */
function serverTexts(page: Page, surveyId: number, patientId: string) {
  return page.evaluate(
    async (path) => {
      const res = await fetch(`/api${path}`);
      if (!res.ok) return [];
      return ((await res.json()) as { TextResponse?: string | null }[]).map((a) => a.TextResponse ?? null);
    },
    `/question-responses?surveyId=${surveyId}&patientId=${encodeURIComponent(patientId)}`,
  );
}

/** What the next person could find with the browser's tools: nothing of the case, the text or the survey. */
async function expectNothingInClear(page: Page, secrets: string[]) {
  const text = await storageText(page);
  for (const secret of secrets) expect(text, `"${secret}" in the page's storage`).not.toContain(secret);
}

/**
 * The survey made by an admin, who then signs out (the device holds nobody's work); then A (`user`, team
 * Station 3A) keeps it for offline use and fills a case offline: a choice and a typed text.
 */
async function aFillsOffline(rig: Rig, page: Page, title: string, patientId: string): Promise<number> {
  await signInAt(page, "admin");
  await page.goto(rig.url("/surveys"));
  const surveyId = await teamSurvey(page, title);
  await signOut(page);

  await signInAt(page, "user");
  await page.goto(rig.url("/surveys"));
  await download(page, title);
  await goOffline(page.context(), rig.gate);
  await page.goto(rig.url(`/survey/${surveyId}`));
  await startCase(page, patientId);
  await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  await question(page, "Befinden").getByLabel("gut").check();
  const remarks = question(page, "Befund").getByRole("textbox");
  await remarks.fill(TEXT);
  await remarks.blur();
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  await expect
    .poll(async () => Object.values((await keptFill(page, surveyId, patientId))?.answers ?? {}))
    .toContainEqual({ TextResponse: TEXT });
  return surveyId;
}

test("a shared device: B sees, reads and syncs nothing of A's; A's work reaches the server under A", async () => {
  test.setTimeout(300_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  const title = `Dekubitus Station 3A ${Date.now()}`;
  const patientId = `GERAET_${Date.now()}`;
  try {
    const surveyId = await aFillsOffline(rig, page, title, patientId);

    // A's own kept pages hold A's survey (so the storage read below would see it, were it left).
    expect(await storageText(page)).toContain(title);

    // The network returns but the sync cannot get through; A signs out before it ran.
    rig.gate.refuseSyncs(true);
    await goOnline(context, rig.gate);
    await page.goto(rig.url("/surveys"));
    await page.locator("[data-testid=sign-out]:visible").click();
    const dialog = page.getByRole("dialog", { name: "Nicht synchronisierte Arbeit" });
    await expect(dialog.getByTestId("sign-out-unsynced")).toHaveText("1 Fall ist noch nicht auf dem Server:");
    await expect(dialog.getByRole("listitem")).toHaveText([title]);
    await dialog.getByTestId("sign-out-sync").click();
    await expect(dialog.getByTestId("sign-out-sync-failed")).toContainText("1 Fall konnte nicht synchronisiert werden");
    await dialog.getByTestId("sign-out-locked").click();
    await expect(page.locator("#username")).toBeVisible({ timeout: 20_000 });
    rig.gate.refuseSyncs(false);

    // B of another team (editor, Studienzentrum), then B of A's team (admin): the same on this device.
    for (const who of ["editor", "admin"] as const) {
      await signInAt(page, who);
      await page.goto(rig.url("/surveys"));
      await expect(page.getByTestId("locked-work")).toContainText(
        "Arbeit einer anderen Person ist auf diesem Gerät gesperrt: 1 Fall.",
      );
      await expect(page.getByTestId("open-sync")).toHaveCount(0);
      await expect(page.getByTestId("survey-row").filter({ hasText: title }).getByTestId("row-ready")).toHaveCount(0);
      await expectNothingInClear(page, [patientId, TEXT, title]);
      expect(await keptFill(page, surveyId, patientId)).toBeNull();
      expect(await hasKeptPage(page, `/__offline-shell/${surveyId}`)).toBe(false);
      // Offline, neither A's survey nor A's case opens for B.
      await goOffline(context, rig.gate);
      for (const path of [`/survey/${surveyId}`, `/survey/${surveyId}/fill/${patientId}`]) {
        await page.goto(rig.url(path)).catch(() => undefined);
        await expect(page.getByText(title)).toHaveCount(0);
        await expect(page.getByText(TEXT)).toHaveCount(0);
      }
      await goOnline(context, rig.gate);
      await page.goto(rig.url("/surveys"));
      await signOut(page);
    }

    // A signs in again: the work is there, readable by A, and syncs under A.
    await signInAt(page, "user");
    await page.goto(rig.url("/surveys"));
    await expect(page.getByTestId("locked-work")).toHaveCount(0);
    await expect.poll(() => serverTexts(page, surveyId, patientId), { timeout: 30_000 }).toContain(TEXT);
    await expect.poll(() => keptFill(page, surveyId, patientId)).toBeNull();
    await signOut(page);

    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    const trail = await api<{ ActorSub: string | null; Action: string }[]>(
      page,
      "GET",
      `/audit-log?surveyId=${surveyId}&patientId=${patientId}`,
    );
    expect(trail.map((row) => row.Action)).toContain("case.sync");
    expect(new Set(trail.map((row) => row.ActorSub))).toEqual(new Set(["user"]));
    const answers = await api<{ TextResponse?: string | null }[]>(
      page,
      "GET",
      `/question-responses?surveyId=${surveyId}&patientId=${patientId}`,
    );
    expect(answers.map((a) => a.TextResponse)).toContain(TEXT);
  } finally {
    await rig.dispose(context);
  }
});

test("the person changes without a sign-out: A walks away, the session ends, B signs in; A's work waits for A", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  const title = `Schmerz Station 3A ${Date.now()}`;
  const patientId = `WEG_${Date.now()}`;
  try {
    const surveyId = await aFillsOffline(rig, page, title, patientId);

    // A walks away: no sign-out; the session ends (its cookie is gone), and B signs in on the same profile.
    rig.gate.refuseSyncs(true);
    await goOnline(context, rig.gate);
    await context.clearCookies();
    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    await expect(page.getByTestId("locked-work")).toContainText("1 Fall.");
    await expect(page.getByTestId("open-sync")).toHaveCount(0);
    // On a phone's width a toast stands above the notice, which stays readable.
    await page.setViewportSize({ width: 390, height: 800 });
    await download(page, title);
    const toast = (await page.locator(".toast", { hasText: "Die Umfrage ist offline verfügbar." }).boundingBox())!;
    const notice = (await page.getByTestId("locked-work").boundingBox())!;
    expect(toast.y + toast.height, "the toast's bottom against the notice's top").toBeLessThanOrEqual(notice.y);
    await page.setViewportSize({ width: 1280, height: 720 });
    await expectNothingInClear(page, [patientId, TEXT]);
    expect(await keptFill(page, surveyId, patientId)).toBeNull();
    rig.gate.refuseSyncs(false);
    await signOut(page);

    await signInAt(page, "user");
    await page.goto(rig.url("/surveys"));
    await expect.poll(() => serverTexts(page, surveyId, patientId), { timeout: 30_000 }).toContain(TEXT);
    await expect.poll(() => keptFill(page, surveyId, patientId)).toBeNull();
  } finally {
    await rig.dispose(context);
  }
});

test("on a phone, signing out from the menu with unsynced work asks first, every choice within the screen", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  const title = `Telefon Station 3A ${Date.now()}`;
  try {
    await aFillsOffline(rig, page, title, `TELEFON_${Date.now()}`);
    rig.gate.refuseSyncs(true);
    await goOnline(context, rig.gate);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(rig.url("/surveys"));
    await page.locator('summary[aria-label="Menü"]').click();
    await page.locator("[data-testid=sign-out]:visible").click();
    const dialog = page.getByRole("dialog", { name: "Nicht synchronisierte Arbeit" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("listitem")).toHaveText([title]);
    for (const name of ["Abbrechen", "Trotzdem abmelden", "Jetzt synchronisieren"]) {
      const box = (await dialog.getByRole("button", { name }).boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    }
    await dialog.getByRole("button", { name: "Abbrechen" }).click();
    await expect(dialog).toBeHidden();
  } finally {
    await rig.dispose(context);
  }
});

/** What a sign-out without a connection shows has loaded in the page (it loads once the page has). */
async function signedOutLoaded(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.includes("signed-out"))),
    )
    .toBe(true);
}

/** The page says its person signed out, and offers nothing of the app: no button, no field, not their name. */
async function expectSignedOut(page: Page) {
  const notice = page.getByTestId("signed-out-offline");
  await expect(notice.getByRole("heading", { name: "Abgemeldet" })).toBeVisible();
  await expect(notice).toContainText("sobald das Gerät wieder verbunden ist");
  await expect(page.locator("input:visible, button:visible")).toHaveCount(0);
  await expect(page.getByText(accounts.user.fullName)).not.toBeVisible();
}

test("a sign-out without a connection ends the session as soon as the connection is back", async () => {
  test.setTimeout(180_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  const title = `Abmeldung offline ${Date.now()}`;
  try {
    await signInAt(page, "admin");
    await page.goto(rig.url("/surveys"));
    const surveyId = await teamSurvey(page, title);
    await signOut(page);
    // A keeps the survey for offline use: its start page opens without a connection.
    await signInAt(page, "user");
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await page.goto(rig.url(`/survey/${surveyId}`));
    await expect(page.locator("#patient-id")).toBeVisible();
    await signedOutLoaded(page);
    await goOffline(context, rig.gate);
    // No unsynced work: the sign-out goes at once, and cannot reach the server.
    await page.locator("[data-testid=sign-out]:visible").click();
    // Until the connection is back the device says that the person is signed out, and offers nothing of the
    // app: no sign-out button, no form to start a case.
    await expectSignedOut(page);
    // The connection comes back: the page ends the session by itself and the sign-in asks who works now.
    await goOnline(context, rig.gate);
    await expect(page.locator("#username")).toBeVisible({ timeout: 20_000 });
    // The next person opens the app: nothing is synced or shown under the one who signed out.
    await page.goto(rig.url("/surveys"));
    await expect(page.locator("#username")).toBeVisible();
    await expect(page.getByTestId("greeting")).toHaveCount(0);
    // The same person signs in again and stays signed in; so after a sign-out with the connection.
    for (const round of [1, 2]) {
      await page.locator("#username").fill(accounts.user.username);
      await page.locator("#password").fill(accounts.user.password);
      await page.locator("button[type=submit]").click();
      await expect(page.getByTestId("greeting")).toBeVisible();
      await page.goto(rig.url("/surveys"));
      await expect(page.getByTestId("greeting")).toBeVisible();
      await page.reload();
      await expect(page.getByTestId("greeting")).toBeVisible();
      if (round === 1) {
        await page.locator("[data-testid=sign-out]:visible").click();
        await expect(page.locator("#username")).toBeVisible();
      }
    }
  } finally {
    await rig.dispose(context);
  }
});

test("a sign-out without a connection: the person's other tab says so too, and ends the session once online", async () => {
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "user");
    await page.goto(rig.url("/surveys"));
    await expect(page.getByTestId("greeting")).toBeVisible();
    await pageStarted(page, 20_000);
    const other = await context.newPage();
    await other.goto(rig.url("/surveys"));
    await expect(other.getByTestId("greeting")).toBeVisible();
    await pageStarted(other, 20_000);
    // What a sign-out without a connection shows loads once a page has loaded: both have it.
    for (const tab of [page, other]) {
      await signedOutLoaded(tab);
    }
    await goOffline(context, rig.gate);
    await other.locator("[data-testid=sign-out]:visible").click();
    await expectSignedOut(other);
    // The first tab, left open on the person's list, no longer shows it.
    await expectSignedOut(page);
    // Back online, one of the two sends the sign-out (and reaches the sign-in); the session has ended for both.
    await goOnline(context, rig.gate);
    await expect
      .poll(async () => (await page.locator("#username").count()) + (await other.locator("#username").count()), {
        timeout: 20_000,
      })
      .toBe(1);
    for (const tab of [page, other]) {
      await tab.goto(rig.url("/surveys"));
      await expect(tab.locator("#username")).toBeVisible();
    }
  } finally {
    await rig.dispose(context);
  }
});

test("after a sign-out, the browser's Back shows the sign-in, not the last person's case or patients", async () => {
  test.setTimeout(120_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  const patientId = `ZURUECK_${Date.now()}`;
  try {
    await signInAt(page, "user");
    await page.goto(rig.url("/survey/8"));
    // The device's service worker answers the pages, as on a ward's computer after its first page.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 30_000 });
    await page.reload();
    await startCase(page, patientId);
    await expect(page.getByText(`Patient: ${patientId}`)).toBeVisible();
    await signOut(page);
    for (const step of ["the case", "the start page with its recent patients"]) {
      await page.goBack();
      await expect(page.locator("#username"), `Back to ${step}`).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText(patientId)).toHaveCount(0);
    }
  } finally {
    await rig.dispose(context);
  }
});
