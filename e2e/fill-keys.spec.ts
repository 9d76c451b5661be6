import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { choiceSurvey, PRELIMINARY_WALK, QUESTION_WALKS, type ChoiceSurvey, type Walk } from "./choice-walks";
import { openCase } from "./fill-support";
import { signIn } from "./support";

// Every kind of choice group of the fill page, walked by keyboard in Chromium: after each key the page shows
// what the server holds, nothing changes that the person did not choose, and the field says "Gespeichert"
// (e2e/choice-walks.ts has the steps and the rule; Firefox walks the same in e2e/firefox/choice-keys.test.ts).

const sorted = (texts: string[]) => [...texts].sort();

function group(page: Page, walk: Walk): Locator {
  const testId = walk.preliminary ? "preliminary-question" : "fill-question";
  const title = walk.preliminary
    ? page.locator("legend", { hasText: walk.question })
    : page.getByRole("heading", { name: walk.question, exact: true });
  return page.getByTestId(testId).filter({ has: title });
}

/** The input of an answer, by the text its label starts with (an answer that ends the survey says so after it). */
function answer(box: Locator, text: string): Locator {
  return box
    .locator("label")
    .filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) })
    .locator("input");
}

async function walkThrough(page: Page, survey: ChoiceSurvey, patientId: string, walk: Walk) {
  const box = group(page, walk);
  const labels = box.locator("label");
  const texts = (
    await labels.evaluateAll((ls) =>
      ls.map((l) => (l.querySelector(".marker__label") ?? l.querySelector("input + span"))?.textContent ?? ""),
    )
  ).filter(Boolean);
  await answer(box, walk.from).focus();
  for (const [i, step] of walk.steps.entries()) {
    const at = `${walk.kind}, step ${i + 1} (${step.keys.join(" ")})`;
    const before = await survey.version(patientId);
    for (const key of step.keys) await page.keyboard.press(key);
    // A save starts as the key is handled; the page is busy until it ended.
    await page.waitForTimeout(250);
    await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("dialog"), at).toBeHidden();
    await expect(answer(box, step.focus), at).toBeFocused();
    for (const text of texts) {
      const shown = answer(box, text);
      if (step.chosen.includes(text)) await expect(shown, `${at}: ${text} chosen`).toBeChecked();
      else await expect(shown, `${at}: ${text} not chosen`).not.toBeChecked();
    }
    expect(sorted(await survey.held(patientId, walk)), `${at}: the server's answer`).toEqual(sorted(step.chosen));
    const after = await survey.version(patientId);
    expect(after !== before, `${at}: whether the case changed on the server`).toBe(step.changed);
    if (!walk.preliminary) await expect(box.getByTestId("save-state"), at).toHaveText("Gespeichert");
  }
}

test("every kind of choice group, walked by keyboard: the server holds what the page shows after each key", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const survey = await choiceSurvey((method, path, body) => api(page, method, path, body), `Tasten ${Date.now()}`);
  const patientId = `TASTEN_${Date.now()}`;
  await openCase(page, survey.id, patientId);
  await expect(group(page, PRELIMINARY_WALK)).toBeVisible();
  await page.waitForLoadState("networkidle");
  await walkThrough(page, survey, patientId, PRELIMINARY_WALK);
  await page.getByRole("button", { name: "Weiter", exact: true }).click();
  await expect(group(page, QUESTION_WALKS[0]!)).toBeVisible();
  for (const walk of QUESTION_WALKS) await walkThrough(page, survey, patientId, walk);
});
