import { isAnswered, type Answers, type PreliminaryAnswers } from "~/domain/answers";
import type { Survey } from "~/domain/survey";
import { allQuestions } from "~/domain/visibility";
import { askedPreliminary, pagesOf, type FillPage } from "./fill-pages";

/** A place in the fill flow: a page, and on the questionnaire the category shown. */
export interface FillPlace {
  page: FillPage;
  categoryId: number | null;
}

/**
 * Where a case opened without a page in its address goes on, from what it holds (decision 019): the
 * questionnaire once a question is answered, at the last category with an answer; the preliminary page
 * while some of its questions wait for an answer, once one is given, and the questionnaire when all are;
 * otherwise the first page. The same on the server, in the page and on the device.
 */
export function resumePlace(
  survey: Pick<Survey, "IntroText" | "IsPatientFormEnabled" | "PatientForm" | "Categories">,
  answers: Answers,
  preliminary: PreliminaryAnswers,
): FillPlace {
  const pages = pagesOf(survey);
  const answered = survey.Categories.filter((c) => allQuestions(c.Questions).some((q) => isAnswered(answers[q.Id])));
  if (answered.length > 0) return { page: "questionnaire", categoryId: answered[answered.length - 1].Id };
  if (pages.includes("preliminary")) {
    const asked = askedPreliminary(survey);
    const given = asked.filter((a) => preliminary[a.Id] !== undefined).length;
    if (given > 0) return { page: given === asked.length ? "questionnaire" : "preliminary", categoryId: null };
  }
  return { page: pages[0], categoryId: null };
}

/** The pages a case is remembered at: the confirmation and the outro are where it was left, not places. */
export function isPlace(page: FillPage): boolean {
  return page === "intro" || page === "preliminary" || page === "questionnaire";
}
