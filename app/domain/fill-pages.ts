/** The pages of the fill flow, in order (section 2, Fill flow). */
export type FillPage = "intro" | "preliminary" | "questionnaire" | "outro" | "done";

/**
 * A page is one only when it has something to show: the intro with a text, the preliminary page with
 * preliminary questions asked (enabled), the questionnaire with a question in one of its categories (a
 * draft's preview may have none).
 */
export function pagesOf(survey: {
  IntroText: string;
  IsPatientFormEnabled: boolean;
  PatientForm: readonly { Enabled: boolean }[];
  Categories: readonly { Questions: readonly unknown[] }[];
}): FillPage[] {
  const pages: FillPage[] = [];
  if (survey.IntroText.replace(/<[^>]*>/g, "").trim() !== "") pages.push("intro");
  if (hasPreliminaryPage(survey)) pages.push("preliminary");
  if (survey.Categories.some((c) => c.Questions.length > 0)) pages.push("questionnaire");
  pages.push("outro", "done");
  return pages;
}

/** Whether a case of the survey has a page of preliminary questions: one with a question it asks. */
export function hasPreliminaryPage(survey: {
  IsPatientFormEnabled: boolean;
  PatientForm: readonly { Enabled: boolean }[];
}): boolean {
  return survey.IsPatientFormEnabled && survey.PatientForm.some((a) => a.Enabled);
}

/** The preliminary questions a case is asked: the enabled ones (section 5). */
export function askedPreliminary<A extends { Enabled: boolean }>(survey: { PatientForm: readonly A[] }): A[] {
  return survey.PatientForm.filter((a) => a.Enabled);
}

/**
 * Whether every preliminary question asked has an answer (`given`: answer option by preliminary question).
 * The page, the route, the forms without JavaScript and the place a case resumes at all ask this.
 */
export function preliminaryComplete(
  survey: { PatientForm: readonly { Id: number; Enabled: boolean }[] },
  given: Readonly<Record<number, number | undefined>>,
): boolean {
  return askedPreliminary(survey).every((a) => given[a.Id] !== undefined);
}

/**
 * The page a case may show: the questionnaire only once every preliminary question is answered (section 5),
 * also when an address asks for it. (The outro and the confirmation follow a save for later, which may
 * leave preliminary questions open.)
 */
export function reachablePage(page: FillPage, pages: FillPage[], preliminaryDone: boolean): FillPage {
  return page === "questionnaire" && pages.includes("preliminary") && !preliminaryDone ? "preliminary" : page;
}

export function pageFrom(value: string | null, pages: FillPage[]): FillPage {
  return pages.includes(value as FillPage) ? (value as FillPage) : pages[0];
}

/** "Page x of y" counts the pages a person fills (the confirmation page is not one). */
export function pagePosition(page: FillPage, pages: FillPage[]): { index: number; total: number } {
  const counted = pages.filter((p) => p !== "done");
  const index = page === "done" ? counted.length : counted.indexOf(page) + 1;
  return { index, total: counted.length };
}

export function nextPage(page: FillPage, pages: FillPage[]): FillPage {
  return pages[Math.min(pages.indexOf(page) + 1, pages.length - 1)];
}

export function previousPage(page: FillPage, pages: FillPage[]): FillPage {
  return pages[Math.max(pages.indexOf(page) - 1, 0)];
}
