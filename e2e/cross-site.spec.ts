import { expect, test } from "./test";
import { accounts, signIn } from "./support";

/**
 * Requests that carry the session cookie but come from another site are refused, on the pages' actions
 * and on the API; the same requests from the app's own origin go through.
 */
test.describe("cross-site requests with the session cookie", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "editor");
    await expect(page.getByTestId("greeting")).toContainText(accounts.editor.fullName);
  });

  test("page actions refuse another origin and a request that names none", async ({ page, baseURL }) => {
    const evil = { Origin: "https://evil.example" };
    const post = (url: string, form: Record<string, string>, headers: Record<string, string>) =>
      page.request.post(url, { form, headers, maxRedirects: 0 });

    expect((await post("/surveys", { intent: "create" }, evil)).status()).toBe(403);
    expect((await post("/surveys", { intent: "create" }, {})).status()).toBe(403);
    // The pages' own data requests (single fetch) are held to the same rule.
    expect((await post("/surveys.data", { intent: "create" }, {})).status()).toBe(403);
    expect((await post("/surveys.data", { intent: "create" }, { "Sec-Fetch-Site": "same-site" })).status()).toBe(403);
    expect((await post("/survey-archives", { intent: "delete", id: "1" }, evil)).status()).toBe(403);
    expect((await post("/language", { locale: "en-US", redirectTo: "/surveys" }, evil)).status()).toBe(403);
    expect((await post("/authentication/logout", {}, evil)).status()).toBe(403);
    // Still signed in, still in German.
    await page.goto("/surveys");
    await expect(page.getByTestId("greeting")).toContainText(accounts.editor.fullName);
    await expect(page.locator("html")).toHaveAttribute("lang", "de-DE");

    const same = await post("/surveys", { intent: "create" }, { Origin: new URL(baseURL!).origin });
    expect(same.status()).toBe(302);
    expect(same.headers()["location"]).toMatch(/^\/survey\/\d+\/edit#start$/);
  });

  test("the API refuses a cookie-borne write from another site with the error envelope", async ({ page, baseURL }) => {
    const cross = await page.request.post("/api/surveys", {
      data: { Title: "Fremd" },
      headers: { Origin: "https://evil.example" },
    });
    expect(cross.status()).toBe(403);
    expect(await cross.json()).toEqual({ Type: "FORBIDDEN", Error: expect.any(String) });
    const sameSite = await page.request.post("/api/surveys", {
      data: { Title: "Eigen" },
      headers: { Origin: new URL(baseURL!).origin },
    });
    expect(sameSite.status()).toBe(201);
  });
});
