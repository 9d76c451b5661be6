import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { expectNoSeriousViolations } from "./axe";
import { expectNoOverflow, question, serverAnswers, surveyWith } from "./fill-support";
import { png } from "./images";
import { signIn } from "./support";

/**
 * The patient's link page on small screens (docs/decisions/057-patient-links.md, issue 46): at 320 and 414 px
 * and with 200 % text nothing is cut off or overlaps, nothing scrolls sideways, every target is at least 44 px
 * and axe finds nothing serious; the patient answers by keyboard alone; a camera's photos, all named image.jpg,
 * are all kept; an upload refused says so in the patient's words, never a staff page.
 */

const parts = {
  categories: [
    {
      Title: "Ihr Befinden",
      questions: [
        { Title: "Wie geht es Ihnen heute?", Type: "SingleSelection", answers: ["gut", "mittel", "schlecht"] },
        { Title: "Was möchten Sie uns mitteilen?", Type: "FreeText" },
        { Title: "Fotos der Wunde", Type: "FreeText", attachments: true },
      ],
    },
  ],
};

/** A survey with a link for a new case, made by staff; the link's address and number. */
async function linkedCase(page: Page, tag: string) {
  const id = await surveyWith(page, `${tag} ${Date.now()}`, parts);
  const patientId = `${tag.replace(/\W/g, "_").toUpperCase()}_${Date.now()}`;
  const made = await api<{ Link: { Id: number }; Token: string }>(page, "POST", "/patient-links", {
    SurveyId: id,
    PatientId: patientId,
  });
  return { id, patientId, url: `/l/${made.Token}`, linkId: made.Link.Id };
}

async function phone(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 740 }, locale: "de-DE" });
  return { context, page: await context.newPage() };
}

/**
 * Nothing cut off or overlapping: every visible element inside the page's width; the targets at least 44 px
 * each way and none over another (unless one holds the other).
 */
async function expectReflowed(page: Page, screen: string) {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outside = [...document.querySelectorAll<HTMLElement>(".link-fill *")]
      .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden")
      .map((e) => ({ e, r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.height > 0 && (r.left < -1 || r.right > width + 1))
      .map(({ e, r }) => `${e.outerHTML.slice(0, 80)} ${Math.round(r.left)}–${Math.round(r.right)}`);
    const targets = [
      ...document.querySelectorAll<HTMLElement>(
        ".link-fill button, .link-fill a[href], .link-fill select, .link-fill textarea, .link-fill input[type=text], .link-fill .choice, .link-fill .file-pick",
      ),
      // A form's hidden default button (Enter) is no target.
    ].filter((e) => e.getClientRects().length > 0 && !e.closest(".visually-hidden"));
    const boxes = targets.map((e) => ({ e, r: e.getBoundingClientRect() }));
    const small = boxes
      .filter(({ r }) => r.height < 44 || r.width < 44)
      .map(({ e, r }) => `${e.outerHTML.slice(0, 60)} ${Math.round(r.width)}×${Math.round(r.height)}`);
    const overlapping: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.e.contains(b.e) || b.e.contains(a.e)) continue;
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (x > 1 && y > 1) overlapping.push(`${a.e.outerHTML.slice(0, 50)} / ${b.e.outerHTML.slice(0, 50)}`);
      }
    }
    return { outside, small, overlapping, targets: targets.length };
  });
  expect(found.targets, screen).toBeGreaterThan(5);
  expect(found.outside, `${screen}: cut off`).toEqual([]);
  await expectNoOverflow(page);
  expect(found.small, `${screen}: targets under 44 px`).toEqual([]);
  expect(found.overlapping, `${screen}: overlapping`).toEqual([]);
  await expectNoSeriousViolations(page, screen);
}

test("at 320 and 414 px and with 200 % text the page reflows; the patient answers by keyboard alone", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  await signIn(page, "admin");
  const { id, patientId, url } = await linkedCase(page, "link small");
  const { context, page: patient } = await phone(browser, 320);
  await patient.goto(url);
  await expect(patient).toHaveURL(/\/l\/fill$/);
  await expect(question(patient, "Wie geht es Ihnen heute?")).toBeVisible();
  await expectReflowed(patient, "patient link 320");
  await patient.setViewportSize({ width: 414, height: 800 });
  await expectReflowed(patient, "patient link 414");
  // 200 % text: the root font size the page's sizes follow (rem), at 414 and at 320 px.
  await patient.evaluate(() => (document.documentElement.style.fontSize = "200%"));
  await expectReflowed(patient, "patient link 414, 200 % text");
  await patient.setViewportSize({ width: 320, height: 740 });
  await expectReflowed(patient, "patient link 320, 200 % text");

  // By keyboard alone: Tab to the first answer, choose with the arrow keys, Tab on to the text, then submit.
  const focusedLabel = () =>
    patient.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return el?.labels?.[0]?.textContent?.trim() ?? el?.getAttribute("data-testid") ?? el?.tagName ?? "";
    });
  const tabTo = async (wanted: (label: string) => boolean) => {
    for (let i = 0; i < 40 && !wanted(await focusedLabel()); i++) await patient.keyboard.press("Tab");
    expect(wanted(await focusedLabel())).toBe(true);
  };
  await tabTo((l) => l === "gut");
  await patient.keyboard.press("ArrowDown");
  await expect(question(patient, "Wie geht es Ihnen heute?").getByLabel("mittel", { exact: true })).toBeChecked();
  await patient.keyboard.press("Tab");
  const text = question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox");
  await expect(text).toBeFocused();
  await patient.keyboard.type("Alles per Tastatur");
  await expect.poll(async () => (await serverAnswers(page, id, patientId)).length, { timeout: 10_000 }).toBe(2);
  await tabTo((l) => l === "submit-survey");
  await patient.keyboard.press("Enter");
  // The photos' question is unanswered: sending is asked about first (decision 067), the focus on going on
  // answering; Escape goes back to the page, the case still open.
  const asked = patient.getByRole("dialog", { name: "Noch nicht alles beantwortet" });
  await expect(asked).toBeVisible();
  await expect(asked.getByRole("button", { name: "Weiter beantworten" })).toBeFocused();
  await patient.keyboard.press("Escape");
  await expect(asked).toBeHidden();
  await expect(patient.getByTestId("submit-survey")).toBeFocused();
  await patient.keyboard.press("Enter");
  await expect(asked.getByRole("button", { name: "Weiter beantworten" })).toBeFocused();
  await patient.keyboard.press("Tab");
  await expect(asked.getByRole("button", { name: "Trotzdem absenden" })).toBeFocused();
  await patient.keyboard.press("Enter");
  await expect(patient.getByRole("heading", { name: "Vielen Dank!" })).toBeVisible();
  const answers = await serverAnswers(page, id, patientId);
  expect(answers.map((a) => a.TextResponse).filter(Boolean)).toEqual(["Alles per Tastatur"]);
  const record = await api<{ Respondent: string | null }>(
    page,
    "GET",
    `/patients?patientId=${patientId}&surveyId=${id}`,
  );
  expect(record.Respondent).toBe("link");
  await context.close();
});

test("a camera's photos, all named image.jpg, are all kept; a refused upload says so in the patient's words", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const { id, patientId, url, linkId } = await linkedCase(page, "link photos");
  const { context, page: patient } = await phone(browser, 390);
  await patient.goto(url);
  const box = question(patient, "Fotos der Wunde");
  const photo = { name: "image.jpg", mimeType: "image/jpeg", buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]) };
  await box.getByTestId("attachment-camera").setInputFiles(photo);
  await expect(box.getByRole("listitem").filter({ hasText: /^image\.jpg/ })).toBeVisible();
  await box.getByTestId("attachment-camera").setInputFiles({ ...photo, buffer: Buffer.from([0xff, 0xd8, 0xff, 2]) });
  await expect(box.getByRole("listitem").filter({ hasText: "image (2).jpg" })).toBeVisible();
  await expect(box.getByTestId("attachment-failed")).toHaveCount(0);

  // Wrong type and too large: the upload's own words, in the case's language.
  await box.getByLabel("Anhänge").setInputFiles([
    { name: "virus.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") },
    { name: "gross.png", mimeType: "image/png", buffer: Buffer.alloc(4_000_001, 1) },
  ]);
  const failed = box.getByTestId("attachment-failed");
  await expect(failed.filter({ hasText: "virus.exe" })).toContainText("Dieser Dateityp ist nicht erlaubt.");
  await expect(failed.filter({ hasText: "gross.png" })).toContainText("4 MB");

  // The link revoked meanwhile: the page stays, and says the link no longer holds; nothing of signing in.
  await api(page, "POST", `/patient-links/${linkId}/revoke`);
  await box.getByLabel("Anhänge").setInputFiles({ name: "befund.png", mimeType: "image/png", buffer: png() });
  await expect(failed.filter({ hasText: "befund.png" })).toContainText("Dieser Link gilt nicht mehr");
  await expect(patient).toHaveURL(/\/l\/fill$/);
  await expect(patient.getByText(/anmelden|Sitzung|Berechtigung/)).toHaveCount(0);
  await expectNoSeriousViolations(patient, "patient link upload refused 390");

  const state = await api<{ PatientDataId: number }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${id}`);
  const files = await api<{ FileName: string }[]>(
    page,
    "GET",
    `/file-attachments?questionId=${(await api<{ Categories: { Questions: { Id: number; Title: string }[] }[] }>(page, "GET", `/surveys/${id}`)).Categories[0]!.Questions[2]!.Id}&patientDataId=${state.PatientDataId}`,
  );
  expect(files.map((f) => f.FileName)).toEqual(["image.jpg", "image (2).jpg"]);
  await context.close();
});

test.describe("without JavaScript", () => {
  test("the patient answers, saves and submits through the page's forms; the answers and a file arrive", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, "admin");
    const { id, patientId, url } = await linkedCase(page, "link nojs");
    const context = await browser.newContext({
      viewport: { width: 320, height: 740 },
      locale: "de-DE",
      javaScriptEnabled: false,
    });
    const patient = await context.newPage();
    await patient.goto(url);
    await expect(patient).toHaveURL(/\/l\/fill$/);
    await question(patient, "Wie geht es Ihnen heute?").getByLabel("schlecht", { exact: true }).check();
    await question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox").fill("Ohne Skript");
    const box = question(patient, "Fotos der Wunde");
    const photo = { name: "image.jpg", mimeType: "image/jpeg", buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1]) };
    await box.getByLabel("Anhänge").setInputFiles(photo);
    await patient.getByRole("button", { name: "Speichern" }).click();
    // Saved: the page comes back with the answers, the file listed.
    await expect(question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox")).toHaveValue("Ohne Skript");
    await expect(box.getByRole("listitem").filter({ hasText: "image.jpg" })).toBeVisible();
    expect((await serverAnswers(page, id, patientId)).length).toBe(2);
    // A second photo of the same name is kept beside the first.
    await box.getByLabel("Anhänge").setInputFiles({ ...photo, buffer: Buffer.from([0xff, 0xd8, 0xff, 2]) });
    await patient.getByRole("button", { name: "Speichern" }).click();
    await expect(box.getByRole("listitem").filter({ hasText: "image (2).jpg" })).toBeVisible();
    await expect(box.getByTestId("attachment-failed")).toHaveCount(0);
    await expectNoOverflow(patient);

    // A question is unanswered: the server asks first (decision 067). Going on answering keeps the case open.
    await patient.getByTestId("submit-survey").click();
    const asked = patient.getByRole("dialog", { name: "Noch nicht alles beantwortet" });
    await expect(asked).toBeVisible();
    await asked.getByRole("link", { name: "Weiter beantworten" }).click();
    await expect(asked).toHaveCount(0);
    await expect(question(patient, "Was möchten Sie uns mitteilen?").getByRole("textbox")).toHaveValue("Ohne Skript");
    const open = await api<{ State: string }>(page, "GET", `/patients?patientId=${patientId}&surveyId=${id}`);
    expect(open.State).toBe("Open");
    await patient.getByTestId("submit-survey").click();
    await asked.getByRole("button", { name: "Trotzdem absenden" }).click();
    await expect(patient.getByRole("heading", { name: "Vielen Dank!" })).toBeVisible();
    const answers = await serverAnswers(page, id, patientId);
    expect(answers.map((a) => a.TextResponse).filter(Boolean)).toEqual(["Ohne Skript"]);
    const record = await api<{ State: string; Respondent: string | null }>(
      page,
      "GET",
      `/patients?patientId=${patientId}&surveyId=${id}`,
    );
    expect(record).toMatchObject({ State: "Closed", Respondent: "link" });
    await context.close();
  });
});
