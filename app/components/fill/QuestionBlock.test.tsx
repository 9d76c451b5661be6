import fc from "fast-check";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Answers, PreliminaryAnswers } from "~/domain/answers";
import { filledTreeArb, type TQ } from "~/domain/fill-trees.test-support";
import type { Question, Survey } from "~/domain/survey";
import { visibleQuestionIds } from "~/domain/visibility";
import { question } from "~/offline/test-support";
import { QuestionBlock } from "./QuestionBlock";
import { useFillRules } from "./rules";

/** A tree of the visibility tests as the wire's questions: each a multiple selection. */
function wire(tree: TQ): Question {
  return {
    ...question(tree.Id, "MultipleSelection", true),
    Dependence: tree.Dependence && {
      Type: tree.Dependence.Type,
      PreliminaryAnswerOptions: [...tree.Dependence.PreliminaryAnswerOptions],
    },
    AnswerOptions: tree.AnswerOptions.map((o, i) => ({
      Id: o.Id,
      QuestionId: tree.Id,
      SurveyId: 7,
      Text: `A${o.Id}`,
      Value: null,
      IsExitAnswer: false,
      Weight: null,
      WeightingState: 0,
      Sort: i,
      X: null,
      Y: null,
      Score: null,
      System: null,
      SubQuestions: o.SubQuestions.map(wire),
    })),
  };
}

function Page({ survey, answers, preliminary }: { survey: Survey; answers: Answers; preliminary: PreliminaryAnswers }) {
  const rules = useFillRules(survey, answers, preliminary);
  return (
    <>
      {survey.Categories[0].Questions.filter(rules.isVisible).map((q) => (
        <QuestionBlock
          key={q.Id}
          question={q}
          answers={answers}
          subQuestionsOf={rules.subQuestionsOf}
          failed={new Set()}
          onAnswer={() => undefined}
          named={false}
        />
      ))}
    </>
  );
}

describe("the questions the fill page draws", () => {
  it("are exactly the visible ones of the one visibility rule, sub-questions and their own rules included", () => {
    fc.assert(
      fc.property(filledTreeArb, ({ tree, answers, preliminary }) => {
        const survey = {
          Id: 7,
          Categories: [{ Id: 1, Title: "Teil", Questions: tree.map(wire) }],
        } as unknown as Survey;
        const byAttribute: PreliminaryAnswers = Object.fromEntries(preliminary.map((id, i) => [i + 1, id]));
        const html = renderToStaticMarkup(
          <Page survey={survey} answers={answers as Answers} preliminary={byAttribute} />,
        );
        const drawn = [...html.matchAll(/data-question-id="(\d+)"/g)].map((m) => Number(m[1]));
        expect(new Set(drawn)).toEqual(visibleQuestionIds(tree, preliminary, answers));
        expect(drawn).toHaveLength(new Set(drawn).size);
      }),
      { numRuns: 150 },
    );
  });
});
