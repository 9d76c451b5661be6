import { AppError } from "~/domain/errors";
import type { AnswerOption, Category, PatientFormAttribute, Question, Survey } from "~/domain/survey";
import { surveyQuestions } from "~/domain/visibility";

function found<T>(item: T | undefined, what: string, id: number): T {
  // The item was written in the same request; missing means a concurrent delete.
  if (!item) throw new AppError("NOT_FOUND", `${what} ${id} does not exist`);
  return item;
}

export function categoryIn(survey: Survey, id: number): Category {
  return found(
    survey.Categories.find((c) => c.Id === id),
    "Category",
    id,
  );
}

export function questionIn(survey: Survey, id: number): Question {
  for (const q of surveyQuestions(survey)) if (q.Id === id) return q;
  return found<Question>(undefined, "Question", id);
}

export function answerOptionIn(survey: Survey, id: number): AnswerOption {
  for (const q of surveyQuestions(survey)) {
    const option = q.AnswerOptions.find((o) => o.Id === id);
    if (option) return option;
  }
  return found<AnswerOption>(undefined, "Answer option", id);
}

export function attributeIn(survey: Survey, id: number): PatientFormAttribute {
  return found(
    survey.PatientForm.find((a) => a.Id === id),
    "Preliminary question",
    id,
  );
}
