import type { Answers } from "~/domain/answers";
import type { Survey } from "~/domain/survey";
import { questionsById } from "~/domain/visibility";
import { baseOf, getCaseCopy, type CaseBase } from "./case-copies";
import { answerKind } from "~/domain/question-types";
import type { FillEntry } from "./fill-entry";
import type { EntryContext } from "./fill-store";
import { getEntry } from "./fill-store";
import { cachedUser } from "./root-cache";

/** How each given answer travels in a sync (questionTypes), from the survey's questions. */
export function questionTypesOf(survey: Pick<Survey, "Categories">, answers: Answers): FillEntry["questionTypes"] {
  const types: FillEntry["questionTypes"] = {};
  const byId = questionsById(survey);
  for (const id of Object.keys(answers).map(Number)) {
    const question = byId.get(id);
    if (question) types[id] = answerKind(question);
  }
  return types;
}

/** A fill on this device that starts from the server's state of the case. */
export function continuing(survey: Pick<Survey, "Categories">, base: CaseBase): Pick<EntryContext, "seed" | "base"> {
  return {
    seed: {
      answers: base.answers,
      preliminary: base.preliminary,
      questionTypes: questionTypesOf(survey, base.answers),
    },
    base: baseOf(base),
  };
}

/**
 * Where a change to a case goes on this device: its fill, or, when there is none yet, a new one that
 * continues the server's case as this device has it (case-copies.ts).
 */
export async function caseContext(survey: Survey, patientId: string): Promise<EntryContext> {
  const [entry, copy] = await Promise.all([getEntry(survey.Id, patientId), getCaseCopy(survey.Id, patientId)]);
  const user = await cachedUser();
  return {
    survey,
    patientId,
    userId: entry?.upload.userId ?? user?.userId ?? "",
    surveyUserDataId: entry?.upload.ssiUserDataId ?? user?.surveyUserDataId ?? 0,
    ...(!entry && copy ? continuing(survey, copy) : {}),
  };
}
