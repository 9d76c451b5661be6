import { expect, test } from "./test";
import { unzipSync, strFromU8 } from "fflate";
import fs from "node:fs";
import { api } from "./api";
import { surveyWithCases } from "./statistics-support";
import { chooseLanguage, signIn } from "./support";

test("an analyst filters, toggles, benchmarks, exports and downloads attachments", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await surveyWithCases(page, "Statistik-Test", ["Ja", "Ja", "Nein", "Ja"]);
  const clone = await api<{ Id: number }>(page, "POST", `/surveys/${id}/clone`);
  const cloneId = clone.Id;
  await api(page, "POST", `/surveys/${cloneId}/approve`);

  await page.goto(`/survey/${id}/statistics`);
  await expect(page.getByRole("heading", { level: 1, name: "Statistik-Test" })).toBeVisible();
  await expect(page.getByText("4 abgeschlossen von 0 angestrebten")).toBeVisible();
  const choices = page.getByRole("table", { name: "Antworten auf Zufrieden?" });
  await expect(choices.getByRole("row", { name: /Ja/ })).toContainText("3");
  await expect(choices.getByRole("row", { name: /Ja/ })).toContainText("75,00 %");
  await expect(page.getByText("Durchschnitt")).toBeVisible();

  // Sorting by keyboard: Tab from the page's start to the column's button, Enter; again for the other way.
  const answers = choices.locator("tbody th");
  await expect(answers).toHaveText(["Ja", "Nein"]);
  const byAnswer = choices.getByRole("button", { name: "Nach Antwort sortieren" });
  const byCount = choices.getByRole("button", { name: "Nach Anzahl sortieren" });
  await expect(byCount).toBeEnabled();
  const focused = (target: typeof byAnswer) => target.evaluate((e) => e === document.activeElement);
  for (let presses = 0; !(await focused(byAnswer)); presses++) {
    expect(presses, "Tab presses to the first column's sort button").toBeLessThan(40);
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press("Tab");
  await expect(byCount).toBeFocused();
  const countHeader = choices.getByRole("columnheader", { name: "Nach Anzahl sortieren" });
  await expect(countHeader).toHaveAttribute("aria-sort", "none");
  await page.keyboard.press("Enter");
  await expect(countHeader).toHaveAttribute("aria-sort", "descending");
  await expect(answers).toHaveText(["Ja", "Nein"]);
  await page.keyboard.press("Enter");
  await expect(countHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(answers).toHaveText(["Nein", "Ja"]);
  await expect(choices.getByRole("row", { name: /Nein/ })).toContainText("25,00 %");
  await expect(byCount).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(byAnswer).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(choices.getByRole("columnheader", { name: "Nach Antwort sortieren" })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  await expect(countHeader).toHaveAttribute("aria-sort", "none");
  await expect(answers).toHaveText(["Ja", "Nein"]);
  await page.keyboard.press("Enter");
  await expect(answers).toHaveText(["Nein", "Ja"]);

  // Filter by one survey id: the figures reload when the selector closes.
  await page.getByText("Filter", { exact: true }).click();
  await page.locator("summary", { hasText: "Umfrage-IDs" }).click();
  await page.getByLabel(`S${id}_3`, { exact: true }).check();
  await page.locator("summary", { hasText: "Umfrage-IDs" }).click();
  await expect(page).toHaveURL(new RegExp(`patient=S${id}_3`));
  await expect(page.getByText("1 abgeschlossen von 0 angestrebten")).toBeVisible();
  await expect(choices.getByRole("row", { name: /Nein/ })).toContainText("100,00 %");
  await page.getByRole("link", { name: "Filter zurücksetzen" }).click();
  await expect(page.getByText("4 abgeschlossen von 0 angestrebten")).toBeVisible();

  // Toggles: pie charts and the word cloud; both in the URL.
  await page.getByRole("switch", { name: "Kreisdiagramme" }).click();
  await expect(page.getByRole("img", { name: "Kreisdiagramm der Antworten auf Zufrieden?" })).toBeVisible();
  await page.getByRole("switch", { name: "Wortwolke" }).click();
  await expect(page.getByRole("list", { name: "Wortwolke der Antworten auf Kommentar" })).toContainText("gewartet");
  await expect(page).toHaveURL(/pie=1/);

  // Free-text details with a search.
  await page.getByRole("link", { name: "Alle 4 Antworten zeigen" }).click();
  const details = page.getByRole("dialog", { name: "Antworten auf Kommentar" });
  await expect(details.getByText("4 von 4 Antworten angezeigt")).toBeVisible();
  await details.getByRole("searchbox").fill("versorgt");
  await expect(details.getByText("2 von 2 Antworten angezeigt")).toBeVisible();
  await details.getByRole("button", { name: "Schließen" }).click();
  await expect(details).toBeHidden();

  // Benchmark against the clone, then reset with the same button.
  await page.getByRole("link", { name: "Benchmark" }).click();
  const bench = page.getByRole("dialog", { name: "Mit einer anderen Umfrage vergleichen" });
  await bench.getByRole("radio").first().check();
  await bench.getByRole("button", { name: "Jetzt vergleichen" }).click();
  await expect(page.getByRole("columnheader", { name: "Anzahl Benchmark" }).first()).toBeVisible();
  await page.getByRole("link", { name: /Benchmark: .*zurücksetzen/ }).click();
  await expect(page.getByRole("columnheader", { name: "Anzahl Benchmark" })).toHaveCount(0);

  // Export: a zip named after the title, with the responses and a codebook.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export (CSV)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Statistik-Test.*\.zip$/);
  const entries = unzipSync(new Uint8Array(fs.readFileSync(await file.path())));
  const names = Object.keys(entries);
  const csvName = names.find((n) => /respons|antwort/i.test(n) && n.endsWith(".csv"))!;
  expect(csvName).toBeTruthy();
  expect(names.some((n) => /codebook/i.test(n))).toBe(true);
  const rows = strFromU8(entries[csvName])
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  expect(rows).toHaveLength(5);

  // Attachments: list, download all as a zip.
  await page.getByRole("link", { name: "Anhänge (1)" }).click();
  const files = page.getByRole("dialog", { name: "Anhänge zu Kommentar" });
  await expect(files.getByRole("cell", { name: "befund.txt", exact: true })).toBeVisible();
  const zip = page.waitForEvent("download");
  await files.getByRole("button", { name: /Alle herunterladen/ }).click();
  const archive = unzipSync(new Uint8Array(fs.readFileSync(await (await zip).path())));
  expect(Object.keys(archive).some((n) => n.endsWith("befund.txt"))).toBe(true);
});

test("the display switches are switches: Space and Enter toggle them, the address keeps them, no script needed", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "admin");
  const id = await surveyWithCases(page, `Schalter ${Date.now()}`, ["Ja", "Nein"]);
  await page.goto(`/survey/${id}/statistics?raw=1`);
  const pies = page.getByRole("switch", { name: "Kreisdiagramme" });
  const percent = page.getByRole("switch", { name: "Punkte in Prozent" });
  const pie = page.getByRole("img", { name: "Kreisdiagramm der Antworten auf Zufrieden?" });
  await expect(pies).toHaveAttribute("aria-checked", "false");
  await expect(percent).toHaveAttribute("aria-checked", "false");
  // A real control, reached by Tab: a button, which Space and Enter press (a link would scroll on Space).
  expect(await pies.evaluate((e) => e.tagName)).toBe("BUTTON");
  await pies.focus();
  await page.keyboard.press("Space");
  await expect(pies).toHaveAttribute("aria-checked", "true");
  await expect(pie).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/survey/${id}/statistics\\?raw=1&pie=1$`));
  // Focus stays on the switch, so it can be pressed again.
  await expect(pies).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(pies).toHaveAttribute("aria-checked", "false");
  await expect(pie).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/survey/${id}/statistics\\?raw=1$`));
  await percent.focus();
  await page.keyboard.press("Space");
  await expect(percent).toHaveAttribute("aria-checked", "true");
  await expect(page).toHaveURL(new RegExp(`/survey/${id}/statistics\\??$`));

  // The address is the state: a bookmark opens the same view, and without scripts the switches still work.
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto(`/survey/${id}/statistics?raw=1&pie=1`);
  await expect(plain.getByRole("switch", { name: "Kreisdiagramme" })).toHaveAttribute("aria-checked", "true");
  await expect(plain.getByRole("img", { name: "Kreisdiagramm der Antworten auf Zufrieden?" })).toBeVisible();
  await plain.getByRole("switch", { name: "Punkte in Prozent" }).click();
  await expect(plain).toHaveURL(new RegExp(`/survey/${id}/statistics\\?pie=1$`));
  await expect(plain.getByRole("switch", { name: "Punkte in Prozent" })).toHaveAttribute("aria-checked", "true");
  await expect(plain.getByRole("switch", { name: "Kreisdiagramme" })).toHaveAttribute("aria-checked", "true");
  await context.close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the results tab is readable and its filters work as a form", async ({ page }) => {
    await signIn(page, "admin");
    const list = await page.request.get("/api/surveys?filterString=Herzinsuffizienz");
    const heart = ((await list.json()) as { Data: { Id: number }[] }).Data[0].Id;
    await page.goto(`/survey/${heart}/statistics`);
    // Other specs may have added cases to the demo survey: at least its 60 demo cases count.
    const completed = page.getByText(/^\d+ abgeschlossen von 250 angestrebten$/);
    await expect(completed).toBeVisible();
    const before = Number((await completed.textContent())!.split(" ")[0]);
    expect(before).toBeGreaterThanOrEqual(60);
    const breath = page.getByRole("table", { name: "Antworten auf Wie stark ist die Atemnot bei Belastung?" });
    await expect(breath).toBeVisible();
    // Its rows in their own order; sorting needs the page's scripts, so its buttons are off.
    await expect(breath.getByRole("columnheader", { name: "Nach Anzahl sortieren" })).toHaveAttribute(
      "aria-sort",
      "none",
    );
    await expect(breath.getByRole("button", { name: "Nach Anzahl sortieren" })).toBeDisabled();
    await page.getByText("Filter", { exact: true }).click();
    await page.locator("summary", { hasText: "Geschlecht" }).click();
    await page.getByLabel("weiblich", { exact: true }).check();
    await page.getByRole("button", { name: "Anwenden" }).click();
    await expect(page).toHaveURL(/pq\d+=\d+/);
    const after = Number(
      (await page.getByText(/^\d+ abgeschlossen von 250 angestrebten$/).textContent())!.split(" ")[0],
    );
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
  });
});

test("the export is in the language of the page it is asked from, whatever another session chose", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // One analyst in two browsers: A works in English, then B switches to German.
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  await signIn(a, "admin");
  await signIn(b, "admin");
  const id = await surveyWithCases(a, "Export-Sprache", ["Ja", "Nein"]);
  await a.goto(`/survey/${id}/statistics`);
  await chooseLanguage(a, "English");
  await b.goto(`/survey/${id}/statistics`);
  await chooseLanguage(b, "English");
  await chooseLanguage(b, "Deutsch");

  const exported = async (page: typeof a, button: string) => {
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: button }).click();
    const entries = unzipSync(new Uint8Array(fs.readFileSync(await (await download).path())));
    return {
      header: strFromU8(entries["responses.csv"])
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)[0],
      codebook: strFromU8(entries["codebook.csv"])
        .replace(/^\uFEFF/, "")
        .split(/\r?\n/)[0],
    };
  };
  // A's page is still English after reloading: so is its export.
  await a.reload();
  await expect(a.locator("html")).toHaveAttribute("lang", "en-US");
  const english = await exported(a, "Export (CSV)");
  expect(english.header).toMatch(/^PatientId,State,Created,Closed,/);
  expect(english.codebook).toBe("Column,Question,Kind,Codes");
  const german = await exported(b, "Export (CSV)");
  expect(german.header).toMatch(/^PatientId;State;Created;Closed;/);
  expect(german.codebook).toBe("Spalte;Frage;Art;Codes");
  await a.context().close();
  await b.context().close();
});
