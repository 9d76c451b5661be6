import { z } from "zod";
import { keyForWrite } from "~/domain/idempotency";
import { ApiError, type ApiClient } from "./api-client.server";

/**
 * The survey list's Import dialog (docs/decisions/040-fhir.md): the chosen file is checked (size, JSON, a
 * Questionnaire) and previewed through the API; the confirmation sends the same text back and creates the
 * Draft survey. Plain form posts, so it works without JavaScript.
 */

/** The largest file the dialog takes: the API's limit for the import's body. */
export const IMPORT_MAX_BYTES = 3_000_000;

export const ImportFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("import-preview"), file: z.instanceof(File).optional() }),
  z.object({ intent: z.literal("import"), text: z.string().max(IMPORT_MAX_BYTES), formKey: z.string().max(100) }),
]);

const PreviewSchema = z.object({
  Title: z.string(),
  Categories: z.number(),
  Questions: z.number(),
  PreliminaryQuestions: z.number(),
  NotKept: z.array(z.string()),
});
const ResultSchema = z.object({ SurveyId: z.number(), NotKept: z.array(z.string()) });

export type ImportAnswer =
  | { import: "error"; key: string; vars?: Record<string, string>; detail?: string }
  | { import: "preview"; preview: z.infer<typeof PreviewSchema>; text: string }
  | { import: "created"; surveyId: number };

function parsed(text: string): ImportAnswer | unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { import: "error", key: "surveys.import.notJson" } satisfies ImportAnswer;
  }
}

const isAnswer = (v: unknown): v is ImportAnswer => typeof v === "object" && v !== null && "import" in v;

async function ask(api: ApiClient, text: string, preview: boolean, formKey?: string): Promise<ImportAnswer> {
  const resource = parsed(text);
  if (isAnswer(resource)) return resource;
  const type = (resource as { resourceType?: unknown } | null)?.resourceType;
  if (type !== "Questionnaire") {
    return typeof type === "string"
      ? { import: "error", key: "surveys.import.notQuestionnaire", vars: { type } }
      : { import: "error", key: "surveys.import.notFhir" };
  }
  try {
    if (preview) {
      const answer = await api.post("/surveys/fhir-import", {
        query: { preview: "true" },
        body: resource,
        schema: PreviewSchema,
      });
      return { import: "preview", preview: answer, text };
    }
    const idempotencyKey = keyForWrite(formKey ?? "", "fhir-import");
    const made = await api.post("/surveys/fhir-import", { body: resource, schema: ResultSchema, idempotencyKey });
    return { import: "created", surveyId: made.SurveyId };
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) return { import: "error", key: "surveys.import.tooLarge" };
    if (error instanceof ApiError && error.status === 400) {
      return { import: "error", key: "surveys.import.invalid", detail: error.envelope.Error };
    }
    throw error;
  }
}

/** The dialog's form post: a preview of the chosen file, or the survey made from the previewed text. */
export async function importFromForm(api: ApiClient, form: z.infer<typeof ImportFormSchema>): Promise<ImportAnswer> {
  if (form.intent === "import") return ask(api, form.text, false, form.formKey);
  const file = form.file;
  if (!file || file.size === 0) return { import: "error", key: "surveys.import.noFile" };
  if (file.size > IMPORT_MAX_BYTES) return { import: "error", key: "surveys.import.tooLarge" };
  return ask(api, await file.text(), true);
}
