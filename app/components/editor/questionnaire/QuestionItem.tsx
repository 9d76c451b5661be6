import { useState } from "react";
import { useTranslation } from "~/texts";
import { hasAnswerOptions } from "~/domain/question-types";
import { scoreText } from "~/domain/scores";
import { answerText, type AnswerOption, type Question, type Survey } from "~/domain/survey";
import { SortableList } from "../SortableList";
import { Menu } from "~/components/ui/Menu";
import { useRovingRow } from "~/components/ui/useRovingRow";
import { addableTypes } from "./AddQuestionMenu";
import { AnswerAdder } from "./AnswerAdder";
import { useQuestionnaire } from "./context";

function AnswerItem({
  question,
  answer,
  handle,
  number,
  subStart,
}: {
  question: Question;
  answer: AnswerOption;
  handle: React.ReactNode;
  /** The number of the question the answer belongs to: its sub-questions go on from it. */
  number: string;
  /** How many sub-questions the answers before this one hold: the question's sub-questions count on. */
  subStart: number;
}) {
  const { t, i18n } = useTranslation();
  const { editable, open, move } = useQuestionnaire();
  const image = question.Type === "Image";
  const row = useRovingRow<HTMLDivElement>(answerText(answer), editable);
  return (
    <div className="answer" data-testid="answer">
      <div className="answer__row" {...row}>
        {handle}
        <span className="answer__text">{answerText(answer)}</span>
        {answer.IsExitAnswer ? <span className="badge badge--warn">{t("questionnaire.exitAnswer")}</span> : null}
        {question.IsTestQuestion && answer.WeightingState === 1 ? (
          <span className="badge badge--ok">{t("questionnaire.correctWeight", { weight: answer.Weight ?? 1 })}</span>
        ) : null}
        {answer.Score !== null ? (
          <span className="badge" data-testid="answer-score">
            {t("questionnaire.score", { score: scoreText(answer.Score, i18n.language) })}
          </span>
        ) : null}
        {image && answer.X !== null ? (
          <span className="answer__pos">
            ({answer.X?.toFixed(3)}, {answer.Y?.toFixed(3)})
          </span>
        ) : null}
        {editable ? (
          <span className="item__actions">
            <Menu label={t("questionnaire.answerActions", { answer: answerText(answer) })}>
              {/* A marker's title, exit flag and score are edited here too; it is placed and removed in the question. */}
              <button type="button" className="menu__item" onClick={() => open({ kind: "answer", question, answer })}>
                {t("questionnaire.edit")}
              </button>
              {!image ? (
                <button
                  type="button"
                  className="menu__item"
                  onClick={() => open({ kind: "deleteAnswer", question, answer })}
                >
                  {t("questionnaire.delete")}
                </button>
              ) : null}
              <div role="group" aria-labelledby={`sub-${answer.Id}`} className="menu__group">
                <p id={`sub-${answer.Id}`} className="menu__heading">
                  {t("questionnaire.addSubQuestion")}
                </p>
                {addableTypes.map((type) => (
                  <button
                    key={type}
                    type="button"
                    className="menu__item"
                    onClick={() =>
                      open({ kind: "question", mode: { kind: "createSub", type, parentAnswerOptionId: answer.Id } })
                    }
                  >
                    {t(`questionType.${type}`)}
                  </button>
                ))}
              </div>
            </Menu>
          </span>
        ) : null}
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
            renderItem={(q, h, index) => (
              <QuestionItem question={q} handle={h} number={`${number}.${subStart + index + 1}`} />
            )}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The preliminary answers a rule names, by their texts. */
function ruleAnswers(survey: Survey, ids: readonly number[]): string {
  const texts = new Map(survey.PatientForm.flatMap((a) => a.AnswerOptions.map((o) => [o.Id, o.Text] as const)));
  return ids.map((id) => texts.get(id) ?? "?").join(", ");
}

/**
 * One question with its answers and, under each answer, its sub-questions (any depth), numbered within its
 * category (sub-questions as 2.1, 2.1.1).
 */
export function QuestionItem({
  question,
  handle,
  number,
}: {
  question: Question;
  handle: React.ReactNode;
  number: string;
}) {
  const { t } = useTranslation();
  const { editable, open, move, survey, problems } = useQuestionnaire();
  const [expanded, setExpanded] = useState(true);
  const choices = hasAnswerOptions(question.Type);
  const own = problems.get(question.Id) ?? [];
  const row = useRovingRow<HTMLDivElement>(`${number} ${question.Title}`, editable || choices);
  return (
    <div className="question" data-testid="question" data-question-id={question.Id}>
      <div className="question__row" {...row}>
        {handle}
        <span className="question__number">{number}</span>
        <span className="question__title">{question.Title}</span>
        <span className="badge">{t(`questionType.${question.Type}`)}</span>
        {question.Unit ? <span className="badge">{question.Unit}</span> : null}
        {question.IsTestQuestion ? <span className="badge">{t("questionnaire.testQuestion")}</span> : null}
        {question.AllowFileAttachments ? <span className="badge">{t("questionnaire.attachments")}</span> : null}
        {own.map((problem) => (
          <span key={problem.kind} className="badge badge--danger" data-testid="problem-badge">
            {t(`publishCheck.badge.${problem.kind}`)}
          </span>
        ))}
        {question.Dependence ? (
          <span className="badge badge--info" data-testid="rule-badge">
            {t(`questionnaire.dependence${question.Dependence.Type}`)}:{" "}
            {ruleAnswers(survey, question.Dependence.PreliminaryAnswerOptions)}
          </span>
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
            renderItem={(a, h, index) => (
              <AnswerItem
                question={question}
                answer={a}
                handle={h}
                number={number}
                subStart={question.AnswerOptions.slice(0, index).reduce((n, o) => n + o.SubQuestions.length, 0)}
              />
            )}
          />
          {editable && question.Type !== "Image" ? <AnswerAdder question={question} /> : null}
        </div>
      ) : null}
    </div>
  );
}
