import { answerRequest, answersFromResponses, isAnswered, type AnswerValue } from "~/domain/answers";
import type { Question, Survey } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import type { ApiClient } from "./api-client.server";

/** The value a page form gives for one question (field q{id}); undefined when left empty. */
function valueFromForm(question: Question, form: FormData): AnswerValue | undefined {
  const values = form
    .getAll(`q${question.Id}`)
    .map(String)
    .filter((v) => v.trim() !== "");
  if (values.length === 0) return undefined;
  switch (question.Type) {
    case "FreeText":
      return { TextResponse: values[0] };
    case "Numerical": {
      const n = Number(values[0].replace(",", "."));
      return Number.isFinite(n) ? { NumericalResponse: Math.round(n * 100) / 100 } : undefined;
    }
    case "DateTime":
      return { DateTimeResponse: values[0].trim() };
    default:
      return { AnswerOptionIds: values.map(Number).filter((n) => Number.isInteger(n)) };
  }
}

function same(a: AnswerValue | undefined, b: AnswerValue | undefined) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * Saves what a page form (without JavaScript) carries: each listed question whose value changed is
 * recorded or, emptied, deleted. The API checks every value; its refusal is thrown.
 */
export async function savePageFromForm(api: ApiClient, survey: Survey, patientId: string, form: FormData) {
  const ids = { PatientId: patientId, SurveyId: survey.Id };
  const listed = new Set(form.getAll("questionIds").map(Number));
  const current = answersFromResponses(
    await api.get("/question-responses/", { query: { surveyId: survey.Id, patientId } }),
  );
  for (const question of allQuestions(topLevelQuestions(survey.Categories)).filter((q) => listed.has(q.Id))) {
    const next = valueFromForm(question, form);
    const before = current[question.Id];
    if (same(next, before) || (!next && !isAnswered(before))) continue;
    const request = next ? answerRequest(question, next, ids) : null;
    if (request) await api.post(request.path, { body: request.body });
    else await api.delete("/question-responses/question", { body: { ...ids, QuestionId: question.Id } });
  }
}

/** Saves the preliminary answers of the form (fields a{attributeId}). */
export async function savePreliminaryFromForm(api: ApiClient, survey: Survey, patientId: string, form: FormData) {
  for (const attribute of survey.PatientForm) {
    const value = Number(form.get(`a${attribute.Id}`));
    if (!Number.isInteger(value) || value <= 0) continue;
    await api.post("/attribute-responses", {
      body: {
        PatientId: patientId,
        SurveyId: survey.Id,
        PatientFormAttributeId: attribute.Id,
        PatientFormAnswerOptionId: value,
      },
    });
  }
}
