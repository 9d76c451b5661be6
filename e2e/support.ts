import path from "node:path";
import Database from "better-sqlite3";
import { expect, type Page } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = port === 3100 ? "data-e2e" : `data-e2e-${port}`;

export const accounts = {
  editor: { username: "editor", password: "editor123", fullName: "Dr. Anna Schneider" },
  approver: { username: "approver", password: "approver123", fullName: "Prof. Dr. Markus Weber" },
  admin: { username: "admin", password: "admin123", fullName: "Julia Hoffmann" },
  user: { username: "user", password: "user123", fullName: "Thomas Becker" },
  newcomer: { username: "newcomer", password: "newcomer123", fullName: "Laura Fischer" },
  outsider: { username: "outsider", password: "outsider123", fullName: "" },
} as const;

export type AccountName = keyof typeof accounts;

/** Signs in through the embedded provider's real login page, starting from `start`. */
export async function signIn(page: Page, who: AccountName, start = "/surveys") {
  await page.goto(start);
  await fillLogin(page, who);
}

/** Fills and sends the provider's login page that is showing now. */
export async function fillLogin(page: Page, who: AccountName) {
  const account = accounts[who];
  await expect(page.locator("#username")).toBeVisible();
  await page.locator("#username").fill(account.username);
  await page.locator("#password").fill(account.password);
  await page.locator("button[type=submit]").click();
}

/** Opens the e2e server's SQLite database, for checks and for ending a session from outside. */
export function openDatabase() {
  return new Database(path.join(E2E_DATA_DIR, "survey.sqlite"));
}

/**
 * A survey's row in the list, by its title as stored (the row shows it with soft hyphens in its long words, which
 * text matching would trip over).
 */
export function surveyRow(page: Page, title: string) {
  return page.locator(`[data-testid=survey-row][data-title=${JSON.stringify(title)}]`);
}
