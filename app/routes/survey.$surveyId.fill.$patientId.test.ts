import type { MetaArgs } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { sourceDigest } from "~/domain/content-languages";
import { survey } from "~/domain/content-languages.test-support";
import { meta } from "./survey.$surveyId.fill.$patientId";

/** The document's title for the page's data, in the staff's interface language `locale`. */
function titleOf(data: unknown, locale = "de-DE"): unknown {
  const matches = [{ id: "root", data: { locale } }] as unknown as MetaArgs["matches"];
  return (meta({ matches, data } as never) as { title: string }[])[0]?.title;
}

describe("the fill page's document title", () => {
  const translated = survey({
    Title: "Befinden",
    Languages: ["ar", "tr"],
    Translations: {
      ar: { Title: { Text: "الحالة", Digest: sourceDigest("Befinden") } },
      tr: { Title: { Text: "Durum", Digest: sourceDigest("Befinden") } },
    },
  });

  it("names the survey in the case's language, the words around it in the staff's", () => {
    // Isolated (U+2068 … U+2069): right to left inside the staff's left-to-right words.
    expect(titleOf({ survey: translated, language: "ar" })).toBe("\u2068الحالة\u2069 ausfüllen · Umfragen");
    expect(titleOf({ survey: translated, language: "tr" }, "en-US")).toBe("Fill in Durum · Surveys");
    expect(titleOf({ survey: translated, language: "de" })).toBe("Befinden ausfüllen · Umfragen");
  });

  it("names a copy kept before languages, and the offline document, as before", () => {
    const { SourceLanguage: _s, Languages: _l, Translations: _t, ...older } = translated;
    expect(titleOf({ survey: older, language: "de" })).toBe("Befinden ausfüllen · Umfragen");
    expect(titleOf({ shell: true })).toBe(" ausfüllen · Umfragen");
  });
});
