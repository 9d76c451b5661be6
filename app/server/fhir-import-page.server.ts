import { mediaTypeOf } from "~/contracts/contract";
import { FHIR_IMPORT_MAX_QUESTIONS, fhirApi, ImportPreviewSchema, ImportResultSchema } from "~/contracts/fhir";
import { z } from "zod";
import { keyForWrite } from "~/domain/idempotency";
import { ApiError, type ApiClient } from "./api-client.server";
import { translate } from "./locales.server";

/**
 * The survey list's Import dialog (docs/decisions/040-fhir.md): the chosen file is checked (size, JSON, a
 * Questionnaire) and previewed through the API; the confirmation sends the same text back and creates the
 * Draft survey, and shows once more what was not kept when something was. Plain form posts, so it works
 * without JavaScript. Its texts come translated from here (the locale files' surveyImport section) only
 * while it is open, so the list's language file stays as small as it was.
 */

const LABELS = [
  "title",
  "file",
  "help",
  "check",
  "notKeptNote",
  "allKept",
  "another",
  "create",
  "cancel",
  "open",
  "close",
] as const;
export type ImportLabels = Record<(typeof LABELS)[number], string>;

/** The dialog's fixed texts in the page's language. */
export function importLabels(culture: string): ImportLabels {
  const vars = { max: String(FHIR_IMPORT_MAX_QUESTIONS) };
  return Object.fromEntries(LABELS.map((k) => [k, translate(culture, `surveyImport.${k}`, vars)])) as ImportLabels;
}

/**
 * The media types a chosen file is sent to the API as: a FHIR resource's own, or JSON's. A file the browser
 * names otherwise (text/plain, or nothing for an unknown ending) is JSON by its content, checked here.
 */
const SENT_AS = new Set(["application/fhir+json", "application/json"]);

/** The largest file the dialog takes: the API's limit for the import's body. */
export const IMPORT_MAX_BYTES = 3_000_000;

export const ImportFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("import-preview"), file: z.instanceof(File).optional() }),
  z.object({
    intent: z.literal("import"),
    text: z.string().max(IMPORT_MAX_BYTES),
    type: z.string().max(100).optional(),
    formKey: z.string().max(100),
  }),
]);

/** A parsed file that names itself a Questionnaire; the API checks the rest. */
type Questionnaire = { resourceType: string };

type Answer =
  | { import: "error"; key: string; vars?: Record<string, string>; detail?: string; said?: string }
  | { import: "preview"; preview: z.infer<typeof ImportPreviewSchema>; text: string; type: string }
  | { import: "created"; made: z.infer<typeof ImportResultSchema> };

/**
 * What the dialog shows after a step, its sentences translated. A survey created with nothing lost opens in
 * the editor at once; one with losses is shown with them first ("created").
 */
export type ImportAnswer =
  | { import: "error"; message: string }
  | { import: "preview"; summary: string; notKeptTitle: string; notKept: string[]; text: string; type: string }
  | { import: "created"; surveyId: number; summary: string; notKeptTitle: string; notKept: string[] };

function parsed(text: string): Answer | unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { import: "error", key: "notJson" } satisfies Answer;
  }
}

const isAnswer = (v: unknown): v is Answer => typeof v === "object" && v !== null && "import" in v;

async function ask(api: ApiClient, text: string, type: string, preview: boolean, formKey?: string): Promise<Answer> {
  const resource = parsed(text);
  if (isAnswer(resource)) return resource;
  const resourceType = (resource as { resourceType?: unknown } | null)?.resourceType;
  if (resourceType !== "Questionnaire") {
    return typeof resourceType === "string"
      ? { import: "error", key: "notQuestionnaire", vars: { type: resourceType } }
      : { import: "error", key: "notFhir" };
  }
  const contentType = SENT_AS.has(type) ? type : "application/json";
  try {
    if (preview) {
      // The contract answers either shape: a preview is read as one.
      const answer = ImportPreviewSchema.parse(
        await api.call(
          fhirApi.importQuestionnaire,
          { query: { preview: true }, body: resource as Questionnaire },
          { contentType },
        ),
      );
      return { import: "preview", preview: answer, text, type: contentType };
    }
    const idempotencyKey = keyForWrite(formKey ?? "", "fhir-import");
    const made = ImportResultSchema.parse(
      await api.call(fhirApi.importQuestionnaire, { body: resource as Questionnaire }, { idempotencyKey, contentType }),
    );
    return { import: "created", made };
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) return { import: "error", key: "tooLarge" };
    // A Questionnaire that makes no survey (nothing to hold, or too much) is refused in the caller's words.
    if (error instanceof ApiError && error.status === 400 && error.envelope.Reason) {
      return { import: "error", key: "invalid", said: error.envelope.Error };
    }
    if (error instanceof ApiError && error.status === 400) {
      return { import: "error", key: "invalid", detail: error.envelope.Error };
    }
    throw error;
  }
}

async function step(api: ApiClient, form: z.infer<typeof ImportFormSchema>): Promise<Answer> {
  if (form.intent === "import") return ask(api, form.text, form.type ?? "", false, form.formKey);
  const file = form.file;
  if (!file || file.size === 0) return { import: "error", key: "noFile" };
  if (file.size > IMPORT_MAX_BYTES) return { import: "error", key: "tooLarge" };
  return ask(api, await file.text(), mediaTypeOf(file.type), true);
}

/** The dialog's form post: a preview of the chosen file, or the survey made from the previewed text. */
export async function importFromForm(
  api: ApiClient,
  form: z.infer<typeof ImportFormSchema>,
  culture: string,
): Promise<ImportAnswer> {
  const answer = await step(api, form);
  const t = (key: string, vars: Record<string, string | number> = {}) =>
    translate(culture, `surveyImport.${key}`, Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])));
  if (answer.import === "error") {
    const message = answer.said ?? t(answer.key, answer.vars);
    return { import: "error", message: answer.detail ? `${message} (${answer.detail})` : message };
  }
  if (answer.import === "created") {
    const made = answer.made;
    return {
      import: "created",
      surveyId: made.SurveyId,
      summary: t("created", { title: made.Title }),
      notKeptTitle: t("notKeptAfter", { count: made.NotKept.length }),
      notKept: made.NotKept,
    };
  }
  const p = answer.preview;
  return {
    import: "preview",
    // Each count in its plural form: "1 Kategorie", "3 Kategorien".
    summary: t("summary", {
      title: p.Title,
      categories: t("categories", { count: p.Categories }),
      questions: t("questions", { count: p.Questions }),
      preliminary: t("preliminary", { count: p.PreliminaryQuestions }),
    }),
    notKeptTitle: t("notKeptTitle", { count: p.NotKept.length }),
    notKept: p.NotKept,
    text: answer.text,
    type: answer.type,
  };
}
