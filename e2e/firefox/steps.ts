import type { Page } from "puppeteer-core";
import { element, pageStarted, until } from "./firefox";

/** What a person does on the app's pages, in Firefox: each step waits for what it needs. */

export type Account = "user" | "editor" | "admin";

/** Signs in through the embedded provider's own login page, starting from the survey list. */
export async function signIn(page: Page, app: string, who: Account) {
  await page.goto(`${app}/surveys`);
  const username = await element(page, "the provider's user name field", () => document.querySelector("#username"));
  await username.type(who);
  await (await element(page, "the password field", () => document.querySelector("#password"))).type(`${who}123`);
  await (await element(page, "the sign-in button", () => document.querySelector("button[type=submit]"))).click();
  await element(page, "the greeting on the survey list", () => document.querySelector('[data-testid="greeting"]'));
  await pageStarted(page);
}

/** Clicks a shown button, link or summary by its text or name. */
export async function press(page: Page, text: string) {
  await (await element(page, `the control "${text}"`, (t) => window.__ff.control(t), text)).click();
}

/** Waits until a shown element holds this text. */
export function shows(page: Page, text: string, selector = "body") {
  return until(page, `the text "${text}"`, (t, s) => window.__ff.hasText(t, s), text, selector);
}

/** Chooses an answer (a choice or an image marker) of a question, and waits until it is chosen. */
export async function choose(page: Page, question: string, answer: string) {
  const label = await element(
    page,
    `"${answer}" of "${question}"`,
    (q, a) => window.__ff.label(window.__ff.question(q), a),
    question,
    answer,
  );
  await label.click();
  await isChosen(page, question, answer);
}

export function isChosen(page: Page, question: string, answer: string) {
  return until(
    page,
    `"${answer}" of "${question}" chosen`,
    (q, a) => window.__ff.label(window.__ff.question(q), a)?.querySelector("input")?.checked === true,
    question,
    answer,
  );
}

/** The question's own text field (a textarea, a number, the date-time text). */
export function field(page: Page, question: string) {
  return element(
    page,
    `the field of "${question}"`,
    (q) => window.__ff.question(q)?.querySelector(":scope > textarea, :scope input.input, :scope textarea") ?? null,
    question,
  );
}

/** Types into a question's field and leaves it with Tab, which saves it. */
export async function typeAnswer(page: Page, question: string, text: string) {
  const input = await field(page, question);
  await input.click();
  await input.type(text);
  await page.keyboard.press("Tab");
}

/** The value a question's field shows. */
export async function fieldValue(page: Page, question: string) {
  return (await field(page, question)).evaluate((el) => (el as HTMLInputElement).value);
}

/** Waits until the fill page has stored every answer given (on the server, or on the device offline). */
export function settled(page: Page) {
  return until(page, "the fill page done saving", () => {
    const fill = document.querySelector('[data-testid="fill"]');
    return !!fill && fill.getAttribute("aria-busy") !== "true";
  });
}

/** Attaches a file to a question through its file field. */
export async function attach(page: Page, question: string, file: string) {
  const input = await element(
    page,
    `the attachments field of "${question}"`,
    (q) => window.__ff.question(q)?.querySelector('input[type="file"]') ?? null,
    question,
  );
  await (input as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(file);
}

/** Starts (or reopens) the case of a patient id on a survey's start page. */
export async function startCase(page: Page, patientId: string) {
  const id = await element(page, "the patient id field", () => document.querySelector("#patient-id"));
  await id.type(patientId);
  await press(page, "Neue Umfrage starten");
  await until(page, `the fill page of ${patientId}`, (p) => location.pathname.endsWith(`/fill/${p}`), patientId);
  // A start page not yet alive sends its form to the server: the fill page then loads afresh.
  await pageStarted(page);
}

/** A survey's row on the list, found by its title. */
function row(page: Page, title: string) {
  return element(
    page,
    `the row of "${title}"`,
    (t) =>
      Array.from(document.querySelectorAll('[data-testid="survey-row"]')).find(
        (r) => window.__ff.norm(r.querySelector(".row__title")?.textContent) === t,
      ),
    title,
  );
}

/** Opens a row's menu and presses one of its entries. */
export async function rowMenu(page: Page, title: string, entry: string) {
  const menu = await (await row(page, title)).$("summary");
  if (!menu) throw new Error(`the row of "${title}" has no menu`);
  await menu.click();
  await (
    await element(
      page,
      `"${entry}" in the menu of "${title}"`,
      (t, e) => {
        const r = Array.from(document.querySelectorAll('[data-testid="survey-row"]')).find(
          (x) => window.__ff.norm(x.querySelector(".row__title")?.textContent) === t,
        );
        return r ? window.__ff.control(e, r) : null;
      },
      title,
      entry,
    )
  ).click();
}

/** The row's state as the list shows it (downloaded, unavailable offline). */
export async function rowState(page: Page, title: string) {
  return (await row(page, title)).evaluate((r) => ({
    downloaded: r.getAttribute("data-downloaded") === "true",
    ready: !!r.querySelector('[data-testid="row-ready"]'),
    disabled: r.getAttribute("aria-disabled") === "true",
  }));
}

/** Sends the whole survey (the questionnaire's last button). */
export async function submitSurvey(page: Page) {
  await (
    await element(page, "the submit button", () => document.querySelector('[data-testid="submit-survey"]'))
  ).click();
}

/** Opens a tab (editor, statistics) by the start of its name, once the page has taken over the tabs. */
export async function openTab(page: Page, name: string) {
  const tab = await element(
    page,
    `the tab "${name}"`,
    (n) =>
      Array.from(document.querySelectorAll('[role="tab"]')).find((t) => window.__ff.norm(t.textContent).startsWith(n)),
    name,
  );
  await tab.click();
  await until(
    page,
    `the tab "${name}" selected`,
    (n) => {
      const selected = document.querySelector('[role="tab"][aria-selected="true"]');
      return window.__ff.norm(selected?.textContent).startsWith(n);
    },
    name,
  );
}
