import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { png } from "./images";
import { signIn } from "./support";
import { backToGerman, LANGUAGES, pageWithoutScripts, signInIn, WIDTHS } from "./screens-support";

/**
 * The editor drawn before its scripts ran as the address names it, toasts that leave the button a person goes
 * on with in sight, and the marker modal's image whole.
 */

/**
 * Holds the page's scripts back (a slow device) until the returned function lets them go; its stylesheets
 * come, as they do before a slow device's scripts.
 */
async function holdScriptsOnly(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/.*\.js(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const EDITOR = {
  "de-DE": {
    start: "Start",
    questionnaire: "Fragebogen",
    notices: [/brauchen JavaScript/, /zum Bearbeiten wird JavaScript gebraucht/],
  },
  "en-US": {
    start: "Start",
    questionnaire: "Questionnaire",
    notices: [/need JavaScript/, /editing it needs JavaScript/],
  },
};

/** The tab links that are drawn as the chosen one (by the look the chosen tab has). */
function markedTabs(page: Page) {
  return page.locator(".tabs__list > a").evaluateAll((links) => {
    const weights = links.map((a) => Number(getComputedStyle(a).fontWeight));
    return links.filter((_, i) => weights[i]! >= 600).map((a) => a.textContent?.trim());
  });
}

test.describe("the editor before its scripts ran", () => {
  // The scripts are held back below; a worker would answer them from its cache instead.
  test.use({ serviceWorkers: "block" });

  for (const language of LANGUAGES) {
    test(`draws only the tab its address names, and warns of nothing while scripts are on their way [${language}]`, async ({
      page,
      browser,
    }) => {
      const words = EDITOR[language];
      await signInIn(page, language);
      let release = () => undefined as void;
      try {
        const draft = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Langsam ${Date.now()}` });
        const category = await api<{ Id: number }>(page, "POST", "/categories", {
          SurveyId: draft.Id,
          Title: "Teil 1",
        });
        await api(page, "POST", "/questions", {
          SurveyId: draft.Id,
          CategoryId: category.Id,
          Title: "Schmerz heute",
          Type: "FreeText",
        });
        for (const viewport of WIDTHS) {
          await page.setViewportSize(viewport);
          // A document of its own (the same address with another hash would only move within the page).
          await page.goto("about:blank");
          release = await holdScriptsOnly(page);
          await page.goto(`/survey/${draft.Id}/edit#questionnaire`, { waitUntil: "commit" });
          await expect(page.locator("#questionnaire")).toBeVisible();
          await expect(page.getByText("Schmerz heute")).toBeVisible();
          await expect(page.locator("#start")).toBeHidden();
          await expect(page.locator("#intro")).toBeHidden();
          for (const notice of words.notices) await expect(page.getByText(notice)).toBeHidden();
          expect(await markedTabs(page)).toEqual([words.questionnaire]);
          // Without an address of a tab: the first.
          await page.goto(`/survey/${draft.Id}/edit`, { waitUntil: "commit" });
          await expect(page.locator("#start")).toBeVisible();
          await expect(page.locator("#questionnaire")).toBeHidden();
          for (const notice of words.notices) await expect(page.getByText(notice)).toBeHidden();
          expect(await markedTabs(page)).toEqual([words.start]);
          // The scripts come: the page runs on the tab it showed.
          release();
          await expect(page.getByRole("tab", { name: words.start })).toHaveAttribute("aria-selected", "true");
          await expect(page.getByRole("tabpanel")).toHaveCount(1);
          await page.unrouteAll();
        }

        // Without scripts every tab is there, each under its title, and the page says what needs scripts.
        const plain = await pageWithoutScripts(browser, language);
        await plain.goto(`/survey/${draft.Id}/edit#questionnaire`);
        for (const tab of ["start", "intro", "preliminary", "questionnaire", "outro"]) {
          await expect(plain.locator(`#${tab}`)).toBeVisible();
          await expect(plain.locator(`#${tab} > h2`)).toBeVisible();
        }
        for (const notice of words.notices) await expect(plain.getByText(notice).first()).toBeVisible();
        await plain.context().close();
      } finally {
        release();
        await page.unrouteAll({ behavior: "ignoreErrors" });
        await backToGerman(page, language);
      }
    });
  }
});

/** Whether two boxes share any point. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

for (const viewport of WIDTHS) {
  test(`a toast leaves "+ Frage hinzufügen" of a category just added in sight (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, "admin");
    const draft = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Toast ${Date.now()}` });
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: draft.Id, Title: "Teil 1" });
    // Longer than the screen.
    for (let n = 1; n <= 14; n++) {
      const Title = `Frage ${n}`;
      await api(page, "POST", "/questions", { SurveyId: draft.Id, CategoryId: category.Id, Title, Type: "FreeText" });
    }
    await page.goto(`/survey/${draft.Id}/edit#questionnaire`);
    const addCategory = page.getByRole("button", { name: "+ Kategorie hinzufügen" });
    // At the foot of the screen, where the toasts come.
    await addCategory.evaluate((el) => el.scrollIntoView({ block: "end" }));
    await addCategory.click();
    const dialog = page.getByRole("dialog", { name: "Kategorie hinzufügen" });
    await dialog.getByRole("textbox").fill("Teil 2");
    await dialog.getByRole("button", { name: "Speichern" }).click();
    await expect(dialog).toBeHidden();
    const toast = page.getByTestId("toast").filter({ hasText: "Die Kategorie wurde hinzugefügt." });
    await expect(toast).toBeVisible();
    // The new category's "+ Frage hinzufügen", where the work goes on, and what has focus: in sight, not under
    // the toast, so that a click reaches them.
    const addQuestion = page.getByTestId("category").nth(1).locator("summary[title='Frage hinzufügen']");
    const focused = page.locator(":focus");
    await expect(focused).toHaveCount(1);
    for (const [what, target] of [
      ["+ Frage hinzufügen", addQuestion],
      ["the focused control", focused],
    ] as const) {
      await expect(target, what).toBeInViewport();
      const [box, over] = [(await target.boundingBox())!, (await toast.boundingBox())!];
      expect(overlap(box, over), `${what} and the toast overlap`).toBe(false);
      const hit = await target.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
      });
      expect(hit, `a click on ${what} reaches it`).toBe(true);
    }
  });
}

for (const viewport of WIDTHS) {
  test(`the marker modal shows its whole image, a tall one too, with the markers on it (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await signIn(page, "admin");
    const draft = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Bild ${Date.now()}` });
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: draft.Id, Title: "Teil 1" });
    await api(page, "POST", "/questions", {
      SurveyId: draft.Id,
      CategoryId: category.Id,
      Title: "Wo tut es weh?",
      Type: "Image",
      // Portrait, taller than the modal's body.
      ImageSrc: `data:image/png;base64,${png(600, 1200).toString("base64")}`,
      AnswerOptions: [{ Text: "Fuß", X: 0.5, Y: 0.95 }],
    });
    await page.goto(`/survey/${draft.Id}/edit#questionnaire`);
    await page.getByTestId("question").getByRole("button", { name: "Bearbeiten" }).click();
    const dialog = page.getByRole("dialog", { name: "Frage bearbeiten: Bild" });
    // Its file field speaks the page's language, the browser's own out of sight.
    await expect(dialog.getByTestId("file-pick")).toHaveText("Datei auswählen …");
    expect((await dialog.getByLabel("Bild ersetzen").boundingBox())!.width).toBeLessThanOrEqual(1);
    const image = dialog.getByTestId("marker-image");
    await expect(image).toBeVisible();
    await image.evaluate((img) => img.scrollIntoView({ block: "nearest" }));
    const seen = await image.evaluate((img) => {
      const body = img.closest(".modal__body")!.getBoundingClientRect();
      const box = img.getBoundingClientRect();
      return { body: { top: body.top, bottom: body.bottom, left: body.left, right: body.right }, box };
    });
    // Wholly in the modal's body at once: above its foot, below its head, within its sides.
    expect(seen.box.top).toBeGreaterThanOrEqual(seen.body.top - 0.5);
    expect(seen.box.bottom).toBeLessThanOrEqual(seen.body.bottom + 0.5);
    expect(seen.box.right).toBeLessThanOrEqual(seen.body.right + 0.5);
    // The picture keeps its proportions, and the marker sits on its point of it.
    expect(seen.box.height / seen.box.width).toBeCloseTo(2, 1);
    const handle = (await dialog.getByTestId("marker-handle").boundingBox())!;
    expect(Math.abs(handle.x + handle.width / 2 - (seen.box.left + 0.5 * seen.box.width))).toBeLessThanOrEqual(2);
    expect(Math.abs(handle.y + handle.height / 2 - (seen.box.top + 0.95 * seen.box.height))).toBeLessThanOrEqual(2);
  });
}
