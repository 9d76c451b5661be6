import { DISPLAY_TIME_ZONE, formatDateTime } from "./dates";

/**
 * A trail entry in words (decision 028): what changed, by its name in the person's language, with its value
 * before and after as people read values (yes/no, the app's date format, the text of HTML, names of teams and
 * of the questionnaire's parts), never column names, ids or raw JSON. The stored rows keep two spellings of
 * their fields (database columns like `is_exit_answer`, and the API's `IsExitAnswer`): both read the same.
 */

/** A value shown in a change: a text as it is, a word to translate (yes, no, a status, a type), or none. */
export type ChangeValue = { text: string } | { word: string } | { none: true };

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

/** The fields the trail names, each with how its value reads. */
const FIELDS: Record<string, "text" | "html" | "yesNo" | "date" | "status" | "type" | "number" | Lists> = {
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
  RetentionMonths: "number",
  IsPatientIdAutoGenerationEnabled: "yesNo",
  Enabled: "yesNo",
  HasImage: "yesNo",
  TeamPermissions: "teams",
  UserTeamPermissions: "teams",
  EditorTeamPermissions: "teams",
  ApproverTeamPermissions: "teams",
  TagIds: "tags",
  CategoryId: "categories",
  Answers: "items",
  AnswerOptions: "items",
  Markers: "items",
};

type Lists = "teams" | "tags" | "categories" | "items";

/** Fields that say nothing a reader needs (ids, bookkeeping). */
const UNNAMED = new Set([
  "Id",
  "QuestionId",
  "SurveyId",
  "ParentAnswerOptionId",
  "SourceSurveyId",
  "UpdatedAt",
  "CreatedAt",
]);

const MAX_TEXT = 120;

function shortText(text: string): string {
  const plain = text.replace(/\s+/g, " ").trim();
  return plain.length > MAX_TEXT ? `${plain.slice(0, MAX_TEXT - 1)}…` : plain;
}

/** The text of stored (sanitized) HTML, without its tags. */
function htmlText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d)\s*\/?>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

const NONE: ChangeValue = { none: true };

function isBlank(value: unknown): boolean {
  return value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0);
}

/** A list's items by their names (ids through `names`, objects by their text or title). */
function itemsText(value: unknown, names: ReadonlyMap<number, string> | undefined): ChangeValue {
  const list = Array.isArray(value) ? value : [value];
  const words = list.map((item) => {
    if (typeof item === "number") return names?.get(item) ?? "?";
    if (item && typeof item === "object") {
      const o = item as Record<string, unknown>;
      const label = o.text ?? o.Text ?? o.title ?? o.Title ?? o.name ?? o.Name;
      return typeof label === "string" ? label : "?";
    }
    return String(item);
  });
  return { text: shortText(words.join(", ")) };
}

function valueOf(kind: (typeof FIELDS)[string], value: unknown, names: TrailNames): ChangeValue {
  if (isBlank(value)) return NONE;
  switch (kind) {
    case "yesNo":
      return { word: value === true || value === 1 || value === "1" || value === "true" ? "yes" : "no" };
    case "status":
    case "type":
      return { word: `${kind}.${String(value)}` };
    case "html":
      return typeof value === "string" ? (htmlText(value).trim() ? { text: shortText(htmlText(value)) } : NONE) : NONE;
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
    default:
      return { text: shortText(typeof value === "string" ? value : JSON.stringify(value)) };
  }
}

function parsed(json: string | null): Record<string, unknown> | unknown[] | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
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
