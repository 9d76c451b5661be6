/**
 * Translated texts in the trail (decision 054): a text's key ("question:12:Hint") read as the field it is and
 * the item it belongs to, named in the page's language by the locale files, never by the key.
 */
import type { TrailNames } from "./audit-words";
import type { TranslatableField } from "./content-languages";

/** A translated text in a change: which field of which item (by its name where the trail knows it), and its text. */
export interface TranslatedText {
  field: TranslatableField;
  name?: string;
  text: string;
}

/** The survey's own texts by their keys; the others are "<kind>:<id>" or "question:<id>:Hint|Unit". */
const SURVEY_TEXTS: Record<string, TranslatableField> = {
  Title: "title",
  Description: "description",
  IntroText: "intro",
  OutroText: "outro",
  ScoreTitle: "scoreTitle",
};
const ITEM_TEXTS: Record<string, { field: TranslatableField; names: keyof TrailNames }> = {
  question: { field: "question", names: "questions" },
  "question:Hint": { field: "hint", names: "questions" },
  "question:Unit": { field: "unit", names: "questions" },
  answer: { field: "answer", names: "options" },
  category: { field: "category", names: "categories" },
  attribute: { field: "attribute", names: "attributes" },
  entry: { field: "entry", names: "preliminaryOptions" },
};

/** A translated text's field and the name of its item where the trail knows it ("question:12:Hint"). */
export function translatedPlace(key: string, names: TrailNames): Omit<TranslatedText, "text"> | null {
  if (SURVEY_TEXTS[key]) return { field: SURVEY_TEXTS[key] };
  const [kind, id, part] = key.split(":");
  const item = ITEM_TEXTS[part ? `${kind}:${part}` : kind!];
  if (!item) return null;
  const name = names[item.names].get(Number(id));
  return name ? { field: item.field, name } : { field: item.field };
}

/**
 * The locale key of a translated text's place: the item's field with its name (audit.translated.<field>),
 * or the field alone where the item has no name (the survey's own texts, an item deleted since).
 */
export function translatedPlaceKey(text: Omit<TranslatedText, "text">): string {
  return text.name === undefined ? `languages.field.${text.field}` : `audit.translated.${text.field}`;
}
