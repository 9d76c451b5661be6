import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { png } from "./images";
import { signIn } from "./support";

/**
 * An image question's markers sit on the same point of the picture wherever it is drawn: in the editor,
 * the editor's preview, the fill page with and without JavaScript, at desktop and phone widths. A patient
 * who taps "Knie" must tap the knee.
 */

const MARKERS = [
  { Text: "Knie", X: 0.75, Y: 0.4 },
  { Text: "Hand", X: 0.2, Y: 0.8 },
  { Text: "Kopf", X: 0.5, Y: 0.1 },
];
const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];
/** A marker's centre may be this far (px) from its point: rounding of the fractions and of the layout. */
const TOLERANCE_PX = 1.5;

async function imageSurvey(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await api(page, "POST", "/questions", {
    SurveyId: survey.Id,
    CategoryId: category.Id,
    Title: "Wo schmerzt es?",
    Type: "Image",
    ImageSrc: `data:image/png;base64,${png(480, 320).toString("base64")}`,
    AnswerOptions: MARKERS,
  });
  return survey.Id;
}

/** Where each marker's centre lies on the picture, in px from its corner, with the picture's size. */
async function placements(image: Locator, centres: Locator) {
  const box = (await image.boundingBox())!;
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < (await centres.count()); i++) {
    const b = (await centres.nth(i).boundingBox())!;
    points.push({ x: b.x + b.width / 2 - box.x, y: b.y + b.height / 2 - box.y });
  }
  return { box, points };
}

function expectOnTheirPoints({ box, points }: Awaited<ReturnType<typeof placements>>, where: string) {
  expect(points, where).toHaveLength(MARKERS.length);
  for (const [i, marker] of MARKERS.entries()) {
    expect(Math.abs(points[i]!.x - marker.X * box.width), `${where}: ${marker.Text} across`).toBeLessThanOrEqual(
      TOLERANCE_PX,
    );
    expect(Math.abs(points[i]!.y - marker.Y * box.height), `${where}: ${marker.Text} down`).toBeLessThanOrEqual(
      TOLERANCE_PX,
    );
  }
}

async function noSidewaysScroll(page: Page, where: string) {
  const { scroll, view } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(scroll, `${where}: the page is wider than the screen`).toBeLessThanOrEqual(view);
}

test("markers sit on the same point of the image in the editor, the preview and the fill page, at 1366 and 390 px", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const surveyId = await imageSurvey(page, `Bildmarker ${Date.now()}`);

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    const at = `${viewport.width} px`;

    await page.goto(`/survey/${surveyId}/edit#questionnaire`);
    await page
      .getByTestId("question")
      .filter({ hasText: "Wo schmerzt es?" })
      .getByRole("button", { name: "Bearbeiten" })
      .click();
    const modal = page.getByRole("dialog", { name: /Frage bearbeiten/ });
    await expect(modal.getByTestId("marker-image")).toBeVisible();
    expectOnTheirPoints(
      await placements(modal.getByTestId("marker-image"), modal.getByTestId("marker-handle")),
      `editor, ${at}`,
    );
    await page.keyboard.press("Escape");

    await page.getByRole("button", { name: "Vorschau" }).click();
    const preview = page.getByRole("dialog", { name: "Vorschau" });
    const previewImage = preview.locator(".image-answer__img");
    await expect(previewImage).toBeVisible();
    expectOnTheirPoints(await placements(previewImage, preview.locator(".marker__dot")), `preview, ${at}`);
    await page.keyboard.press("Escape");
  }

  await api(page, "POST", `/surveys/${surveyId}/approve`);
  await api(page, "POST", `/patients/add?patientId=BILD_1&surveyId=${surveyId}`);
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled, storageState: await page.context().storageState() });
    const fill = await context.newPage();
    for (const viewport of VIEWPORTS) {
      await fill.setViewportSize(viewport);
      const where = `fill page ${javaScriptEnabled ? "" : "without JavaScript "}at ${viewport.width} px`;
      await fill.goto(`/survey/${surveyId}/fill/BILD_1?page=questionnaire`);
      await expect(fill.locator(".image-answer__img")).toBeVisible();
      expectOnTheirPoints(await placements(fill.locator(".image-answer__img"), fill.locator(".marker__dot")), where);
      await noSidewaysScroll(fill, where);
      // Every title stays on the picture.
      const box = (await fill.locator(".image-answer__img").boundingBox())!;
      for (const label of await fill.getByTestId("image-marker").all()) {
        const b = (await label.boundingBox())!;
        expect(b.x, where).toBeGreaterThanOrEqual(box.x - 12);
        expect(b.x + b.width, where).toBeLessThanOrEqual(box.x + box.width + 12);
      }
    }
    // The markers are one group named by the question: a screen reader hears which question "Knie" answers.
    const group = fill.getByRole("radiogroup", { name: "Wo schmerzt es?" });
    await expect(group.getByRole("radio", { name: "Knie" })).toBeAttached();
    // A tap on the marker chooses it.
    if (javaScriptEnabled) {
      await fill.getByTestId("image-marker").filter({ hasText: "Knie" }).locator(".marker__dot").click();
      await expect(fill.getByTestId("image-marker").filter({ hasText: "Knie" })).toHaveClass(/marker--on/);
    }
    await context.close();
  }
});

test("in the editor a click on the image places the selected or a new marker; new ones do not pile up; a drag holds the marker where it was grabbed", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Marker setzen ${Date.now()}` });
  await api(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  await page.locator("summary[title='Frage hinzufügen']").first().click();
  await page.getByRole("button", { name: "Bild", exact: true }).click();
  const modal = page.getByRole("dialog", { name: "Frage hinzufügen: Bild" });
  await modal
    .getByLabel("Bild hochladen")
    .setInputFiles({ name: "koerper.png", mimeType: "image/png", buffer: png(480, 320) });
  const image = modal.getByTestId("marker-image");
  await expect(image).toBeVisible();
  await image.scrollIntoViewIfNeeded();
  let box = (await image.boundingBox())!;
  const handles = modal.getByTestId("marker-handle");

  // A click on the picture makes a marker there, and its title field waits.
  await image.click({ position: { x: 0.3 * box.width, y: 0.6 * box.height } });
  await expect(handles).toHaveCount(1);
  await expect(modal.getByLabel("Titel der Markierung 1")).toBeFocused();
  let { points } = await placements(image, handles);
  expect(Math.abs(points[0]!.x - 0.3 * box.width)).toBeLessThanOrEqual(TOLERANCE_PX);
  expect(Math.abs(points[0]!.y - 0.6 * box.height)).toBeLessThanOrEqual(TOLERANCE_PX);

  // Selected, the marker goes where the picture is clicked next.
  await handles.first().click();
  await expect(handles.first()).toHaveAttribute("aria-pressed", "true");
  await image.click({ position: { x: 0.8 * box.width, y: 0.2 * box.height } });
  await expect(handles).toHaveCount(1);
  ({ points } = await placements(image, handles));
  expect(Math.abs(points[0]!.x - 0.8 * box.width)).toBeLessThanOrEqual(TOLERANCE_PX);

  // Markers added with the button each get a free spot.
  for (let i = 0; i < 4; i++) await modal.getByRole("button", { name: "+ Markierung hinzufügen" }).click();
  await expect(handles).toHaveCount(5);
  ({ points } = await placements(image, handles));
  for (const [i, a] of points.entries()) {
    for (const b of points.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThanOrEqual(24);
  }

  // A drag moves the marker under the pointer by the pointer's way, without a jump to its centre.
  await image.scrollIntoViewIfNeeded();
  box = (await image.boundingBox())!;
  const grab = (await handles.nth(2).boundingBox())!;
  const start = { x: grab.x + grab.width / 2 + 6, y: grab.y + grab.height / 2 + 5 };
  const before = (await placements(image, handles)).points[2]!;
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 60, start.y + 40, { steps: 6 });
  await page.mouse.up();
  const after = (await placements(image, handles)).points[2]!;
  expect(Math.abs(after.x - before.x - 60)).toBeLessThanOrEqual(2);
  expect(Math.abs(after.y - before.y - 40)).toBeLessThanOrEqual(2);
});

test("the question modal names each missing part beside it, focuses the first, follows list changes and sends nothing until all are there", async ({
  page,
}) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Bildfrage prüfen ${Date.now()}` });
  await api(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  const writes: string[] = [];
  page.on("request", (r) => {
    if (r.method() !== "GET" && new URL(r.url()).pathname.startsWith("/api/questions")) writes.push(r.url());
  });
  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  await page.locator("summary[title='Frage hinzufügen']").first().click();
  await page.getByRole("button", { name: "Bild", exact: true }).click();
  const modal = page.getByRole("dialog", { name: "Frage hinzufügen: Bild" });
  const title = modal.getByLabel("Fragetext");
  const save = modal.getByRole("button", { name: "Speichern" });

  // Nothing filled: every part is named, the first field takes the focus.
  await save.click();
  await expect(modal.getByText("Bitte einen Fragetext eingeben.")).toBeVisible();
  await expect(modal.getByText("Bitte ein Bild hochladen.")).toBeVisible();
  await expect(modal.getByText("Bitte mindestens eine Markierung hinzufügen.")).toBeVisible();
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute("aria-invalid", "true");

  // The title typed: its message goes as it is typed; the next save goes to the image field.
  await title.fill("Wo schmerzt es?");
  await expect(modal.getByText("Bitte einen Fragetext eingeben.")).toBeHidden();
  await save.click();
  await expect(modal.getByLabel("Bild hochladen")).toBeFocused();

  // The image chosen: its message goes; without a marker, the add button takes the focus.
  await modal
    .getByLabel("Bild hochladen")
    .setInputFiles({ name: "k.png", mimeType: "image/png", buffer: png(480, 320) });
  await expect(modal.getByText("Bitte ein Bild hochladen.")).toBeHidden();
  await save.click();
  await expect(modal.getByRole("button", { name: "+ Markierung hinzufügen" })).toBeFocused();

  // A marker added by the button is checked at once (a list change, no typing): it needs a title.
  await modal.getByRole("button", { name: "+ Markierung hinzufügen" }).click();
  await expect(modal.getByText("Bitte mindestens eine Markierung hinzufügen.")).toBeHidden();
  await expect(modal.getByText("Bitte einen Titel für die Markierung eingeben.")).toBeVisible();
  await expect(modal.getByLabel("Titel der Markierung 1")).toHaveAttribute("aria-invalid", "true");
  // A marker's title is required, and says so before it is refused.
  await expect(modal.getByLabel("Titel der Markierung 1")).toHaveAttribute("aria-required", "true");
  await modal.getByLabel("Titel der Markierung 1").fill("Knie");
  await expect(modal.getByText("Bitte einen Titel für die Markierung eingeben.")).toBeHidden();

  // A second, blank marker, then the first removed: the message follows the one left, not its old place.
  await modal.getByRole("button", { name: "+ Markierung hinzufügen" }).click();
  await expect(modal.getByLabel("Titel der Markierung 2")).toHaveAttribute("aria-invalid", "true");
  await modal.getByRole("button", { name: "Markierung 1 entfernen" }).click();
  await expect(modal.getByLabel("Titel der Markierung 1")).toHaveValue("");
  await expect(modal.getByLabel("Titel der Markierung 1")).toHaveAttribute("aria-invalid", "true");
  await save.click();
  await expect(modal.getByLabel("Titel der Markierung 1")).toBeFocused();
  expect(writes).toEqual([]);

  await modal.getByLabel("Titel der Markierung 1").fill("Hand");
  await save.click();
  await expect(modal).toBeHidden();
  expect(writes).toHaveLength(1);
  const stored = await api<{ Categories: { Questions: { Title: string; AnswerOptions: { Title: string }[] }[] }[] }>(
    page,
    "GET",
    `/surveys/${survey.Id}`,
  );
  const question = stored.Categories[0]!.Questions[0]!;
  expect(question.Title).toBe("Wo schmerzt es?");
  expect(question.AnswerOptions.map((o) => o.Title)).toEqual(["Hand"]);
});
