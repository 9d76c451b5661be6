import fs from "node:fs";
import { expect, test } from "./test";
import { api, publishedSurvey } from "./api";
import { openCase, question } from "./fill-support";
import { signIn } from "./support";
import { download, fillOffline, goOffline, offlineRig, question as offlineQuestion, signInAt } from "./offline-support";
import { backToGerman, LANGUAGES, pageWithoutScripts, signInIn } from "./screens-support";

/** Attachments chosen with a control in the page's language and opened by their names; the preview's numbers. */

const FILES = {
  "de-DE": { field: "Anhänge", choose: "Dateien auswählen …", remove: "entfernen" },
  "en-US": { field: "Attachments", choose: "Choose files …", remove: "Remove" },
};

for (const language of LANGUAGES) {
  test(`attachments are chosen with a control in the page's language and opened by their names [${language}]`, async ({
    page,
    browser,
  }) => {
    const words = FILES[language];
    await signInIn(page, language);
    try {
      const id = await publishedSurvey(page, `Dateien ${Date.now()}`, [
        { Title: "Befund", Type: "FreeText", attachments: true },
      ]);
      await openCase(page, id, "FILES_1");
      await page.waitForLoadState("networkidle");
      const box = question(page, "Befund").getByTestId("attachments");
      // The browser's own button ("Choose Files", in the browser's language) is out of sight; the page's is there.
      const input = box.getByLabel(words.field);
      const button = box.getByTestId("file-pick");
      await expect(button).toHaveText(words.choose);
      await expect(button).toBeVisible();
      expect((await input.boundingBox())!.width).toBeLessThanOrEqual(1);
      await expect(input).toHaveAccessibleName(`${words.field} ${words.choose}`);
      // Reached by keyboard from the answer above it; the page's button shows the focus.
      await question(page, "Befund").getByRole("textbox").focus();
      await page.keyboard.press("Tab");
      await expect(input).toBeFocused();
      expect(await button.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe("solid");
      // Its label opens the browser's chooser.
      const chooser = page.waitForEvent("filechooser");
      await button.click();
      await (await chooser).setFiles({ name: "befund.txt", mimeType: "text/plain", buffer: Buffer.from("Befund A") });
      // The file's name is a link to the file.
      const link = box.getByRole("link", { name: "befund.txt" });
      await expect(link).toBeVisible();
      const download = page.waitForEvent("download");
      await link.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("befund.txt");
      expect(fs.readFileSync(await file.path(), "utf8")).toBe("Befund A");
      await expect(box.getByRole("button", { name: new RegExp(words.remove) })).toBeVisible();

      // Without scripts the browser's own field shows which files were chosen, to go with the page's form.
      const plain = await pageWithoutScripts(browser, language);
      await plain.goto(`/survey/${id}/fill/FILES_1?page=questionnaire`);
      const plainBox = question(plain, "Befund").getByTestId("attachments");
      expect((await plainBox.getByLabel(words.field).boundingBox())!.width).toBeGreaterThan(100);
      await expect(plainBox.getByText(words.choose)).toBeHidden();
      await expect(plainBox.getByRole("link", { name: "befund.txt" })).toHaveAttribute(
        "href",
        new RegExp(`^/survey/${id}/files/\\d+$`),
      );
      await plain.context().close();
    } finally {
      await backToGerman(page, language);
    }
  });
}

test("the editor's preview numbers the questions as the editor does", async ({ page }) => {
  await signIn(page, "admin");
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: `Nummern ${Date.now()}` });
  const add = async (CategoryId: number, Title: string, answers: string[] = []) => {
    const q = await api<{ Id: number }>(page, "POST", "/questions", {
      SurveyId: survey.Id,
      CategoryId,
      Title,
      Type: answers.length ? "SingleSelection" : "FreeText",
    });
    const options: { Id: number }[] = [];
    for (const Text of answers) {
      options.push(
        await api<{ Id: number }>(page, "POST", "/answer-options", { SurveyId: survey.Id, QuestionId: q.Id, Text }),
      );
    }
    return options;
  };
  const first = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  await add(first.Id, "Allgemeinbefinden");
  const [yes] = await add(first.Id, "Schmerzen?", ["ja", "nein"]);
  await api(page, "POST", `/answer-options/${yes!.Id}/sub-question`, {
    SurveyId: survey.Id,
    Title: "Wo?",
    Type: "FreeText",
  });
  const second = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 2" });
  await add(second.Id, "Schlaf");

  await page.goto(`/survey/${survey.Id}/edit#questionnaire`);
  // The editor's numbers, by question.
  const editor = Object.fromEntries(
    await page
      .getByTestId("question")
      .evaluateAll((items) =>
        items.map((item) => [
          item.querySelector(".question__title")?.textContent?.trim(),
          item.querySelector(".question__number")?.textContent?.trim(),
        ]),
      ),
  );
  expect(editor).toEqual({ Allgemeinbefinden: "1", "Schmerzen?": "2", "Wo?": "2.1", Schlaf: "1" });

  await page.getByRole("button", { name: "Vorschau" }).click();
  const preview = page.getByRole("dialog", { name: "Vorschau" });
  await expect(preview.getByRole("heading", { name: "1 Allgemeinbefinden", level: 3 })).toBeVisible();
  await expect(preview.getByRole("heading", { name: "2 Schmerzen?", level: 3 })).toBeVisible();
  await preview.getByRole("radio", { name: "ja" }).check();
  await expect(preview.getByRole("heading", { name: "2.1 Wo?", level: 4 })).toBeVisible();
  await preview.getByRole("button", { name: "Nächste Kategorie" }).click();
  await expect(preview.getByRole("heading", { name: "1 Schlaf", level: 3 })).toBeVisible();
});

test("offline, a file kept on the device is chosen with the page's control and opened by its name", async () => {
  test.setTimeout(120_000);
  const rig = await offlineRig();
  const { context, page } = await rig.launch();
  try {
    await signInAt(page, "admin");
    const title = `Dateien offline ${Date.now()}`;
    const id = await publishedSurvey(page, title, [
      { Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] },
      { Title: "Befund", Type: "FreeText", attachments: true },
    ]);
    await page.goto(rig.url("/surveys"));
    await download(page, title);
    await goOffline(context, rig.gate);
    await fillOffline(page, rig.url(`/survey/${id}`), "FILES_OFF_1");
    const box = offlineQuestion(page, "Befund").getByTestId("attachments");
    await expect(box.getByTestId("file-pick")).toHaveText("Dateien auswählen …");
    expect((await box.getByLabel("Anhänge").boundingBox())!.width).toBeLessThanOrEqual(1);
    await box.getByLabel("Anhänge").setInputFiles({
      name: "notiz.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("auf dem Gerät"),
    });
    // The kept file opens from the device, without a connection.
    const link = box.getByTestId("attachment-local").getByRole("link", { name: "notiz.txt" });
    await expect(link).toBeVisible();
    const file = page.waitForEvent("download");
    await link.click();
    const kept = await file;
    expect(kept.suggestedFilename()).toBe("notiz.txt");
    expect(fs.readFileSync(await kept.path(), "utf8")).toBe("auf dem Gerät");
  } finally {
    await rig.dispose(context);
  }
});
