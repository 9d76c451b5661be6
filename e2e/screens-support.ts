import type { Browser, Page } from "@playwright/test";
import { chooseLanguage, signIn } from "./support";

/** Helpers of the screens' specs (screens-*.spec.ts): both widths, both languages, a page without scripts. */

export const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

export const LANGUAGES = ["de-DE", "en-US"] as const;
export type Language = (typeof LANGUAGES)[number];

/** Signs in and switches to the language; the caller switches back (the language is the account's). */
export async function signInIn(page: Page, language: Language, who: "admin" | "user" = "admin") {
  await signIn(page, who);
  if (language === "en-US") await chooseLanguage(page, "English");
}

/** Back to German for the tests after this one, which sign in as the same account. */
export async function backToGerman(page: Page, language: Language) {
  if (language === "de-DE") return;
  // The header's language buttons: on a phone they are in its menu.
  await page.setViewportSize(WIDTHS[0]!);
  await page.goto("/surveys");
  await chooseLanguage(page, "Deutsch");
}

/** A page of its own without scripts, signed in as the admin (in the language the account keeps). */
export async function pageWithoutScripts(browser: Browser, language: Language) {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: language });
  const page = await context.newPage();
  await signIn(page, "admin");
  return page;
}
