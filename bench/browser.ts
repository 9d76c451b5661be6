// The browser of the benches is the one the tests use (playwright.config.ts: Debian's chromium-headless-shell,
// or the build E2E_CHROMIUM names), launched with the tests' switches, and it ends with the bench (lifetime.ts).
import fs from "node:fs";
import { chromium, type Browser } from "@playwright/test";
import * as chromeLauncher from "chrome-launcher";
import playwrightConfig, { E2E_CHROMIUM } from "../playwright.config";
import { endWithBench } from "./lifetime";

const launchOptions = playwrightConfig.use?.launchOptions ?? {};

/** Fails with what to install, before a launcher's spawn error could end the process mid-start. */
function installed(): string {
  try {
    fs.accessSync(E2E_CHROMIUM, fs.constants.X_OK);
  } catch {
    throw new Error(
      `${E2E_CHROMIUM} is missing: install Debian's chromium-headless-shell (README), or name another build in E2E_CHROMIUM`,
    );
  }
  return E2E_CHROMIUM;
}

/**
 * The tests' Chromium through Playwright, which ends the browsers it launched when the process exits (and
 * lifetime.ts makes a signal such an exit).
 */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({ ...launchOptions, executablePath: installed() });
}

/** The tests' Chromium with a debugging port, for Lighthouse. */
export async function launchBenchChrome(): Promise<chromeLauncher.LaunchedChrome> {
  const chrome = await chromeLauncher.launch({
    chromePath: installed(),
    // The headless shell is headless without asking; a full build (E2E_CHROMIUM) is asked to be.
    chromeFlags: [...(launchOptions.args ?? []), "--headless=new"],
  });
  const release = endWithBench(() => chrome.kill());
  const kill = chrome.kill.bind(chrome);
  return {
    ...chrome,
    kill: () => {
      release();
      kill();
    },
  };
}
