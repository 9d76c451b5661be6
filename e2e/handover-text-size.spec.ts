import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { signIn } from "./support";

/**
 * The patient's text sizes in a hand-over (docs/decisions/058-hand-over.md) on a phone: every text the patient
 * reads grows with the size chosen, and at the largest size nothing of the page leaves the screen, right to
 * left as well, so that nothing has to be scrolled sideways or is cut off where it cannot be scrolled to.
 */

const PHONE = { width: 390, height: 844 };

/** The German texts of the survey below with their Arabic translations. */
const texts = {
  category: ["Schlafqualitätsbeurteilung", "تقييم جودة النوم"],
  choice: ["Wie stark sind Ihre Schmerzen gerade?", "ما مدى شدة ألمكم الآن؟"],
  hint: ["Denken Sie an die letzten 24 Stunden.", "فكّروا في الساعات الأربع والعشرين الماضية."],
  answers: [
    ["keine", "لا يوجد"],
    ["Schmerzmittelunverträglichkeit", "عدم تحمّل المسكنات"],
  ],
  number: ["Wie viele Stunden haben Sie geschlafen?", "كم ساعة نمتم؟"],
  unit: ["Stunden", "ساعات"],
} as const;

/** A published survey in German, offered in Arabic: a choice with a hint and a number with its unit. */
async function sleepSurvey(page: Page) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Schriftgröße ${Date.now()}` });
  await api(page, "PUT", `/surveys/${survey.Id}`, { Languages: ["ar"] });
  const category = await api<{ Id: number }>(page, "POST", "/categories", {
    SurveyId: survey.Id,
    Title: texts.category[0],
  });
  const ask = (body: Record<string, unknown>) =>
    api<{ Id: number; AnswerOptions?: { Id: number }[] }>(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId: category.Id,
      ...body,
    });
  const choice = await ask({
    Title: texts.choice[0],
    Type: "SingleSelection",
    Hint: texts.hint[0],
    AnswerOptions: texts.answers.map(([Text]) => ({ Text })),
  });
  const number = await ask({ Title: texts.number[0], Type: "Numerical", Unit: texts.unit[0] });
  const tree = await api<{ Categories: { Questions: { Id: number; AnswerOptions: { Id: number }[] }[] }[] }>(
    page,
    "GET",
    `/surveys/${survey.Id}`,
  );
  const options = tree.Categories[0]!.Questions.find((q) => q.Id === choice.Id)!.AnswerOptions;
  await api(page, "PUT", `/surveys/${survey.Id}/translations/ar`, {
    Texts: [
      { Key: `category:${category.Id}`, Text: texts.category[1] },
      { Key: `question:${choice.Id}`, Text: texts.choice[1] },
      { Key: `question:${choice.Id}:Hint`, Text: texts.hint[1] },
      ...options.map((o, i) => ({ Key: `answer:${o.Id}`, Text: texts.answers[i]![1] })),
      { Key: `question:${number.Id}`, Text: texts.number[1] },
      { Key: `question:${number.Id}:Unit`, Text: texts.unit[1] },
    ],
  });
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}

/** The font sizes (px) of the texts the patient reads: the page's title, the category's, a question's, a hint. */
function textSizes(page: Page) {
  return page.evaluate(() => {
    const size = (selector: string) => {
      const el = document.querySelector(selector);
      return el ? parseFloat(getComputedStyle(el).fontSize) : NaN;
    };
    return {
      page: size(".fill-head__title"),
      category: size(".fill-category-title"),
      question: size(".fill-question__title"),
      hint: size("[data-testid=question-hint]"),
    };
  });
}

/** The elements that reach past either edge of the screen (to the left as well: right to left, unscrollable). */
function outsideTheScreen(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || getComputedStyle(el).position === "fixed") continue;
      if (r.left < -1 || r.right > width + 1)
        out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}…${Math.round(r.right)}`);
    }
    return out;
  });
}

for (const [language, index] of [
  ["de", 0],
  ["ar", 1],
] as const) {
  test(`a hand-over on a phone: A+ and A++ enlarge what the patient reads, A++ fits the screen [${language}]`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(PHONE);
    await signIn(page, "admin");
    const id = await sleepSurvey(page);
    const patientId = `HTS_${language}_${Date.now()}`;
    await api(page, "POST", `/patients/add?patientId=${patientId}&surveyId=${id}&language=${language}`);
    await page.goto(`/survey/${id}/fill/${patientId}?page=questionnaire`);

    // The PINs staff set are drawn as the app's fields: as tall as the one that gives the device back.
    await page.getByTestId("handover-open").click();
    const dialog = page.getByRole("dialog");
    for (const field of [dialog.getByLabel(/^PIN$/), dialog.getByLabel(/PIN wiederholen|Repeat the PIN/)]) {
      expect.soft((await field.boundingBox())!.height).toBeGreaterThanOrEqual(40);
    }
    await dialog.getByLabel(/^PIN$/).fill("2468");
    await dialog.getByLabel(/PIN wiederholen|Repeat the PIN/).fill("2468");
    await page.getByTestId("handover-start").click();
    await expect(page.getByTestId("handover-bar")).toBeVisible();
    await expect(page.getByRole("heading", { name: texts.choice[index] })).toBeVisible();
    // The sizes are named in the patient's language, and read in its direction.
    const sizeGroup = page.getByTestId("handover-bar").getByRole("group");
    await expect(sizeGroup).toHaveAccessibleName(language === "ar" ? "حجم الخط" : "Schriftgröße");
    expect(
      await sizeGroup.getByRole("button").evaluateAll((all) => all.map((b) => b.getAttribute("aria-label"))),
    ).toEqual(
      language === "ar"
        ? ["A: خط عادي", "A+: خط كبير", "A++: خط كبير جدًا"]
        : ["A: Normale Schrift", "A+: Große Schrift", "A++: Sehr große Schrift"],
    );
    if (language === "ar") {
      expect(await sizeGroup.evaluate((group) => getComputedStyle(group).direction)).toBe("rtl");
    }
    // Drawn as written, "A+" with its plus after the A, also right to left (not "+A").
    expect(
      await sizeGroup.getByRole("button").evaluateAll((all) =>
        all.map((button) => {
          const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
          const node = walker.nextNode()!;
          const at = (i: number) => {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            return range.getBoundingClientRect();
          };
          const label = node.textContent ?? "";
          return [...label].every((_, i) => i === 0 || at(i).left >= at(i - 1).right - 1) ? label : `reversed ${label}`;
        }),
      ),
    ).toEqual(["A", "A+", "A++"]);

    // Each size enlarges the page's title, the category, the questions and their hints.
    const main = page.locator("#main");
    const sizes = [await textSizes(page)];
    for (const [name, level] of [
      [/^A\+:/, "1"],
      [/^A\+\+:/, "2"],
    ] as const) {
      await page.getByRole("button", { name }).click();
      await expect(main).toHaveAttribute("data-text-size", level);
      sizes.push(await textSizes(page));
    }
    const [normal, large, larger] = sizes;
    for (const text of ["page", "category", "question", "hint"] as const) {
      expect.soft(large![text], `${text} at A+`).toBeGreaterThanOrEqual(normal![text] * 1.2);
      expect.soft(larger![text], `${text} at A++`).toBeGreaterThanOrEqual(normal![text] * 1.45);
    }

    // At A++ nothing is wider than the screen or reaches past its left edge, the number's unit whole beside it.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect.soft(width).toBeLessThanOrEqual(PHONE.width);
    expect.soft(await outsideTheScreen(page)).toEqual([]);
    const unit = page.locator(".numeric__unit");
    await expect(unit).toHaveText(texts.unit[index]);
    const box = (await unit.boundingBox())!;
    expect.soft(box.x).toBeGreaterThanOrEqual(0);
    expect.soft(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

    // The way back: its PIN field as large as the patient's other fields.
    await page.getByTestId("handover-return").click();
    expect((await page.getByLabel("PIN", { exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(40);
  });
}
