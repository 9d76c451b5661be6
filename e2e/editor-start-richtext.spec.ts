import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { signIn, surveyRow } from "./support";

/**
 * Runs `action` and waits for the survey save (PUT /api/surveys/{id}) it causes and, when it succeeded,
 * for the page data to be reloaded after it; returns the sent body.
 */
async function saving(page: Page, action: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => /\/api\/surveys\/\d+$/.test(r.url()) && r.request().method() === "PUT");
  const reloaded = page
    .waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()))
    .then(() => true)
    .catch(() => false);
  await action();
  const done = await response;
  if (done.ok()) await reloaded;
  return { status: done.status(), body: done.request().postDataJSON() as Record<string, unknown> };
}

/** Counts the survey saves the page sends from now on. */
function countSaves(page: Page) {
  const sent: string[] = [];
  page.on("request", (r) => {
    if (/\/api\/surveys\/\d+$/.test(r.url()) && r.method() === "PUT") sent.push(r.postData() ?? "");
  });
  return sent;
}

async function newDraft(page: Page) {
  await signIn(page, "editor");
  await page.getByRole("button", { name: "Umfrage hinzufügen" }).click();
  await expect(page).toHaveURL(/\/survey\/\d+\/edit#start$/);
  return Number(/\/survey\/(\d+)\//.exec(page.url())?.[1]);
}

test.describe("editor start tab and intro/outro texts", () => {
  test("start tab fields save one by one and are kept", async ({ page }) => {
    await newDraft(page);
    const saves = countSaves(page);
    const description = page.getByLabel("Beschreibung");
    const target = page.getByLabel("Angestrebte Ergebnisse");
    const autoId = page.getByRole("checkbox", { name: "Patienten-ID automatisch erzeugen" });
    const participation = page.getByRole("group", { name: "Teilnahme" });

    await description.fill("Nachsorge nach der Entlassung");
    let sent = await saving(page, () => description.blur());
    expect(sent).toEqual({ status: 200, body: { Description: "Nachsorge nach der Entlassung" } });

    await target.fill("250");
    sent = await saving(page, () => target.blur());
    expect(sent.body).toEqual({ TargetNumberOfResponses: 250 });

    // Out of range: a message, and nothing is sent.
    await target.fill("10000");
    await target.blur();
    await expect(page.getByText("Bitte eine ganze Zahl von 0 bis 9999 eingeben.")).toBeVisible();
    await expect(target).toHaveAttribute("aria-invalid", "true");
    expect(saves).toHaveLength(2);

    await expect(autoId).not.toBeChecked();
    await expect(page.getByText("zufällige 12-stellige Patienten-ID")).toBeVisible();
    sent = await saving(page, () => autoId.check());
    expect(sent.body).toEqual({ IsPatientIdAutoGenerationEnabled: true });

    await expect(page.getByText("Keine Auswahl: Alle Nutzer dürfen teilnehmen.")).toBeVisible();
    await expect(page.getByRole("group", { name: "Bearbeitung" })).toBeVisible();
    await expect(page.getByRole("group", { name: "Freigabe" })).toBeVisible();
    const team = participation.getByRole("checkbox", { name: "Studienzentrum" });
    sent = await saving(page, () => team.check());
    expect(sent.body).toEqual({ UserTeamPermissions: [expect.any(Number)] });

    // Leaving an unchanged field sends nothing.
    const before = saves.length;
    await description.focus();
    await description.blur();
    sent = await saving(page, () => autoId.uncheck());
    expect(sent.body).toEqual({ IsPatientIdAutoGenerationEnabled: false });
    expect(saves).toHaveLength(before + 1);
    await saving(page, () => autoId.check());

    await page.reload();
    await expect(description).toHaveValue("Nachsorge nach der Entlassung");
    await expect(target).toHaveValue("250");
    await expect(autoId).toBeChecked();
    await expect(participation.getByRole("checkbox", { name: "Studienzentrum" })).toBeChecked();
    for (const box of await page.getByRole("group", { name: "Bearbeitung" }).getByRole("checkbox").all()) {
      await expect(box).not.toBeChecked();
    }
  });

  test("intro text: formatting, colour from the palette and a link are kept; markup typed as text stays text", async ({
    page,
  }) => {
    // A device slow to draw: each animation frame comes 300 ms late. A key pressed right after a toolbar
    // command must still reach the text.
    await page.addInitScript(() => {
      const frame = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (draw) => frame(() => void setTimeout(() => draw(performance.now()), 300));
    });
    const id = await newDraft(page);
    await page.getByRole("tab", { name: "Einleitung" }).click();
    await expect(page).toHaveURL(/#intro$/);
    const toolbar = page.getByRole("toolbar", { name: "Textformatierung: Einleitungstext" });
    const editor = page.getByRole("textbox", { name: "Einleitungstext" });

    await editor.click();
    await page.keyboard.type("Hallo Welt und Seite");
    await page.keyboard.press("Enter");
    await page.keyboard.type("<script>window.__injected = true</script>");

    // "Welt": bold and coloured.
    await page.keyboard.press("Control+Home");
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowRight");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Shift+ArrowRight");
    await toolbar.getByRole("button", { name: "Fett" }).click();
    await expect(toolbar.getByRole("button", { name: "Fett" })).toHaveAttribute("aria-pressed", "true");

    // The palette: 60 colours in a grid of buttons named in words, each name once; Escape closes it.
    await toolbar.getByRole("button", { name: "Textfarbe" }).click();
    const palette = page.getByRole("group", { name: "Textfarbe: Farbpalette" });
    const swatches = palette.locator(".rt-palette__swatch");
    await expect(swatches).toHaveCount(60);
    const names = await swatches.evaluateAll((all) => all.map((swatch) => swatch.getAttribute("aria-label") ?? ""));
    expect(new Set(names.filter((name) => /^[A-ZÄÖÜ][a-zäöüß]+(, [a-zäöüß ]+)?$/.test(name))).size).toBe(60);
    await expect(palette.getByRole("button", { name: "Rot, kräftig", exact: true })).toHaveAttribute(
      "title",
      "#d41111",
    );
    await page.keyboard.press("Escape");
    await expect(palette).toBeHidden();
    await expect(toolbar.getByRole("button", { name: "Textfarbe" })).toBeFocused();
    await toolbar.getByRole("button", { name: "Textfarbe" }).click();
    await palette.getByRole("button", { name: "Rot, kräftig", exact: true }).click();
    await expect(palette).toBeHidden();
    // The text has focus at once, not a frame later: the keys below go to it.
    expect(await editor.evaluate((text) => text.contains(document.activeElement))).toBe(true);

    // "Seite" becomes a link: a bad address is refused, a web address is accepted.
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End");
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowLeft");
    await toolbar.getByRole("button", { name: "Link einfügen" }).click();
    const address = page.getByLabel("Adresse (http, https oder mailto)");
    await address.fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Übernehmen" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Bitte eine Web-Adresse" })).toBeVisible();
    await address.fill("www.example.org");
    await page.getByRole("button", { name: "Übernehmen" }).click();
    await expect(editor.locator('a[href="https://www.example.org"]')).toHaveText("Seite");

    // Saved while it was typed and when it is left: each save sent the intro alone.
    const saves = countSaves(page);
    await editor.blur();
    await expect(page.getByTestId("IntroText-save-state")).toHaveText("Gespeichert");
    for (const body of saves) expect(Object.keys(JSON.parse(body))).toEqual(["IntroText"]);
    const stored = await page.evaluate(async (id) => (await (await fetch(`/api/surveys/${id}`)).json()).IntroText, id);
    expect(String(stored)).toContain("<strong>");

    await page.reload();
    await expect(editor).toBeVisible();
    await expect(editor.locator("strong")).toHaveText("Welt");
    await expect(editor.locator("span", { hasText: "Welt" })).toHaveCSS("color", "rgb(212, 17, 17)");
    await expect(editor.locator('a[href="https://www.example.org"]')).toHaveText("Seite");
    await expect(editor).toContainText("<script>window.__injected = true</script>");
    await expect(editor.locator("script")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined();

    // Leaving without a change sends nothing; the outro is its own text.
    const later = countSaves(page);
    await editor.click();
    await editor.blur();
    await page.getByRole("tab", { name: "Abschluss" }).click();
    await expect(page.getByRole("textbox", { name: "Abschlusstext" })).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Abschlusstext" })).not.toContainText("Hallo");
    await page.waitForTimeout(300);
    expect(later).toHaveLength(0);
  });

  test("what is typed while a save's data reloads is kept and saved", async ({ page }) => {
    await newDraft(page);
    const description = page.getByLabel("Beschreibung");
    // The page's data after the first save comes back late, as on a slow connection.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    await page.route(/\/edit\.data(\?|$)/, async (route) => {
      if (holding) {
        holding = false;
        await held;
      }
      await route.continue();
    });
    const first = page.waitForResponse((r) => /\/api\/surveys\/\d+$/.test(r.url()) && r.request().method() === "PUT");
    await description.fill("Erste Fassung");
    await description.blur();
    expect((await first).ok()).toBe(true);
    // Typed again before the reloaded data arrives. Its save goes when typing pauses or when the field is
    // left, whichever comes first on a busy machine: it is awaited from the typing on.
    const sent = await saving(page, async () => {
      await description.fill("Zweite Fassung");
      const reloaded = page.waitForResponse((r) => /\/edit\.data(\?|$)/.test(r.url()));
      release();
      await reloaded;
      await page.waitForTimeout(200);
      await expect(description).toHaveValue("Zweite Fassung");
      await description.blur();
    });
    expect(sent.body).toEqual({ Description: "Zweite Fassung" });
    await page.reload();
    await expect(page.getByLabel("Beschreibung")).toHaveValue("Zweite Fassung");
  });

  test("a change the server refuses stays in the field, marked not saved, and the page asks before it is left", async ({
    page,
  }) => {
    const id = await newDraft(page);
    const description = page.getByLabel("Beschreibung");
    await description.fill("Erste Fassung");
    await saving(page, () => description.blur());

    // Archived in the meantime (as from another tab): the survey is no longer a Draft.
    const archived = await page.request.post(`/api/surveys/${id}/archive`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(archived.ok()).toBe(true);

    await description.fill("Zweite Fassung");
    const sent = await saving(page, () => description.blur());
    expect(sent.status).toBeGreaterThanOrEqual(400);
    await expect(page.getByTestId("toast")).toBeVisible();
    // What was typed is not taken away; it says it is not saved, and leaving asks first.
    await expect(description).toHaveValue("Zweite Fassung");
    await expect(page.getByTestId("description-save-state")).toHaveText("Nicht gespeichert – Speichern fehlgeschlagen");
    expect(
      await page.evaluate(() => {
        const event = new Event("beforeunload", { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      }),
    ).toBe(true);
    const stored = await page.evaluate(async (n) => (await (await fetch(`/api/surveys/${n}`)).json()).Description, id);
    expect(stored).toBe("Erste Fassung");
  });

  test("the page's data of an earlier save, arriving while a refused save is on its way, takes nothing typed back", async ({
    page,
  }) => {
    const id = await newDraft(page);
    const description = page.getByLabel("Beschreibung");
    // The page's data reloaded after the first save is held back on its way, as on a slow network.
    let releaseData: () => void = () => undefined;
    const dataHeld = new Promise<void>((resolve) => (releaseData = resolve));
    let fetched = 0;
    await page.route(/\/edit\.data(\?|$)/, async (route) => {
      const response = await route.fetch();
      fetched++;
      await dataHeld;
      // A reload the page gave up meanwhile (a newer one replaced it: a refused save reloads the page's data)
      // waits for no answer, and Playwright has let its response go.
      await route.fulfill({ response }).catch(() => undefined);
    });
    await description.fill("Erste Fassung");
    const first = page.waitForResponse((r) => /\/api\/surveys\/\d+$/.test(r.url()) && r.request().method() === "PUT");
    await description.blur();
    expect((await first).ok()).toBe(true);
    // That data is fetched before the survey is archived: it still says Draft, with the first text.
    await expect.poll(() => fetched, { timeout: 10_000 }).toBe(2);
    await page.request.post(`/api/surveys/${id}/archive`, { headers: { origin: new URL(page.url()).origin } });

    // The next save is on its way when the held data arrives; then the server refuses it (archived).
    await page.route(/\/api\/surveys\/\d+$/, async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      const arrived = page.waitForResponse((r) => /\/edit\.data\?_routes=routes/.test(r.url()));
      releaseData();
      await arrived;
      await page.waitForTimeout(200);
      await route.continue();
    });
    await description.fill("Zweite Fassung");
    const second = page.waitForResponse((r) => /\/api\/surveys\/\d+$/.test(r.url()) && r.request().method() === "PUT");
    await description.blur();
    expect((await second).status()).toBeGreaterThanOrEqual(400);
    await expect(page.getByTestId("description-save-state")).toHaveText("Nicht gespeichert – Speichern fehlgeschlagen");
    await expect(description).toHaveValue("Zweite Fassung");
    // And stays so once every reload is in.
    await page.waitForLoadState("networkidle");
    await expect(description).toHaveValue("Zweite Fassung");

    // While the field says it is not saved, the page's data still reaches the page: the survey, archived now,
    // is shown read-only, with the text that was typed.
    await page.evaluate(() => (window as { __remixRouter?: { revalidate: () => void } }).__remixRouter?.revalidate());
    await expect(description).toBeDisabled();
    await expect(description).toHaveValue("Zweite Fassung");
  });

  test("a switch the server refuses shows the saved setting again", async ({ page }) => {
    const id = await newDraft(page);
    const signature = page.getByLabel("Abschließen nur mit elektronischer Unterschrift");
    await expect(signature).not.toBeChecked();
    await saving(page, () => signature.check());
    await expect(signature).toBeChecked();

    // Archived in the meantime (as from another tab): the next change is refused.
    const archived = await page.request.post(`/api/surveys/${id}/archive`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(archived.ok()).toBe(true);
    const sent = await saving(page, () => signature.click());
    expect(sent.status).toBeGreaterThanOrEqual(400);
    expect(sent.body).toEqual({ RequiresSignature: false });
    await expect(page.getByTestId("toast")).toBeVisible();
    // The switch shows what the server holds: still on.
    await expect(signature).toBeChecked();
    const stored = await page.evaluate(
      async (n) => (await (await fetch(`/api/surveys/${n}`)).json()).RequiresSignature,
      id,
    );
    expect(stored).toBe(true);
  });

  test("an intro change the server refuses stays in the editor, marked not saved", async ({ page }) => {
    const id = await newDraft(page);
    await page.getByRole("tab", { name: "Einleitung" }).click();
    const editor = page.getByRole("textbox", { name: "Einleitungstext" });
    await expect(editor).toHaveAttribute("contenteditable", "true");

    // Archived in the meantime (as from another tab); the page learns it from the refused save.
    const archived = await page.request.post(`/api/surveys/${id}/archive`, {
      headers: { origin: new URL(page.url()).origin },
    });
    expect(archived.ok()).toBe(true);

    await editor.click();
    await page.keyboard.type("Nicht verloren");
    const intro = await saving(page, () => editor.blur());
    expect(intro.status).toBeGreaterThanOrEqual(400);
    await expect(editor).toContainText("Nicht verloren");
    await expect(page.getByTestId("IntroText-save-state")).toHaveText("Nicht gespeichert – Speichern fehlgeschlagen");
  });
});

test.describe("editor start tab for an approver", () => {
  test("a Draft is shown read-only", async ({ page }) => {
    await signIn(page, "approver");
    const title = "Patientenzufriedenheit Station 3A";
    const row = surveyRow(page, title);
    await row.locator("summary").click();
    await row.getByRole("link", { name: "Umfrage bearbeiten" }).click();
    await expect(page).toHaveURL(/\/survey\/\d+\/edit/);
    await expect(
      page.getByText("Sie können diesen Entwurf ansehen und veröffentlichen, aber nicht bearbeiten"),
    ).toBeVisible();

    await expect(page.getByLabel("Beschreibung")).toBeDisabled();
    await expect(page.getByLabel("Angestrebte Ergebnisse")).toBeDisabled();
    await expect(page.getByRole("checkbox", { name: "Patienten-ID automatisch erzeugen" })).toBeDisabled();
    const teams = page.getByRole("group", { name: "Teamrechte" }).getByRole("checkbox");
    await expect(teams.first()).toBeVisible();
    for (const box of await teams.all()) await expect(box).toBeDisabled();

    await page.getByRole("tab", { name: "Einleitung" }).click();
    const editor = page.getByRole("textbox", { name: "Einleitungstext" });
    await expect(editor).toHaveAttribute("contenteditable", "false");
    await expect(editor).toHaveAttribute("aria-readonly", "true");
    await expect(page.getByRole("toolbar")).toHaveCount(0);
  });
});
