import type { AnswerStatistics, CategoryStatistics, QuestionStatistics, StatisticsFilters } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";

/**
 * The filters of one survey said in the terms of another (a clone of the same original): preliminary
 * answers are matched by the preliminary question's position and the answer's text; teams and dates stay;
 * patient ids belong to one survey and are left out.
 */
export function filtersFor(other: Survey, main: Survey, filters: StatisticsFilters): StatisticsFilters {
  const { PatientIds: _ids, PreliminaryQuestionsSelection: selection, ...rest } = filters;
  if (!selection) return rest;
  const mapped: Record<string, number[]> = {};
  for (const [attributeId, optionIds] of Object.entries(selection)) {
    const index = main.PatientForm.findIndex((a) => a.Id === Number(attributeId));
    const source = main.PatientForm[index];
    const target = other.PatientForm[index];
    if (!source || !target) continue;
    const texts = new Set(source.AnswerOptions.filter((o) => optionIds.includes(o.Id)).map((o) => o.Text));
    // A chosen answer the other survey lacks matches no case there, as it would here.
    mapped[String(target.Id)] = target.AnswerOptions.filter((o) => texts.has(o.Text)).map((o) => o.Id);
    if (mapped[String(target.Id)].length === 0) mapped[String(target.Id)] = [0x7fffffff];
  }
  return { ...rest, PreliminaryQuestionsSelection: mapped };
}

/** The entry of `list` that pairs with the one at `index` of the main list: same title first, else same place and kind. */
function pair<T>(
  mainList: readonly T[],
  index: number,
  list: readonly T[],
  title: (t: T) => string,
  kind: (t: T) => unknown,
) {
  const m = mainList[index];
  return (
    list.find((o) => title(o) === title(m) && kind(o) === kind(m)) ??
    (list[index] && kind(list[index]) === kind(m) ? list[index] : undefined)
  );
}

function pairAnswers(main: AnswerStatistics[], other: AnswerStatistics[]) {
  main.forEach((a, i) => {
    const o = pair(
      main,
      i,
      other,
      (x) => x.AnswerOptionText,
      () => true,
    );
    if (!o) return;
    o.PairedId = a.AnswerOptionId;
    pairQuestions(a.SubQuestionStatistics, o.SubQuestionStatistics);
  });
}

function pairQuestions(main: QuestionStatistics[], other: QuestionStatistics[]) {
  main.forEach((q, i) => {
    const o = pair(
      main,
      i,
      other,
      (x) => x.QuestionTitle,
      (x) => x.Type,
    );
    if (!o) return;
    o.PairedId = q.QuestionId;
    pairAnswers(q.AnswerStatistics, o.AnswerStatistics);
  });
}

/**
 * Marks each of the benchmark survey's categories, questions and answers with the id of the main survey's
 * counterpart (PairedId), so the page puts them side by side; entries without a counterpart keep none.
 */
export function pairWith(main: CategoryStatistics[], other: CategoryStatistics[]): void {
  for (const o of other) o.PairedId = null;
  main.forEach((c, i) => {
    const o = pair(
      main,
      i,
      other,
      (x) => x.CategoryText,
      () => true,
    );
    if (!o) return;
    o.PairedId = c.CategoryId;
    pairQuestions(c.QuestionStatistics, o.QuestionStatistics);
  });
}
