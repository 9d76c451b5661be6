import { DISPLAY_TIME_ZONE, formatDateTime } from "./dates";
import { questionTypeName } from "./question-types";
import { translatedPlace, type TranslatedText } from "./audit-translations";
import { asContentLanguage, languageName } from "./content-languages";
import { fromJson, htmlText, parsed, shortText } from "./audit-text";

/**
 * A trail entry in words (decision 028): what changed, by its name in the person's language, with its value
 * before and after as people read values (yes/no, the app's date format, the text of HTML, names of teams and
 * of the questionnaire's parts), never column names, ids or raw JSON. The stored rows keep two spellings of
 * their fields (database columns like `is_exit_answer`, and the API's `IsExitAnswer`): both read the same.
 */

/**
 * A value shown in a change: a text as it is, a word to translate (yes, no, a status, a type, a rule's kind),
 * with the text it applies to where it has one (a rule's answers), or none.
 */
export type ChangeValue =
  | { text: string }
  | { word: string; of?: string }
  | { lines: string[] }
  | { translations: TranslatedText[] }
  | { none: true };

export interface Change {
  /** The locale key's last part: audit.field.<field>. */
  field: string;
  before: ChangeValue;
  after: ChangeValue;
}

/** Names the trail can give ids of the survey's parts, teams and tags. */
export interface TrailNames {
  questions: ReadonlyMap<number, string>;
  options: ReadonlyMap<number, string>;
  categories: ReadonlyMap<number, string>;
  attributes: ReadonlyMap<number, string>;
  /** The answers of the preliminary questions, which the questions' show/hide rules name. */
  preliminaryOptions: ReadonlyMap<number, string>;
  teams: ReadonlyMap<number, string>;
  tags: ReadonlyMap<number, string>;
}

/** `is_exit_answer` and `IsExitAnswer` alike: the API's spelling. */
export function canonicalField(key: string): string {
  if (!key.includes("_") && /^[A-Z]/.test(key)) return key;
  return key
    .split("_")
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

type Reading =
  | "text"
  | "html"
  | "yesNo"
  | "date"
  | "status"
  | "type"
  | "number"
  | "present"
  | "weighting"
  | "ruleKind"
  | "rule"
  | "filters"
  | "codes"
  | "instrument"
  | "lines"
  | "language"
  | "translations"
  | "endedBy"
  | Lists;

/**
 * The locale key of a word in a change: statuses and question types as the app names them everywhere else,
 * the rest under audit.value (a rule that names its answers with `_of`).
 */
export function wordKey(value: { word: string; of?: string }): string {
  const [kind, name] = value.word.split(".");
  if (kind === "status") return `status.${name}`;
  if (kind === "type") return `questionType.${name}`;
  return `audit.value.${value.word.replace(".", "_")}${value.of === undefined ? "" : "_of"}`;
}

/** The fields the trail names (each has its audit.field.<name> text), each with how its value reads. */
export const FIELDS: Record<string, Reading> = {
  Title: "text",
  Text: "text",
  Name: "text",
  Description: "text",
  Unit: "text",
  Value: "number",
  Weight: "number",
  Sort: "number",
  TargetNumberOfResponses: "number",
  IntroText: "html",
  OutroText: "html",
  Status: "status",
  Type: "type",
  StartDate: "date",
  EndDate: "date",
  IsExitAnswer: "yesNo",
  IsMandatory: "yesNo",
  AllowFileAttachments: "yesNo",
  AllowMultipleAnswers: "yesNo",
  RequiresSignature: "yesNo",
  PatientSubmitReview: "yesNo",
  PreliminaryByPatient: "yesNo",
  RetentionMonths: "number",
  Score: "number",
  ScoreTitle: "text",
  Hint: "text",
  System: "text",
  Codes: "codes",
  Instrument: "instrument",
  IsPatientIdAutoGenerationEnabled: "yesNo",
  IsPatientFormEnabled: "yesNo",
  IsTestQuestion: "yesNo",
  Enabled: "yesNo",
  PreSelected: "yesNo",
  HasImage: "yesNo",
  ImageSrc: "present",
  WeightingState: "weighting",
  PosX: "number",
  PosY: "number",
  DependenceType: "ruleKind",
  Dependence: "rule",
  Questions: "number",
  SubQuestions: "number",
  NotKept: "lines",
  Reason: "text",
  PreliminaryAnswers: "number",
  Attachments: "number",
  Signatures: "number",
  PatientId: "text",
  Format: "text",
  Filters: "filters",
  TeamPermissions: "teams",
  UserTeamPermissions: "teams",
  EditorTeamPermissions: "teams",
  ApproverTeamPermissions: "teams",
  TagIds: "tags",
  CategoryId: "categories",
  Answers: "items",
  AnswerOptions: "items",
  Markers: "items",
  SourceLanguage: "language",
  Languages: "language",
  Language: "language",
  Texts: "translations",
  Reviewed: "number",
  EndedBy: "endedBy",
};

type Lists = "teams" | "tags" | "categories" | "items";

/** Fields that say nothing a reader needs (ids, bookkeeping). */
const UNNAMED = new Set([
  "Id",
  "QuestionId",
  "SurveyId",
  "ParentAnswerOptionId",
  "PatientFormId",
  "SourceSurveyId",
  "ErasedRows",
  "Hash",
  "UpdatedAt",
  "CreatedAt",
]);

const NONE: ChangeValue = { none: true };

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

/** A value that reads as none: blank, HTML without text, or an object whose every entry is blank (no filters). */
function readsAsNone(kind: Reading | undefined, value: unknown): boolean {
  if (isBlank(value)) return true;
  if (kind === "html") return typeof value !== "string" || !htmlText(value).trim();
  if (kind === "filters") return typeof value !== "object" || Object.values(value as object).every(isBlank);
  // A column's "[]" is no codes.
  if (kind === "codes") return isBlank(fromJson(value));
  // Translations whose every text is empty: none.
  if (kind === "translations") return typeof value !== "object" || Object.values(value as object).every(isBlank);
  return false;
}

/** A list's items by their names (ids through `names`, objects by their text or title, counts as numbers). */
function itemsText(value: unknown, names: ReadonlyMap<number, string> | undefined): ChangeValue {
  const list = Array.isArray(value) ? value : [value];
  const words = list.map((item) => {
    if (typeof item === "number") return names ? (names.get(item) ?? "?") : String(item);
    if (item && typeof item === "object") {
      const o = item as Record<string, unknown>;
      const label = o.text ?? o.Text ?? o.title ?? o.Title ?? o.name ?? o.Name;
      return typeof label === "string" ? label : "?";
    }
    return String(item);
  });
  return { text: shortText(words.join(", ")) };
}

/** Codes by what they say: "Display (Code)", or the code alone. */
function codesText(value: unknown): ChangeValue {
  const list = fromJson(value);
  if (!Array.isArray(list) || list.length === 0) return NONE;
  const words = list.map((c: { Code?: unknown; Display?: unknown }) =>
    typeof c?.Display === "string" && c.Display ? `${c.Display} (${String(c.Code)})` : String(c?.Code ?? "?"),
  );
  return { text: shortText(words.join(", ")) };
}

/** Languages by their own names ("Türkçe, Polski"), which read the same to everyone. */
function languagesText(value: unknown): string {
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((l) => (asContentLanguage(String(l)) ? languageName(String(l) as never, String(l)) : String(l)))
    .join(", ");
}

/** Each translated text: where it belongs, and its text (none for one removed). */
function translatedTexts(value: Record<string, unknown>, names: TrailNames): ChangeValue {
  const texts = Object.entries(value).flatMap(([key, text]) => {
    const place = typeof text === "string" && text.trim() ? translatedPlace(key, names) : null;
    if (!place) return [];
    return [
      { ...place, ...(place.name ? { name: shortText(place.name) } : {}), text: shortText(htmlText(text as string)) },
    ];
  });
  return texts.length > 0 ? { translations: texts } : NONE;
}

function valueOf(kind: Reading, value: unknown, names: TrailNames): ChangeValue {
  if (readsAsNone(kind, value)) return NONE;
  switch (kind) {
    case "yesNo":
      return { word: value === true || value === 1 || value === "1" || value === "true" ? "yes" : "no" };
    case "status":
      return { word: `status.${String(value)}` };
    case "type":
      // A deleted question's row holds the stored code (1 to 7), a change the API's name.
      return { word: `type.${typeof value === "number" ? questionTypeName(value) : String(value)}` };
    case "present":
      return { word: "present" };
    case "weighting":
      return { word: `weighting.${String(value)}` };
    case "endedBy":
      return { word: `endedBy.${String(value)}` };
    case "ruleKind":
      return { word: `rule.${String(value)}` };
    case "rule": {
      const rule = value as { Type?: unknown; PreliminaryAnswerOptions?: unknown };
      const answers = itemsText(rule.PreliminaryAnswerOptions ?? [], names.preliminaryOptions);
      return { word: `rule.${String(rule.Type)}`, of: "text" in answers ? answers.text : "" };
    }
    case "filters":
      return { word: "set" };
    case "codes":
      return codesText(value);
    case "instrument": {
      const name = (fromJson(value) as { Name?: unknown } | null)?.Name;
      return typeof name === "string" && name ? { text: shortText(name) } : { word: "set" };
    }
    case "html":
      return { text: shortText(htmlText(value as string)) };
    case "date":
      // A period's dates are stored as people type them (DD.MM.YYYY); an instant as ISO-8601.
      return {
        text:
          typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value)
            ? formatDateTime(value, false, DISPLAY_TIME_ZONE)
            : String(value),
      };
    case "number":
      return { text: String(value) };
    case "teams":
    case "tags":
    case "categories":
      return itemsText(value, names[kind]);
    case "items":
      return itemsText(value, undefined);
    case "language":
      return { text: languagesText(value) };
    case "translations":
      return translatedTexts(value as Record<string, unknown>, names);
    case "lines":
      // Sentences written to be read one by one (what an import did not keep): each whole, in its order.
      return { lines: (Array.isArray(value) ? value : [value]).map((line) => String(line)) };
    default:
      return { text: shortText(typeof value === "string" ? value : JSON.stringify(value)) };
  }
}

/** The fields an entry changed, in words; a reorder is one "order" change naming the items in order. */
export function changesOf(
  before: string | null,
  after: string | null,
  names: TrailNames,
  entity: string,
): { changes: Change[]; more: boolean } {
  const b = parsed(before);
  const a = parsed(after);
  if (Array.isArray(b) || Array.isArray(a)) {
    const lookup =
      entity === "category"
        ? names.categories
        : entity === "answer_option"
          ? names.options
          : entity === "patient_form_attribute"
            ? names.attributes
            : names.questions;
    return {
      changes: [{ field: "order", before: b ? itemsText(b, lookup) : NONE, after: a ? itemsText(a, lookup) : NONE }],
      more: false,
    };
  }
  const fields = new Map<string, { before?: unknown; after?: unknown }>();
  for (const [key, value] of Object.entries(b ?? {})) fields.set(canonicalField(key), { before: value });
  for (const [key, value] of Object.entries(a ?? {})) {
    const field = canonicalField(key);
    fields.set(field, { ...fields.get(field), after: value });
  }
  const changes: Change[] = [];
  let more = false;
  for (const [field, { before: was, after: is }] of fields) {
    if (UNNAMED.has(field)) continue;
    if (JSON.stringify(was ?? null) === JSON.stringify(is ?? null) && b && a) continue;
    const kind = FIELDS[field];
    // What a creation left empty, or a deletion found empty, is no change: "Einheit: leer → leer" says nothing.
    if (readsAsNone(kind, was) && readsAsNone(kind, is)) continue;
    if (!kind) {
      more = true;
      continue;
    }
    changes.push({ field, before: valueOf(kind, was, names), after: valueOf(kind, is, names) });
  }
  return { changes, more };
}

/** The name of what an entry is about: its title or text now, else the one the entry itself recorded. */
export function entityName(
  entity: string,
  entityId: string | null,
  before: string | null,
  after: string | null,
  names: TrailNames,
): string | null {
  const id = Number(entityId);
  const known =
    entity === "question"
      ? names.questions.get(id)
      : entity === "answer_option"
        ? names.options.get(id)
        : entity === "category"
          ? names.categories.get(id)
          : entity === "patient_form_attribute"
            ? names.attributes.get(id)
            : undefined;
  if (known) return known;
  for (const json of [after, before]) {
    const value = parsed(json);
    if (!value || Array.isArray(value)) continue;
    const label = value.title ?? value.Title ?? value.text ?? value.Text ?? value.name ?? value.Name;
    if (typeof label === "string" && label) return shortText(label);
  }
  return null;
}
