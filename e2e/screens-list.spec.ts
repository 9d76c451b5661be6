import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { backToGerman, LANGUAGES, signInIn, WIDTHS } from "./screens-support";

/** The survey list on a phone and offline: the greeting in one piece, the offline filter saying what to do. */

const READY = {
  "de-DE": {
    filter: "Offline verfügbar",
    none: "Auf diesem Gerät ist noch keine Umfrage heruntergeladen.",
    how: "Damit eine Umfrage offline ausgefüllt werden kann, wählen Sie in ihrem Aktionsmenü „Für offline herunterladen“, solange das Gerät verbunden ist.",
  },
  "en-US": {
    filter: "Ready for offline",
    none: "No survey has been downloaded to this device yet.",
    how: "To fill a survey offline, choose “Download for offline” in its actions menu while the device is connected.",
  },
};

for (const language of LANGUAGES) {
  test(`the list's offline filter with nothing downloaded says so, and how a survey gets here [${language}]`, async ({
    page,
  }) => {
    const words = READY[language];
    await signInIn(page, language, "user");
    try {
      await page.goto("/surveys");
      await page.getByRole("checkbox", { name: words.filter }).check();
      const empty = page.getByTestId("ready-empty");
      await expect(empty).toHaveRole("status");
      await expect(empty).toHaveText(`${words.none}${words.how}`);
      await expect(page.getByTestId("survey-row")).toHaveCount(0);
      await page.getByRole("checkbox", { name: words.filter }).uncheck();
      await expect(empty).toHaveCount(0);
    } finally {
      await backToGerman(page, language);
    }
  });
}

/** The left and right edges of each line of the greeting's text. */
function greetingLines(page: Page) {
  return page.getByTestId("greeting").evaluate((greeting) => {
    const lines: { left: number; right: number; top: number }[] = [];
    const walker = document.createTreeWalker(greeting, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) lines.push({ left: r.left, right: r.right, top: r.top });
    }
    return lines;
  });
}

for (const language of LANGUAGES) {
  test(`the greeting keeps name and institute together, on a phone and on a desktop [${language}]`, async ({
    page,
  }) => {
    await signInIn(page, language);
    try {
      for (const viewport of WIDTHS) {
        await page.setViewportSize(viewport);
        await page.goto("/surveys");
        await expect(page.getByTestId("greeting")).toContainText("Julia Hoffmann");
        await expect(page.getByTestId("greeting")).toContainText("Universitätsklinikum Musterstadt");
        const lines = await greetingLines(page);
        expect(lines.length).toBeGreaterThanOrEqual(2);
        // Every line starts (on a phone, under the title) or ends (beside the title) where the name does.
        const edge = viewport.width < 640 ? "left" : "right";
        const at = lines.map((line) => Math.round(line[edge]));
        expect(
          Math.max(...at) - Math.min(...at),
          `the lines' ${edge} edges at ${viewport.width} px`,
        ).toBeLessThanOrEqual(1);
        // One block, line under line.
        const tops = lines.map((line) => line.top).sort((a, b) => a - b);
        for (let i = 1; i < tops.length; i++) expect(tops[i]! - tops[i - 1]!).toBeLessThan(40);
      }
    } finally {
      await backToGerman(page, language);
    }
  });
}
