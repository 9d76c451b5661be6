import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addLocale, changePageLanguage, localeTable, textsOf, translate } from "~/i18n";
import { fillTextsOf, loadLocale, loadStartLocale, localeUrls, textPartsOf, withTexts } from "~/locale-files";

const english = JSON.parse(fs.readFileSync("locales/en-US/common.json", "utf8")) as { app: { name: string } };
const englishAuthoring = JSON.parse(fs.readFileSync("locales/en-US/authoring.json", "utf8")) as {
  editor: { save: string };
};

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
    expect(asked).toEqual([localeUrls["en-US"].common]);
    expect(translate("en-US", "app.name")).toBe(english.app.name);
  });

  it("fetches the authoring texts only for the pages that show them, and keeps both parts", async () => {
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(url === localeUrls["en-US"].authoring ? englishAuthoring : english));
    });
    await loadLocale("en-US", ["common", "authoring"]);
    expect(asked).toEqual([localeUrls["en-US"].authoring]);
    expect(translate("en-US", "editor.save")).toBe(englishAuthoring.editor.save);
    expect(translate("en-US", "app.name")).toBe(english.app.name);
    expect(textPartsOf([{ texts: ["authoring"] }, undefined, { texts: ["authoring"] }])).toEqual([
      "common",
      "authoring",
    ]);
    expect(textPartsOf([{}, null])).toEqual(["common"]);
  });

  it("a failed fetch is an error, not an empty language", async () => {
    vi.stubGlobal("fetch", async () => new Response("gone", { status: 404 }));
    await expect(loadLocale("de-DE")).rejects.toThrow(/de-DE\/common: 404/);
  });

  it("as a page starts, a failed fetch is tried once more; when that fails too there is no language", async () => {
    let asked = 0;
    vi.stubGlobal("fetch", async () => (asked++, new Response("gone", { status: 404 })));
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(await loadStartLocale("de-DE", ["common"], 1)).toBeNull();
    expect(asked).toBe(2);

    const answers = [new Response("busy", { status: 503 }), new Response(JSON.stringify(english))];
    vi.stubGlobal("fetch", async () => answers.shift()!);
    expect((await loadStartLocale("de-DE", ["common"], 1))?.app).toEqual(english.app);
    expect(answers).toHaveLength(0);
  });

  it("each language has its own files", () => {
    expect(localeUrls["de-DE"].common).toMatch(/\.json$/);
    expect(localeUrls["en-US"].common).not.toBe(localeUrls["de-DE"].common);
    expect(localeUrls["de-DE"].authoring).not.toBe(localeUrls["de-DE"].common);
    expect(new Set(Object.values(localeUrls["de-DE"])).size).toBe(4);
  });

  it("a dialog loaded on demand comes once its texts are there, known to the page's translations", async () => {
    const sync = JSON.parse(fs.readFileSync("locales/en-US/sync.json", "utf8")) as { signOut: { title: string } };
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify(sync));
    });
    addLocale("en-US", english);
    changePageLanguage("en-US");
    expect(localeTable("en-US")?.signOut).toBeUndefined();
    const load = withTexts(async () => ({ default: "the dialog" }), ["sync"]);
    expect(await load()).toEqual({ default: "the dialog" });
    expect(asked).toEqual([localeUrls["en-US"].sync]);
    const t = textsOf("en-US", null);
    expect(t("signOut.title")).toBe(sync.signOut.title);
    expect(t("app.name")).toBe(english.app.name);

    // Its texts failing, the dialog does not come without them.
    vi.stubGlobal("fetch", async () => new Response("gone", { status: 404 }));
    changePageLanguage("de-DE");
    await expect(withTexts(async () => "the dialog", ["sync"])()).rejects.toThrow(/de-DE\/sync: 404/);
  });
});

describe("a fill page's fill words", () => {
  const single = { SourceLanguage: "de" as const, Languages: [] };
  const several = { SourceLanguage: "de" as const, Languages: ["tr" as const, "ar" as const] };

  it("come with a staff fill page of a survey in several languages, not with one of a survey in one", async () => {
    const { handle } = await import("~/routes/survey.$surveyId.fill.$patientId");
    const page = (survey: object, language: string, locale: "de-DE" | "en-US") =>
      fillTextsOf(
        [
          { handle: {}, data: {} },
          { handle, data: { survey, language } },
        ],
        locale,
      );
    // In one language the page speaks the staff's words: an English page fetches no German ones.
    expect(page(single, "de", "en-US")).toBeNull();
    expect(page(several, "tr", "en-US")).toBe("tr");
    expect(page(several, "de", "en-US")).toBe("de");
    // German or English words on a page of that language are its own common texts.
    expect(page(several, "de", "de-DE")).toBeNull();
    // The offline shell's data has no case yet.
    expect(fillTextsOf([{ handle, data: { shell: true } }], "de-DE")).toBeNull();
  });

  it("come with a patient's link in its case's language, whatever the survey's languages", async () => {
    const { handle } = await import("~/routes/l.fill");
    expect(fillTextsOf([{ handle, data: { language: "de" } }], "en-US")).toBe("de");
    expect(fillTextsOf([{ handle, data: { language: "ar" } }], "de-DE")).toBe("ar");
    expect(fillTextsOf([{ handle, data: { language: "xx" } }], "de-DE")).toBeNull();
  });
});
