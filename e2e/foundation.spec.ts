import { expect, test } from "./test";
import { accounts, chooseLanguage, fillLogin, openDatabase, signIn } from "./support";

test.describe("sign-in through the provider", () => {
  for (const who of ["editor", "approver", "admin", "user"] as const) {
    test(`${who} signs in and is greeted with full name and institute`, async ({ page }) => {
      await signIn(page, who);
      await expect(page).toHaveURL(/\/surveys$/);
      await expect(page.getByRole("heading", { level: 1, name: "Ihre Umfragen" })).toBeVisible();
      const greeting = page.getByTestId("greeting");
      await expect(greeting).toContainText(accounts[who].fullName);
      await expect(greeting).toContainText("Universitätsklinikum Musterstadt");
      await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
    });
  }

  test("the newcomer accepts the terms on the provider's page and then enters the app", async ({ page }) => {
    await signIn(page, "newcomer");
    await expect(page.getByRole("heading", { name: "Nutzungsbedingungen" })).toBeVisible();
    await page.getByRole("button", { name: "Akzeptieren" }).click();
    await expect(page).toHaveURL(/\/surveys$/);
    await expect(page.getByTestId("greeting")).toContainText(accounts.newcomer.fullName);
  });

  test("the outsider lacks the permission and sees the 403 page, which offers sign-out", async ({ page }) => {
    await signIn(page, "outsider");
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByRole("heading", { name: "Keine Berechtigung" })).toBeVisible();
    await page.getByRole("main").getByRole("button", { name: "Abmelden" }).click();
    await expect(page.locator("#username")).toBeVisible();
  });

  test("a person of the tool on a page their roles do not open is told so, and led back to the list", async ({
    page,
  }) => {
    await signIn(page, "user");
    await page.goto("/survey/1/statistics");
    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByRole("heading", { name: "Keine Berechtigung" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Diese Seite ist Personen mit anderen Rechten vorbehalten");
    await expect(page.getByRole("main")).not.toContainText("für dieses Werkzeug");
    await page.getByRole("link", { name: "Zur Umfrageübersicht" }).click();
    await expect(page).toHaveURL(/\/surveys$/);
  });

  test("after sign-in the person lands on the page they asked for", async ({ page }) => {
    await signIn(page, "user", "/surveys?asked=for");
    await expect(page).toHaveURL(/\/surveys\?asked=for$/);
  });

  test("the empty path leads to the survey list", async ({ page }) => {
    await signIn(page, "user", "/");
    await expect(page).toHaveURL(/\/surveys$/);
  });
});

test.describe("languages", () => {
  test("German by default; English after switching, and still English after signing in again", async ({ page }) => {
    await signIn(page, "editor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ihre Umfragen");
    await chooseLanguage(page, "English");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");

    await page.getByRole("button", { name: "Sign out" }).first().click();
    // Signing out ends the provider's session too: the provider asks for the password again.
    await expect(page.locator("#username")).toBeVisible();
    // A new browser: no language cookie left; the language comes from the person's saved Culture.
    await page.context().clearCookies();
    await page.goto("/surveys");
    await fillLogin(page, "editor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");
    await chooseLanguage(page, "Deutsch");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ihre Umfragen");
  });

  test("a page whose language file does not arrive stays as the server drew it, texts and forms working", async ({
    browser,
  }) => {
    // No service worker: it would answer from its copies, out of this test's reach.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signIn(page, "user");
    let refused = 0;
    await page.route(/\/assets\/common-[\w-]+\.json$/, (route) => (refused++, route.abort()));
    await page.reload();
    // Tried twice as the page starts, then left.
    await expect.poll(() => refused).toBe(2);
    await page.waitForTimeout(500);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ihre Umfragen");
    await expect(page.getByRole("button", { name: "Abmelden" }).first()).toBeVisible();
    // Its forms post as they do without JavaScript.
    await chooseLanguage(page, "English");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");
    await context.close();
  });

  test("the language switch works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn(page, "user");
    await chooseLanguage(page, "English");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");
    await context.close();
  });
});

test.describe("public pages", () => {
  test("an unknown path says the page does not exist", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Diese Seite existiert nicht" })).toBeVisible();
  });

  test("an unknown path in English reads 'This page does not exist'", async ({ page, context }) => {
    await signIn(page, "user");
    await chooseLanguage(page, "English");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your surveys");
    await page.goto("/no/such/page");
    await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();
    // Back to German, so that the person's saved language does not leak into other tests.
    await page.goto("/surveys");
    await chooseLanguage(page, "Deutsch");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ihre Umfragen");
    await context.clearCookies();
  });

  test("the authentication error page offers a retry that leads to the survey list", async ({ page }) => {
    await page.goto("/authentication/error");
    await expect(page.getByRole("heading", { name: "Anmeldung fehlgeschlagen" })).toBeVisible();
    await page.getByRole("link", { name: "Erneut versuchen" }).click();
    await expect(page.locator("#username")).toBeVisible();
  });

  test("an expired session shows the 401 page and signs the person out", async ({ page, context }) => {
    await signIn(page, "approver");
    await expect(page.getByTestId("greeting")).toBeVisible();
    const db = openDatabase();
    try {
      db.prepare("update sessions set expires_at = ?").run("2000-01-01T00:00:00.000Z");
    } finally {
      db.close();
    }
    await page.goto("/surveys");
    await expect(page).toHaveURL(/\/401$/);
    await expect(page.getByRole("heading", { name: "Sitzung abgelaufen" })).toBeVisible();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "sv_session")).toBeUndefined();
  });
});

test.describe("layout", () => {
  test("header: offline indicator with tooltip; the small-screen menu holds language and sign-out", async ({
    page,
  }) => {
    await signIn(page, "admin");
    const indicator = page.getByTestId("offline-indicator");
    await expect(indicator).toContainText("Online");
    await indicator.focus();
    await expect(page.getByRole("tooltip")).toBeVisible();
    await page.context().setOffline(true);
    await expect(indicator).toContainText("Offline");
    await page.context().setOffline(false);
    await expect(indicator).toContainText("Online");

    await page.setViewportSize({ width: 375, height: 700 });
    await expect(page.locator(".header__actions")).toBeHidden();
    // On a phone the state is said in a word too, not by the dot's colour alone.
    await expect(indicator.locator(".net__label")).toBeVisible();
    await expect(indicator.locator(".net__label")).toHaveText("Online");
    await page.getByRole("banner").getByText("☰").click();
    await expect(page.locator(".header__menu-panel").getByRole("button", { name: "Abmelden" })).toBeVisible();
    // Choosing a language there closes the menu, and focus goes back to its button.
    await page.locator(".header__menu-panel").getByRole("button", { name: "English" }).click();
    await expect(page.locator(".header__menu-panel")).toBeHidden();
    await expect(page.locator(".header__menu > summary")).toBeFocused();
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await page.locator(".header__menu > summary").click();
    await page.locator(".header__menu-panel").getByRole("button", { name: "Deutsch" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");
  });

  test("the header hides after scrolling down and comes back after scrolling up", async ({ page }) => {
    await signIn(page, "admin");
    // The header follows the scrolling once the page has come to life: scrolled before, nothing listens.
    await page.waitForURL("**/surveys");
    await page.waitForLoadState("networkidle");
    await page.setViewportSize({ width: 1000, height: 260 });
    const header = page.getByRole("banner");
    await expect(header).toHaveAttribute("data-visible", "true");
    await page.mouse.wheel(0, 15);
    await page.waitForTimeout(100);
    await expect(header).toHaveAttribute("data-visible", "true");
    await page.mouse.wheel(0, 120);
    await expect(header).toHaveAttribute("data-visible", "false");
    await page.mouse.wheel(0, -30);
    await page.waitForTimeout(100);
    await expect(header).toHaveAttribute("data-visible", "false");
    await page.mouse.wheel(0, -40);
    await expect(header).toHaveAttribute("data-visible", "true");
  });

  test("security headers are sent", async ({ page }) => {
    const response = await page.goto("/authentication/error");
    const headers = response!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBeTruthy();
  });
});
