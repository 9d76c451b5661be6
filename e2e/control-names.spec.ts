import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { api } from "./api";
import { chooseLanguage, signIn } from "./support";

// What a screen reader is told of each control: a name, said once. A tooltip with the same words as the
// control's name was read a second time as its description (the rich-text toolbar, "Kalender öffnen",
// "Titel bearbeiten", the language switch), and the connection's state was a focusable span with no name.

/** The nodes of Chromium's accessibility tree whose description repeats their name, as "role: name". */
async function saidTwice(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: {
        ignored: boolean;
        role?: { value: string };
        name?: { value: string };
        description?: { value: string };
      }[];
    };
    return nodes
      .filter((n) => !n.ignored && n.name?.value && n.name.value === n.description?.value)
      .map((n) => `${n.role?.value}: ${n.name?.value}`);
  } finally {
    await cdp.detach();
  }
}

/** The name and description Chromium gives the element with focus. */
async function focusedNode(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send("Runtime.evaluate", { expression: "document.activeElement" });
    const { nodes } = await cdp.send("Accessibility.getPartialAXTree", {
      objectId: result.objectId,
      fetchRelatives: false,
    });
    return {
      role: nodes[0]?.role?.value ?? "",
      name: nodes[0]?.name?.value ?? "",
      description: nodes[0]?.description?.value ?? "",
    };
  } finally {
    await cdp.detach();
  }
}

/** The editor's start tab and its intro tab with the toolbar and an open colour palette: nothing said twice. */
async function editorSaysEachNameOnce(
  page: Page,
  id: number,
  words: { toolbar: RegExp; colour: string; black: string },
) {
  await page.goto(`/survey/${id}/edit#start`);
  await expect(page.getByTestId("survey-title")).toBeVisible();
  expect(await saidTwice(page), "the start tab").toEqual([]);
  await page.goto(`/survey/${id}/edit#intro`);
  const toolbar = page.getByRole("toolbar", { name: words.toolbar });
  await expect(toolbar.getByRole("button")).toHaveCount(16);
  await expect(toolbar.getByRole("combobox")).toHaveCount(3);
  expect(await saidTwice(page), "the intro tab's toolbar").toEqual([]);
  await toolbar.getByRole("button", { name: words.colour }).click();
  await expect(page.getByRole("button", { name: words.black, exact: true })).toBeVisible();
  expect(await saidTwice(page), "the colour palette").toEqual([]);
}

test("icon controls and the connection's state: a name of their own, said once", async ({ page }) => {
  await signIn(page, "editor");
  const id = (await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Namen ${Date.now()}` })).Id;
  await editorSaysEachNameOnce(page, id, { toolbar: /^Textformatierung/, colour: "Textfarbe", black: "Schwarz" });
  for (const [name, description] of [
    ["Titel bearbeiten", ""],
    ["Kalender öffnen", ""],
    ["Deutsch", ""],
    ["English", ""],
  ]) {
    await page.getByRole("button", { name, exact: true }).first().focus();
    expect(await focusedNode(page)).toEqual({ role: "button", name, description });
  }

  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: id, Title: "Teil 1" });
  const question = await api<{ Id: number }>(page, "POST", "/questions", {
    SurveyId: id,
    CategoryId: category.Id,
    Title: "Befinden",
    Type: "SingleSelection",
  });
  for (const Text of ["gut", "schlecht"])
    await api(page, "POST", "/answer-options", { SurveyId: id, QuestionId: question.Id, Text });
  // Loaded afresh: opened from the intro tab's address, only the hash would change and the page keep its data.
  await page.goto("about:blank");
  await page.goto(`/survey/${id}/edit#questionnaire`);
  await expect(page.getByTestId("answer")).toHaveCount(2);
  expect(await saidTwice(page), "the questionnaire tab").toEqual([]);

  // The connection's state is reached by Tab, named by its word, and described by what it means.
  await page.goto("/surveys");
  expect(await saidTwice(page), "the survey list").toEqual([]);
  const state = page.getByTestId("offline-indicator");
  await state.focus();
  expect(await focusedNode(page)).toEqual({
    role: "button",
    name: "Online",
    description: "Verbunden. Antworten werden sofort gespeichert.",
  });
  await expect(page.getByRole("tooltip")).toBeVisible();
  // Escape hides the tooltip without moving focus (WCAG 1.4.13).
  await page.keyboard.press("Escape");
  await expect(page.getByRole("tooltip")).toBeHidden();
  await expect(state).toBeFocused();
  await page.context().setOffline(true);
  await expect(state).toHaveAccessibleName("Offline");
  await page.context().setOffline(false);
  await expect(state).toHaveAccessibleName("Online");
});

test("in English: icon controls and the connection's state, said once", async ({ page }) => {
  await signIn(page, "editor");
  const id = (await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Names ${Date.now()}` })).Id;
  await chooseLanguage(page, "English");
  try {
    await editorSaysEachNameOnce(page, id, { toolbar: /^Text formatting/, colour: "Text color", black: "Black" });
    for (const name of ["Edit title", "Open calendar", "Deutsch", "English"]) {
      await page.getByRole("button", { name, exact: true }).first().focus();
      expect(await focusedNode(page)).toEqual({ role: "button", name, description: "" });
    }
    await page.getByTestId("offline-indicator").focus();
    expect(await focusedNode(page)).toEqual({
      role: "button",
      name: "Online",
      description: "Connected. Answers are saved right away.",
    });
  } finally {
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
  }
});
