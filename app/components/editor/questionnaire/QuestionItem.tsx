import { useState } from "react";
import { useTranslation } from "react-i18next";
import { hasAnswerOptions } from "~/domain/question-types";
import { answerText, type AnswerOption, type Question } from "~/domain/survey";
import { SortableList } from "../SortableList";
import { AddQuestionMenu } from "./AddQuestionMenu";
import { useQuestionnaire } from "./context";

function AnswerItem({
  question,
  answer,
  handle,
}: {
  question: Question;
  answer: AnswerOption;
  handle: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { editable, open, move } = useQuestionnaire();
  const image = question.Type === "Image";
  return (
    <div className="answer" data-testid="answer">
      <div className="answer__row">
        {handle}
        <span className="answer__text">{answerText(answer)}</span>
        {answer.IsExitAnswer ? <span className="badge badge--warn">{t("questionnaire.exitAnswer")}</span> : null}
        {question.IsTestQuestion && answer.WeightingState === 1 ? (
          <span className="badge badge--ok">{t("questionnaire.correctWeight", { weight: answer.Weight ?? 1 })}</span>
        ) : null}
        {image && answer.X !== null ? (
          <span className="answer__pos">
            ({answer.X?.toFixed(3)}, {answer.Y?.toFixed(3)})
          </span>
        ) : null}
        <span className="item__actions">
          {editable && !image ? (
            <>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => open({ kind: "answer", question, answer })}
              >
                {t("questionnaire.edit")}
              </button>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => open({ kind: "deleteAnswer", question, answer })}
              >
                {t("questionnaire.delete")}
              </button>
            </>
          ) : null}
          {editable ? (
            <AddQuestionMenu
              label={t("questionnaire.addSubQuestion")}
              onPick={(type) =>
                open({ kind: "question", mode: { kind: "createSub", type, parentAnswerOptionId: answer.Id } })
              }
            />
          ) : null}
        </span>
      </div>
      {answer.SubQuestions.length > 0 ? (
        <div className="subquestions">
          <SortableList
            items={answer.SubQuestions}
            getId={(q) => q.Id}
            getLabel={(q) => q.Title}
            kind="question"
            label={t("questionnaire.subQuestionsOf", { answer: answerText(answer) })}
            disabled={!editable}
            onMove={move}
            renderItem={(q, h) => <QuestionItem question={q} handle={h} />}
          />
        </div>
      ) : null}
    </div>
  );
}

/** One question with its answers and, under each answer, its sub-questions (any depth). */
export function QuestionItem({ question, handle }: { question: Question; handle: React.ReactNode }) {
  const { t } = useTranslation();
  const { editable, open, move } = useQuestionnaire();
  const [expanded, setExpanded] = useState(true);
  const choices = hasAnswerOptions(question.Type);
  return (
    <div className="question" data-testid="question" data-question-id={question.Id}>
      <div className="question__row">
        {handle}
        <span className="question__title">{question.Title}</span>
        <span className="badge">{t(`questionType.${question.Type}`)}</span>
        {question.Unit ? <span className="badge">{question.Unit}</span> : null}
        {question.IsTestQuestion ? <span className="badge">{t("questionnaire.testQuestion")}</span> : null}
        {question.AllowFileAttachments ? <span className="badge">{t("questionnaire.attachments")}</span> : null}
        {question.Dependence ? (
          <span className="badge badge--info">{t(`questionnaire.dependence${question.Dependence.Type}`)}</span>
        ) : null}
        <span className="item__actions">
          {choices ? (
            <button
              type="button"
              className="btn btn--small"
              aria-expanded={expanded}
              onClick={() => setExpanded(!expanded)}
            >
              {t(expanded ? "questionnaire.hideAnswers" : "questionnaire.showAnswers", {
                count: question.AnswerOptions.length,
              })}
            </button>
          ) : null}
          {editable ? (
            <>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => open({ kind: "question", mode: { kind: "edit", question } })}
              >
                {t("questionnaire.edit")}
              </button>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => open({ kind: "deleteQuestion", question })}
              >
                {t("questionnaire.delete")}
              </button>
            </>
          ) : null}
        </span>
      </div>
      {choices && expanded ? (
        <div className="answers">
          <SortableList
            items={question.AnswerOptions}
            getId={(a) => a.Id}
            getLabel={(a) => answerText(a)}
            kind="answer"
            label={t("questionnaire.answersOf", { question: question.Title })}
            disabled={!editable}
            onMove={move}
            renderItem={(a, h) => <AnswerItem question={question} answer={a} handle={h} />}
          />
          {editable && question.Type !== "Image" ? (
            <button type="button" className="btn btn--small" onClick={() => open({ kind: "answer", question })}>
              + {t("questionnaire.addAnswer")}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
