/** What numbering needs of a question: its id and the sub-questions under its answers. */
export interface NumberedQuestion {
  Id: number;
  AnswerOptions: readonly { SubQuestions: readonly NumberedQuestion[] }[];
}

/**
 * The number each question of a category carries, as the editor's questionnaire tab shows it: 1, 2, … in the
 * category's order, and a question's sub-questions its number on with a dot (2.1, 2.2, …), counted across its
 * answers in their order, at any depth (2.1.1). The editor's preview shows the same numbers, whichever
 * questions its rules hide.
 */
export function questionNumbers(questions: readonly NumberedQuestion[]): Map<number, string> {
  const numbers = new Map<number, string>();
  const walk = (list: readonly NumberedQuestion[], prefix: string) =>
    list.forEach((question, index) => {
      const number = `${prefix}${index + 1}`;
      numbers.set(question.Id, number);
      walk(
        question.AnswerOptions.flatMap((option) => option.SubQuestions),
        `${number}.`,
      );
    });
  walk(questions, "");
  return numbers;
}
