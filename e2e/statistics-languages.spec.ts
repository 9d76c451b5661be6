import { expect, test } from "./test";
import { strFromU8, unzipSync } from "fflate";
import fs from "node:fs";
import { api } from "./api";
import { expectNoSeriousViolations as check } from "./axe";
import { chooseLanguage, signIn } from "./support";

/**
 * The statistics in a survey's languages (docs/decisions/056-statistics-languages.md), on the demo survey in
 * German, English, Turkish and Arabic: the labels' language chosen by links kept in the address, by pointer and
 * by keyboard, the interface's language by default; the cases filtered by the language they were filled in;
 * the export's labels in the language shown.
 */

const TITLE = "Befinden im Krankenhaus (mehrsprachig)";

async function multilingualSurvey(page: Parameters<typeof api>[0]): Promise<number> {
  const listed = await api<{ Data: { Id: number; Title: string }[] }>(page, "GET", "/surveys");
  return listed.Data.find((s) => s.Title === TITLE)!.Id;
}

test("the survey's labels in a chosen language, and the cases filtered by theirs", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  const id = await multilingualSurvey(page);
  await page.goto(`/survey/${id}/statistics`);
  // German, the person's language and the survey's source, by default.
  await expect(page.getByRole("heading", { level: 1, name: TITLE })).toBeVisible();
  await expect(page.getByText("40 abgeschlossen von 100 angestrebten")).toBeVisible();
  const choice = page.getByRole("navigation", { name: "Sprache der Fragen und Antworten" });
  await expect(choice.getByRole("link")).toHaveText(["Deutsch (Ausgangssprache)", "English", "Türkçe", "العربية"]);
  await expect(choice.getByRole("link", { name: "Deutsch (Ausgangssprache)" })).toHaveAttribute("aria-current", "true");

  // Turkish by pointer: every label in Turkish, the figures as they were, the choice in the address.
  await choice.getByRole("link", { name: "Türkçe" }).click();
  await expect(page).toHaveURL(/[?&]lang=tr(&|#|$)/);
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText("Hastanede iyi oluş (çok dilli)");
  await expect(heading).toHaveAttribute("lang", "tr");
  await expect(choice.getByRole("link", { name: "Türkçe" })).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("navigation", { name: "Kategorien" })).toContainText("Genel durum");
  const pain = page.getByRole("heading", { level: 3, name: "Şu anda ağrınız ne kadar şiddetli?" });
  await expect(pain).toHaveAttribute("lang", "tr");
  await expect(page.getByRole("table", { name: /Şu anda ağrınız/ }).locator("tbody th")).toHaveText([
    "yok",
    "hafif",
    "orta",
    "şiddetli",
  ]);
  await expect(page.getByText("40 abgeschlossen von 100 angestrebten")).toBeVisible();

  // Arabic by keyboard: Tab to its link, Enter; right to left, kept over a reload (a bookmark opens it so).
  const arabic = choice.getByRole("link", { name: "العربية" });
  await arabic.focus();
  await expect(arabic).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]lang=ar(&|#|$)/);
  await expect(heading).toHaveText("الشعور بالراحة في المستشفى (متعدد اللغات)");
  await expect(heading).toHaveAttribute("dir", "rtl");
  await page.reload();
  await expect(heading).toHaveText("الشعور بالراحة في المستشفى (متعدد اللغات)");

  // The export's codebook in the language shown; responses.csv holds each case's language.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export (CSV)" }).click();
  const files = unzipSync(new Uint8Array(fs.readFileSync(await (await download).path())));
  const codebook = strFromU8(files["codebook.csv"]);
  expect(codebook).toContain("ما مدى شدة ألمكم الآن؟");
  expect(codebook).not.toContain("Wie stark sind Ihre Schmerzen gerade?");
  const [header, ...rows] = strFromU8(files["responses.csv"])
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  const at = header.split(";").indexOf("Language");
  expect(at).toBe(4);
  const languages = rows.map((r) => r.split(";")[at]);
  expect(["de", "en", "tr", "ar"].map((l) => languages.filter((x) => x === l).length)).toEqual([10, 10, 10, 10]);

  // Filter by the case's language: Turkish and Arabic cases only.
  await page.getByText("Filter", { exact: true }).click();
  const filter = page.locator("summary", { hasText: "Sprache des Falls" });
  await filter.click();
  await page.getByLabel("Türkisch", { exact: true }).check();
  await page.getByLabel("Arabisch", { exact: true }).check();
  // Arabic labels right to left beside the German interface, the filter open: axe finds nothing serious.
  await check(page, "statistics in Arabic, language filter open");
  await filter.click();
  await expect(page).toHaveURL(/caseLang=tr&caseLang=ar/);
  await expect(page.getByText("20 abgeschlossen von 100 angestrebten")).toBeVisible();
  // The labels' language stays as chosen.
  await expect(heading).toHaveText("الشعور بالراحة في المستشفى (متعدد اللغات)");
  await page.getByRole("link", { name: "Filter zurücksetzen" }).click();
  await expect(page.getByText("40 abgeschlossen von 100 angestrebten")).toBeVisible();

  // Someone working in English reads the English labels by default.
  await page.goto(`/survey/${id}/statistics`);
  await chooseLanguage(page, "English");
  try {
    await page.goto(`/survey/${id}/statistics`);
    await expect(heading).toHaveText("Well-being in hospital (multilingual)");
    const english = page.getByRole("navigation", { name: "Language of the questions and answers" });
    await expect(english.getByRole("link", { name: "English" })).toHaveAttribute("aria-current", "true");
    await expect(english.getByRole("link", { name: "Deutsch (source language)" })).toBeVisible();
    await page.getByText("Filters", { exact: true }).click();
    await page.locator("summary", { hasText: "Language of the case" }).click();
    await page.getByLabel("German", { exact: true }).check();
    await page.locator("summary", { hasText: "Language of the case" }).click();
    await expect(page.getByText("10 completed of 100 targeted")).toBeVisible();
  } finally {
    await chooseLanguage(page, "Deutsch");
  }
});
