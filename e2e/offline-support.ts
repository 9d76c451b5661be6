import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "@playwright/test";
import config from "../playwright.config";
import { Gate } from "./gate";
import { accounts } from "./support";
import { appPort, appUrl, expect, gotoAsAPerson, pageStarted } from "./test";
import { watchTexts } from "./texts";

/** A gate in front of the e2e server, and a browser profile kept on disk across restarts. */
export async function offlineRig() {
  const gate = new Gate(appPort());
  await gate.start();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "offline-profile-"));
  const url = (p: string) => `http://localhost:${gate.port}${p}`;
  return {
    gate,
    url,
    launch: () => launch(profile),
    async dispose(context?: BrowserContext) {
      await context?.close().catch(() => undefined);
      await gate.stop();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

async function launch(profile: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(profile, {
    ...config.use?.launchOptions,
    locale: "de-DE",
  });
  watchTexts(context);
  // Each page of the device opens an address as a person would: once it has come alive (e2e/test.ts).
  context.on("page", gotoAsAPerson);
  context.pages().forEach(gotoAsAPerson);
  const page = context.pages()[0] ?? (await context.newPage());
  // The browser's HTTP cache would hide what the service worker does not keep.
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  return { context, page };
}

/** Signs in at the app's own address; the session cookie is then sent to the gate's port too. */
export async function signInAt(page: Page, who: keyof typeof accounts) {
  await page.goto(`${appUrl()}/surveys`);
  const account = accounts[who];
  await page.locator("#username").fill(account.username);
  await page.locator("#password").fill(account.password);
  await page.locator("button[type=submit]").click();
  await expect(page.getByTestId("greeting")).toBeVisible();
}

export async function goOffline(context: BrowserContext, gate: Gate) {
  gate.cut();
  await context.setOffline(true);
}

export async function goOnline(context: BrowserContext, gate: Gate) {
  gate.restore();
  await context.setOffline(false);
}

export function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** Downloads a survey from the list for offline use and waits for the check mark. */
export async function download(page: Page, title: string) {
  // The download is the page's script's work: a click before it runs reaches the server-drawn menu instead.
  await pageStarted(page, 20_000).catch(() => undefined);
  const row = page.getByTestId("survey-row").filter({ hasText: title });
  await row.locator("summary").click();
  await row.getByTestId("row-download").click();
  // The notice says whether everything was kept: a failed download must fail here, not at an offline page.
  await expect(page.getByText("Die Umfrage ist offline verfügbar.")).toBeVisible({ timeout: 30_000 });
  await expect(row.getByTestId("row-ready")).toBeVisible();
}

/** Starts a case from the start page (online or offline). */
export async function startCase(page: Page, patientId: string) {
  await page
    .getByLabel(/Patienten/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
}

/** Starts a case on the device (offline) from the kept start page and gives one answer. */
export async function fillOffline(page: Page, url: string, patientId: string, submit = false) {
  await page.goto(url);
  await startCase(page, patientId);
  await expect(page.getByTestId("fill-offline-notice")).toBeVisible();
  await question(page, "Befinden").getByLabel("gut").check();
  // The page is busy until the answer is kept on the device.
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");
  if (submit) {
    await page.getByTestId("submit-survey").click();
    await expect(page).toHaveURL(/page=done/);
  }
}

export const oneQuestion = [{ Title: "Befinden", Type: "SingleSelection", answers: ["gut", "schlecht"] }];
