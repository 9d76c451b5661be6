import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Page } from "puppeteer-core";
import { caller, signIn as signInOverHttp, type Call } from "../../tests/server/real-server";
import { choiceSurvey, PRELIMINARY_WALK, QUESTION_WALKS, type ChoiceSurvey, type Walk } from "../choice-walks";
import { element, launchFirefox, until, type Firefox } from "./firefox";
import { press, settled, signIn, startCase } from "./steps";

/**
 * Every kind of choice group of the fill page, walked by keyboard in Firefox ESR, as Chromium walks it
 * (e2e/choice-walks.ts): after each key the page shows what the server holds, nothing changes that the person
 * did not choose, and the field says "Gespeichert".
 */

const app = inject("appUrl");

let firefox: Firefox;
let admin: Call;
let survey: ChoiceSurvey;

const sorted = (texts: string[]) => [...texts].sort();

/** The group's state in the page: each answer's text and whether it is chosen, the focused one, the status. */
function groupState(page: Page, walk: Walk) {
  return page.evaluate((title: string) => {
    const box = window.__ff.question(title);
    const labels = Array.from(box?.querySelectorAll("label") ?? []);
    const textOf = (l: Element) =>
      window.__ff.norm((l.querySelector(".marker__label") ?? l.querySelector("input + span"))?.textContent);
    const focused = labels.find((l) => l.querySelector("input") === document.activeElement);
    return {
      chosen: labels.filter((l) => l.querySelector("input")?.checked).map(textOf),
      focus: focused ? textOf(focused) : null,
      saved: box?.querySelector('[data-testid="save-state"]')?.textContent ?? null,
      dialog: document.querySelector("dialog[open]") !== null,
    };
  }, walk.question);
}

async function pressKey(page: Page, key: string) {
  if (key === "Shift+Tab") {
    await page.keyboard.down("Shift");
    await page.keyboard.press("Tab");
    await page.keyboard.up("Shift");
  } else {
    // BiDi's keyboard names the space bar by its character.
    await page.keyboard.press((key === "Space" ? " " : key) as Parameters<Page["keyboard"]["press"]>[0]);
  }
}

async function walkThrough(page: Page, patientId: string, walk: Walk) {
  const start = await element(
    page,
    `"${walk.from}" of "${walk.question}"`,
    (q, a) => window.__ff.label(window.__ff.question(q), a)?.querySelector("input"),
    walk.question,
    walk.from,
  );
  await start.focus();
  for (const [i, step] of walk.steps.entries()) {
    const at = `${walk.kind}, step ${i + 1} (${step.keys.join(" ")})`;
    const before = await survey.version(patientId);
    for (const key of step.keys) await pressKey(page, key);
    // A save starts as the key is handled; the page is busy until it ended.
    await new Promise((r) => setTimeout(r, 250));
    await settled(page);
    const state = await groupState(page, walk);
    expect(state.dialog, `${at}: a dialog opened`).toBe(false);
    expect(state.focus, `${at}: focus`).toBe(step.focus);
    expect(sorted(state.chosen), `${at}: the page's answer`).toEqual(sorted(step.chosen));
    expect(sorted(await survey.held(patientId, walk)), `${at}: the server's answer`).toEqual(sorted(step.chosen));
    expect((await survey.version(patientId)) !== before, `${at}: whether the case changed on the server`).toBe(
      step.changed,
    );
    if (!walk.preliminary) expect(state.saved, at).toBe("Gespeichert");
  }
}

describe("Firefox ESR: choice groups by keyboard", () => {
  beforeAll(async () => {
    admin = caller(app, await signInOverHttp(app, "admin"));
    survey = await choiceSurvey((method, path, body) => admin(method, path, body), `Tasten Firefox ${Date.now()}`);
    firefox = await launchFirefox();
  });

  afterAll(async () => {
    await firefox?.close();
  });

  it("after each key the server holds what the page shows; only a choice changes an answer", async () => {
    const { page } = firefox;
    await signIn(page, app, "admin");
    await page.goto(`${app}/survey/${survey.id}`);
    const patientId = `FF_TASTEN_${Date.now()}`;
    await startCase(page, patientId);
    await element(page, "the preliminary question", (t) => window.__ff.question(t), PRELIMINARY_WALK.question);
    await walkThrough(page, patientId, PRELIMINARY_WALK);
    await press(page, "Weiter");
    await until(page, "the questionnaire", (t) => window.__ff.question(t) !== undefined, QUESTION_WALKS[0]!.question);
    for (const walk of QUESTION_WALKS) await walkThrough(page, patientId, walk);
    expect(firefox.problems).toEqual([]);
  });
});
