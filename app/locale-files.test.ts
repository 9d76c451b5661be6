import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { translate } from "~/i18n";
import { loadLocale, loadStartLocale, localeUrls } from "~/locale-files";

const english = JSON.parse(fs.readFileSync("locales/en-US/common.json", "utf8")) as { app: { name: string } };

describe("a page's language file", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("is fetched once from its asset address, then translate() speaks it", async () => {
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(english));
    });
    expect(translate("en-US", "app.name")).toBe("app.name"); // nothing known yet
    await loadLocale("en-US");
    await loadLocale("en-US");
    expect(asked).toEqual([localeUrls["en-US"]]);
    expect(translate("en-US", "app.name")).toBe(english.app.name);
  });

  it("a failed fetch is an error, not an empty language", async () => {
    vi.stubGlobal("fetch", async () => new Response("gone", { status: 404 }));
    await expect(loadLocale("de-DE")).rejects.toThrow(/de-DE: 404/);
  });

  it("as a page starts, a failed fetch is tried once more; when that fails too there is no language", async () => {
    let asked = 0;
    vi.stubGlobal("fetch", async () => (asked++, new Response("gone", { status: 404 })));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await loadStartLocale("de-DE", 1)).toBeNull();
    expect(asked).toBe(2);

    const answers = [new Response("busy", { status: 503 }), new Response(JSON.stringify(english))];
    vi.stubGlobal("fetch", async () => answers.shift()!);
    expect((await loadStartLocale("de-DE", 1))?.app).toEqual(english.app);
    expect(answers).toHaveLength(0);
  });

  it("each language has its own file", () => {
    expect(localeUrls["de-DE"]).toMatch(/\.json$/);
    expect(localeUrls["en-US"]).not.toBe(localeUrls["de-DE"]);
  });
});
