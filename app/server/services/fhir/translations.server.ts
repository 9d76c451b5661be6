import { asContentLanguage, type ContentLanguage, type Translations } from "~/domain/content-languages";

/**
 * A survey's translations in FHIR (docs/decisions/056-statistics-languages.md): HL7's translation extension on
 * a text's primitive element (`_title`, `_text`, `valueCoding._display`, …), one per language, with the
 * sub-extensions `lang` (the language's code) and `content` (the text). Written on export, read on import.
 */

export const TRANSLATION_URL = "http://hl7.org/fhir/StructureDefinition/translation";

/** Texts by the language they are in, as a file writes it ("tr", "tr-TR", "fr"). */
export type LanguageTexts = Record<string, string>;

interface PrimitiveElement {
  extension: { url: string; extension: { url: string; valueCode?: string; valueString?: string }[] }[];
}

/** The element `_<field>` that carries a text's translations; undefined without any. */
export function translationElement(texts: LanguageTexts): PrimitiveElement | undefined {
  const extension = Object.entries(texts)
    .filter(([, text]) => text !== "")
    .map(([lang, text]) => ({
      url: TRANSLATION_URL,
      extension: [
        { url: "lang", valueCode: lang },
        { url: "content", valueString: text },
      ],
    }));
  return extension.length > 0 ? { extension } : undefined;
}

/**
 * The translations of one of the survey's texts by its key (`question:12`, …), in the languages it offers,
 * each made into the text the export writes (`shown`: rich text as plain text).
 */
export function textsOf(
  survey: { Languages: readonly ContentLanguage[]; Translations: Translations },
  key: string,
  shown: (text: string) => string = (text) => text,
): LanguageTexts {
  const out: LanguageTexts = {};
  for (const lang of survey.Languages) {
    const text = survey.Translations[lang]?.[key]?.Text;
    if (text) out[lang] = shown(text);
  }
  return out;
}

/** `{ _field: element }` for spreading into a resource, or nothing. */
export function withTranslations(field: string, texts: LanguageTexts): Record<string, PrimitiveElement> {
  const element = translationElement(texts);
  return element ? { [`_${field}`]: element } : {};
}

/** The translations a primitive element carries (the last one of a language stands); {} for none. */
export function readTranslations(element: unknown): LanguageTexts {
  const out: LanguageTexts = {};
  const extensions = (element as { extension?: unknown } | null | undefined)?.extension;
  if (!Array.isArray(extensions)) return out;
  for (const e of extensions as { url?: unknown; extension?: unknown }[]) {
    if (e?.url !== TRANSLATION_URL || !Array.isArray(e.extension)) continue;
    const parts = e.extension as {
      url?: unknown;
      valueCode?: unknown;
      valueString?: unknown;
      valueMarkdown?: unknown;
    }[];
    const lang = parts.find((p) => p?.url === "lang")?.valueCode;
    const content = parts.find((p) => p?.url === "content");
    const text = content?.valueString ?? content?.valueMarkdown;
    if (typeof lang === "string" && lang.trim() && typeof text === "string" && text.trim()) out[lang.trim()] = text;
  }
  return out;
}

/** A language as a file names it ("tr", "tr-TR", "TR") as one of the content languages, or null. */
export function contentLanguageOf(lang: string | null | undefined): ContentLanguage | null {
  return asContentLanguage(lang?.split("-")[0]?.trim().toLowerCase());
}
