import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { element, launchFirefox, type Firefox } from "./firefox";
import { openTab, rowMenu, shows, signIn } from "./steps";

/**
 * The editor and statistics pages load the shared zod schemas. Under the page's Content-Security-Policy
 * (script-src without 'unsafe-eval') a probe of `new Function` is blocked, and Firefox logs that as an error:
 * these pages run without any blocked script, page error or console error.
 */

const app = inject("appUrl");
const HEART = "Herzinsuffizienz – Verlaufsbogen";

let firefox: Firefox;

describe("Firefox ESR: the editor and statistics pages under the Content-Security-Policy", () => {
  beforeAll(async () => {
    firefox = await launchFirefox();
    await signIn(firefox.page, app, "admin");
  });

  beforeEach(() => {
    firefox.problems.length = 0;
  });

  afterAll(async () => {
    await firefox?.close();
  });

  it("the editor opens on each tab without a blocked eval or any other error", async () => {
    const { page } = firefox;
    await rowMenu(page, HEART, "Umfrage bearbeiten");
    await openTab(page, "Fragebogen");
    await shows(page, "Wie stark ist die Atemnot bei Belastung?");
    expect(firefox.problems).toEqual([]);
  });

  it("statistics open with their charts without a blocked eval or any other error", async () => {
    const { page } = firefox;
    await page.goto(`${app}/surveys`);
    await rowMenu(page, HEART, "Statistik");
    await shows(page, "abgeschlossen von");
    await openTab(page, "Diagramme");
    await element(page, "a chart", () => document.querySelector("svg"));
    expect(firefox.problems).toEqual([]);
  });
});
