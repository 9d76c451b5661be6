import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { caller, signIn as signInOverHttp, type Call } from "../../tests/server/real-server";
import { png } from "../images";
import { datePickerPopup, element, launchFirefox, until, type Firefox } from "./firefox";
import {
  attach,
  choose,
  fieldValue,
  press,
  rowMenu,
  settled,
  shows,
  signIn,
  startCase,
  submitSurvey,
  typeAnswer,
} from "./steps";

/**
 * The main path in Firefox ESR: sign-in through the provider's page, and a fill of the demo surveys with every
 * question kind (choices, a sub-question shown by an answer, a rule on a preliminary answer, free text,
 * numbers, a date and time through the browser's own picker, a file, markers on an image), checked on the
 * server.
 */

const app = inject("appUrl");
const HEART = "Herzinsuffizienz – Verlaufsbogen";
const WOUND = "Wundverlauf – Dokumentation";

interface Option {
  Id: number;
  /** A choice's text; a marker has a Title. */
  Text?: string;
  Title?: string;
  X: number | null;
  Y: number | null;
  SubQuestions: Question[];
}
interface Question {
  Id: number;
  Title: string;
  AnswerOptions: Option[];
}
interface SurveyDetail {
  Id: number;
  Categories: { Questions: Question[] }[];
}
interface Answer {
  QuestionId: number;
  AnswerOptionId?: number;
  AnswerOptionIds?: number[];
  TextResponse?: string;
  NumericalResponse?: number;
  DateTimeResponse?: string;
}

let firefox: Firefox;
let admin: Call;
let file: string;

async function survey(title: string): Promise<SurveyDetail> {
  const list = await admin<{ Data: { Id: number; Title: string }[] }>("GET", "/surveys");
  const found = list.Data.find((s) => s.Title === title);
  if (!found) throw new Error(`no survey "${title}"`);
  return admin<SurveyDetail>("GET", `/surveys/${found.Id}`);
}

/** Every question of a survey, sub-questions included. */
const questionsOf = (s: SurveyDetail) => {
  const all = (qs: Question[]): Question[] =>
    qs.flatMap((q) => [q, ...all(q.AnswerOptions.flatMap((o) => o.SubQuestions ?? []))]);
  return all(s.Categories.flatMap((c) => c.Questions));
};
const textOf = (o: Option) => o.Text ?? o.Title;
const answersOf = (s: SurveyDetail, patientId: string) =>
  admin<Answer[]>("GET", `/question-responses/?surveyId=${s.Id}&patientId=${patientId}`);
const two = (n: number) => String(n).padStart(2, "0");
const dayOf = (d: Date) => `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()}`;

// The tests of this file run in order, in one browser signed in by the first.
describe("Firefox ESR: sign-in and a fill with every question kind", () => {
  beforeAll(async () => {
    admin = caller(app, await signInOverHttp(app, "admin"));
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "firefox-files-")), "messung.png");
    fs.writeFileSync(file, png());
    firefox = await launchFirefox();
  });

  afterAll(async () => {
    await firefox?.close();
    if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it("a person signs in on the provider's page and is greeted by name", async () => {
    const { page } = firefox;
    await signIn(page, app, "user");
    // Asked of the document shown: the driver's own record of the address may still name the provider's
    // page for a moment after the survey list has arrived.
    expect(await page.evaluate(() => location.pathname)).toBe("/surveys");
    await shows(page, "Thomas Becker", '[data-testid="greeting"]');
  });

  it("fills the heart survey: choices, a sub-question, a rule, text, numbers, the date picker, a file", async () => {
    const { page, browser } = firefox;
    const heart = await survey(HEART);
    const patientId = `FF_${Date.now()}`;
    await rowMenu(page, HEART, "Umfrage ausfüllen");
    await startCase(page, patientId);

    // The intro, then the preliminary page.
    await shows(page, "Seite 1 von 4");
    await press(page, "Speichern und weiter");
    await shows(page, "Seite 2 von 4");
    await choose(page, "Geschlecht", "weiblich");
    await choose(page, "Altersgruppe", "65 bis 79");
    await settled(page);
    await press(page, "Weiter");

    // The rule shows the pregnancy question for "weiblich"; "Ja" shows the sub-question.
    await shows(page, "Seite 3 von 4");
    await choose(page, "Wie stark ist die Atemnot bei Belastung?", "stark");
    await choose(page, "Haben Sie Wassereinlagerungen bemerkt?", "Ja");
    await choose(page, "Wo genau?", "Knöchel");
    await choose(page, "Wo genau?", "Bauch");
    await choose(page, "Schwangerschaft ausgeschlossen?", "Ja");
    await typeAnswer(page, "Weitere Beschwerden", "Müdigkeit am Abend");
    await settled(page);
    await press(page, "Nächste Kategorie");

    await shows(page, "Körpergewicht", "h3");
    await typeAnswer(page, "Körpergewicht", "80.55");
    await typeAnswer(page, "Systolischer Blutdruck", "135");
    await settled(page);

    // The date and time through the browser's own picker, by keyboard: Tab from the field reaches its button,
    // Enter opens the popup. Firefox's popup offers a date only.
    const when = "Zeitpunkt der Messung";
    const native = () =>
      element(
        page,
        "the picker's date-time input",
        (q) => window.__ff.question(q)?.querySelector('input[type="datetime-local"]') ?? null,
        when,
      );
    const pickerOpen = async () => (await native()).evaluate((el) => el.matches(":open"));
    await (
      await element(
        page,
        "the date-time text",
        (q) => window.__ff.question(q)?.querySelector("input.datetime__text") ?? null,
        when,
      )
    ).click();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      `Datum und Uhrzeit für „${when}“ wählen`,
    );
    const popup = await datePickerPopup(browser);
    // Escape in the popup closes it and changes nothing.
    await page.keyboard.press("Enter");
    await until(page, "the picker open", (q) => !!window.__ff.question(q)?.querySelector("input:open"), when);
    await popup.press("Escape");
    await until(page, "the picker closed", (q) => !window.__ff.question(q)?.querySelector("input:open"), when);
    expect(await fieldValue(page, when)).toBe("");
    // Enter on the day the popup offers (today) takes it: the field shows that day and a time, and saves it.
    const before = new Date();
    await page.keyboard.press("Enter");
    expect([String(before.getDate()), String(new Date().getDate())]).toContain(await popup.focusedDay());
    expect(await pickerOpen()).toBe(true);
    await popup.press("Enter");
    await until(
      page,
      "the picked date in the field",
      (q) =>
        /^\d\d\.\d\d\.\d{4} \d\d:\d\d$/.test(
          (window.__ff.question(q)?.querySelector("input.datetime__text") as HTMLInputElement | null)?.value ?? "",
        ),
      when,
    );
    const picked = await fieldValue(page, when);
    const after = new Date();
    expect([dayOf(before), dayOf(after)]).toContain(picked.slice(0, 10));
    // The time is the time of day the picker was opened (the popup has none to offer): within the test's span.
    const [hh, mm] = picked.slice(11).split(":").map(Number);
    const minutes = hh! * 60 + mm!;
    expect(minutes).toBeGreaterThanOrEqual(before.getHours() * 60 + before.getMinutes());
    expect(minutes).toBeLessThanOrEqual(
      after.getHours() * 60 + after.getMinutes() + (dayOf(after) !== dayOf(before) ? 1440 : 0),
    );
    expect(await pickerOpen()).toBe(false);
    await settled(page);

    // A file for the measurement.
    await attach(page, when, file);
    await until(page, "the file listed", () => window.__ff.hasText("messung.png", ".attachments__list"));
    await press(page, "Nächste Kategorie");
    await choose(page, "Ab welcher Gewichtszunahme sollte die Praxis informiert werden?", "2 kg in 3 Tagen");
    await settled(page);

    // On the server: nine answers, each once, with their values; the file.
    const byTitle = new Map(questionsOf(heart).map((q) => [q.Title, q]));
    const optionId = (q: string, text: string) => byTitle.get(q)!.AnswerOptions.find((o) => textOf(o) === text)!.Id;
    const answers = await answersOf(heart, patientId);
    expect(answers).toHaveLength(9);
    expect(new Set(answers.map((a) => a.QuestionId)).size).toBe(9);
    const of = (title: string) => answers.find((a) => a.QuestionId === byTitle.get(title)!.Id)!;
    expect(of("Wie stark ist die Atemnot bei Belastung?").AnswerOptionId).toBe(
      optionId("Wie stark ist die Atemnot bei Belastung?", "stark"),
    );
    expect([...(of("Wo genau?").AnswerOptionIds ?? [])].sort()).toEqual(
      [optionId("Wo genau?", "Knöchel"), optionId("Wo genau?", "Bauch")].sort(),
    );
    expect(of("Weitere Beschwerden").TextResponse).toBe("Müdigkeit am Abend");
    expect(of("Körpergewicht").NumericalResponse).toBe(80.55);
    expect(of("Systolischer Blutdruck").NumericalResponse).toBe(135);
    expect(of(when).DateTimeResponse).toBe(picked);
    const patient = await admin<{ PatientDataId: number }>(
      "GET",
      `/patients?patientId=${patientId}&surveyId=${heart.Id}`,
    );
    const files = await admin<{ NumberOfFileAttachment: number }[]>(
      "GET",
      `/file-attachments/count?patientDataId=${patient.PatientDataId}`,
    );
    expect(files.map((f) => f.NumberOfFileAttachment)).toEqual([1]);

    await submitSurvey(page);
    await shows(page, "Ihre Angaben wurden gespeichert.");
    const closed = await admin<{ State: string }>("GET", `/patients?patientId=${patientId}&surveyId=${heart.Id}`);
    expect(closed.State).toBe("Closed");
  });

  it("marks wounds on the image: each marker on its point, the chosen ones saved", async () => {
    const { page } = firefox;
    const wound = await survey(WOUND);
    const patientId = `FF_WOUND_${Date.now()}`;
    await page.goto(`${app}/surveys`);
    await rowMenu(page, WOUND, "Umfrage ausfüllen");
    await startCase(page, patientId);
    await press(page, "Speichern und weiter");
    await choose(page, "Art der Wunde", "chronisch");
    await choose(page, "Mobilität", "eingeschränkt mobil");
    await settled(page);
    await press(page, "Weiter");

    const title = "Wo befinden sich die Wunden?";
    const image = questionsOf(wound).find((q) => q.Title === title)!;
    await until(
      page,
      "the image loaded",
      (q) => {
        const img = window.__ff.question(q)?.querySelector("img") as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      },
      title,
    );
    // Every marker's dot sits on its point of the picture (within 1.5 px), and nothing is wider than the page.
    const placed = await page.evaluate((q) => {
      const box = window.__ff.question(q)!;
      const img = box.querySelector("img")!.getBoundingClientRect();
      return {
        width: img.width,
        height: img.height,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        markers: Array.from(box.querySelectorAll('[data-testid="image-marker"]')).map((m) => {
          const dot = m.querySelector(".marker__dot")!.getBoundingClientRect();
          return {
            text: window.__ff.norm(m.textContent),
            x: dot.x + dot.width / 2 - img.x,
            y: dot.y + dot.height / 2 - img.y,
          };
        }),
      };
    }, title);
    expect(placed.overflow).toBeLessThanOrEqual(0);
    expect(placed.markers.map((m) => m.text)).toEqual(image.AnswerOptions.map(textOf));
    for (const [i, o] of image.AnswerOptions.entries()) {
      expect(Math.abs(placed.markers[i]!.x - o.X! * placed.width), `${textOf(o)} across`).toBeLessThanOrEqual(1.5);
      expect(Math.abs(placed.markers[i]!.y - o.Y! * placed.height), `${textOf(o)} down`).toBeLessThanOrEqual(1.5);
    }
    await choose(page, title, "Knie");
    await choose(page, title, "Fuß");
    await settled(page);
    const answers = await answersOf(wound, patientId);
    const ids = (t: string) => image.AnswerOptions.find((o) => textOf(o) === t)!.Id;
    expect(answers).toEqual([expect.objectContaining({ QuestionId: image.Id })]);
    expect([...(answers[0]!.AnswerOptionIds ?? [])].sort()).toEqual([ids("Knie"), ids("Fuß")].sort());
  });

  it("no page error, console error or blocked script on the way", () => {
    expect(firefox.problems).toEqual([]);
  });
});
