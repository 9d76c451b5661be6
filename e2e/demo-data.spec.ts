import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn, surveyRow } from "./support";

// A new installation's demo data shows what a new user should try: answer markers on an image, a question
// that a preliminary answer hides, a second survey to benchmark against, and a scored instrument's total.

const WOUND = "Wundverlauf – Dokumentation";
const COPY = "Wundverlauf – Dokumentation (Station B)";

const row = surveyRow;

function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

test("the demo wound survey: markers on an image, a question hidden for the bedridden, a survey to compare", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, "admin");
  await expect(row(page, WOUND)).toBeVisible();
  await expect(row(page, COPY)).toBeVisible();

  await row(page, WOUND).locator("summary").click();
  await row(page, WOUND).getByRole("link", { name: "Umfrage ausfüllen" }).click();
  await page.waitForURL(/\/survey\/\d+$/);
  const patientId = `WUNDE_${Date.now()}`;
  // The start page's own field (the address changes a moment before the page is drawn).
  await page.locator("#patient-id").fill(patientId);
  await page.getByRole("button", { name: "Neue Umfrage starten" }).click();
  await page.getByRole("link", { name: "Speichern und weiter" }).click();
  await page.getByRole("group", { name: "Art der Wunde" }).getByLabel("chronisch").check();
  await page.getByRole("group", { name: "Mobilität" }).getByLabel("bettlägerig").check();
  await page.getByRole("button", { name: "Weiter" }).click();

  // The image question: the person's picture with a marker per place, each on the picture at both widths.
  const places = question(page, "Wo befinden sich die Wunden?");
  await expect(places.locator("img")).toBeVisible();
  for (const size of [
    { width: 390, height: 844 },
    { width: 1366, height: 900 },
  ]) {
    await page.setViewportSize(size);
    // Each marker's dot is centred on its place: its X and Y as fractions of the picture, measured in one go.
    const misplaced = await places.evaluate((block) => {
      const picture = block.querySelector("img")!.getBoundingClientRect();
      return [...block.querySelectorAll<HTMLElement>(".marker")].flatMap((marker) => {
        const dot = marker.querySelector(".marker__dot")!.getBoundingClientRect();
        const x = picture.left + (parseFloat(marker.style.left) / 100) * picture.width;
        const y = picture.top + (parseFloat(marker.style.top) / 100) * picture.height;
        const off = Math.hypot(dot.x + dot.width / 2 - x, dot.y + dot.height / 2 - y);
        return off > 2 ? [`${marker.textContent} ${Math.round(off)} px off`] : [];
      });
    });
    expect(misplaced, `markers beside their place at ${size.width} px`).toEqual([]);
    await expect(places.locator(".marker__dot")).toHaveCount(7);
  }
  // Two places are marked.
  for (const place of ["Unterschenkel", "Fuß"]) {
    await places.getByText(place, { exact: true }).click();
    await expect(places.getByRole("checkbox", { name: place })).toBeChecked();
  }
  await expect(page.getByTestId("fill")).not.toHaveAttribute("aria-busy", "true");

  // The self-care question is hidden for a bedridden patient; the rest of its category shows.
  await page.getByTestId("category-link").filter({ hasText: "Versorgung" }).click();
  await expect(question(page, "Schmerz beim Verbandwechsel (0–10)")).toBeVisible();
  await expect(question(page, "Kann der Verband selbst gewechselt werden?")).toHaveCount(0);

  // Statistics: the markers' shares as bars (several may be chosen), and the copy to benchmark against.
  await page.goto("/surveys");
  await row(page, WOUND).locator("summary").click();
  await row(page, WOUND).getByRole("link", { name: "Statistik" }).click();
  await expect(page.getByText(/^5\d abgeschlossen von 150 angestrebten$/)).toBeVisible();
  await page.getByRole("switch", { name: "Kreisdiagramme" }).click();
  await expect(
    page.getByRole("img", { name: "Balkendiagramm der Antworten auf Wo befinden sich die Wunden?" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Benchmark" }).click();
  const bench = page.getByRole("dialog", { name: "Mit einer anderen Umfrage vergleichen" });
  await bench.getByRole("radio", { name: new RegExp(COPY.replace(/[()]/g, "\\$&")) }).check();
  await bench.getByRole("button", { name: "Jetzt vergleichen" }).click();
  await expect(page.getByRole("link", { name: `Benchmark: ${COPY} (zurücksetzen)` })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Anzahl Benchmark" }).first()).toBeVisible();
  // The copy's own demo cases answered: its figures stand beside the first survey's.
  await expect(page.getByText(/Benchmark: 3\d Antworten/).first()).toBeVisible();
});

test("the demo PHQ-9, imported from its FHIR file: its statistics show the total of its demo cases", async ({
  page,
}) => {
  const PHQ9 = "PHQ-9 quick depression assessment panel";
  await signIn(page, "admin");
  await row(page, PHQ9).locator("summary").click();
  await row(page, PHQ9).getByRole("link", { name: "Statistik" }).click();
  const total = page.getByRole("region", { name: "Patient health questionnaire 9 item total score" });
  await expect(total).toBeVisible();
  await expect(total).toContainText("20 Fälle mit Gesamtpunktzahl");
  await expect(
    total.getByRole("table", { name: "Verteilung: Patient health questionnaire 9 item total score" }),
  ).toBeVisible();
});
