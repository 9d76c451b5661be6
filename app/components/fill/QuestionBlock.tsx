import { useState } from "react";
import { useTranslation } from "~/texts";
import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import { DateTimeInput } from "./DateTimeInput";
import type { ValueProblem } from "~/domain/page-problems";
import { ChoiceInput, hintIdOf, ImageInput, TextualInput } from "./QuestionInputs";
import type { SaveState } from "./save-queue";
import { SaveStatus } from "./SaveStatus";

export interface QuestionBlockProps {
  question: Question;
  answers: Answers;
  /** The sub-questions that show under the question's chosen answers. */
  subQuestionsOf: (question: Question) => Question[];
  failed: ReadonlySet<number>;
  /** Whether each changed answer is being saved or is kept; none in preview (nothing is kept there). */
  states?: ReadonlyMap<number, SaveState>;
  /** `typing`: the value is still being typed (saved once typing pauses). */
  onAnswer: (question: Question, value: AnswerValue | undefined, typing?: boolean) => void;
  named: boolean;
  /** Without JavaScript: typed values the page's form refused, by question. */
  problems?: Record<number, ValueProblem>;
  disabled?: boolean;
  /** Renders the attachments of a question that allows them. */
  attachments?: (question: Question) => React.ReactNode;
  level?: number;
  /** The editor's preview: each question's number as the editor shows it (questionNumbers). */
  numbers?: ReadonlyMap<number, string>;
}

/** One question, its input by kind, and under each chosen answer its visible sub-questions. */
export function QuestionBlock(props: QuestionBlockProps) {
  const { t } = useTranslation();
  const { question, answers, subQuestionsOf, failed, onAnswer, named, disabled, attachments, level = 0 } = props;
  const value = answers[question.Id];
  // Typed text the field refused (no number, no date): its message says it was not saved, so the status of the
  // answer saved before it is not shown beside it.
  const [refused, setRefused] = useState(false);
  const input = {
    question,
    value,
    onChange: (v: AnswerValue | undefined, typing?: boolean) => onAnswer(question, v, typing),
    onRefused: setRefused,
    disabled,
    named,
  };
  const subs = subQuestionsOf(question);
  const number = props.numbers?.get(question.Id);
  const Heading = level === 0 ? "h3" : "h4";
  return (
    <div
      className={`fill-question${level ? " fill-question--sub" : ""}`}
      data-testid="fill-question"
      data-question-id={question.Id}
    >
      <div className="fill-question__head">
        <Heading id={`q-${question.Id}-title`} className="fill-question__title">
          {number ? <span className="fill-question__number">{number}</span> : null}
          {number ? " " : null}
          {question.Title}
        </Heading>
        {failed.has(question.Id) ? (
          <span className="fill-question__failed" role="img" title={t("fill.saveFailed")} data-testid="save-failed">
            ⚠
          </span>
        ) : null}
      </div>
      {question.Hint ? (
        <p id={hintIdOf(question)} className="fill-question__hint" data-testid="question-hint">
          {question.Hint}
        </p>
      ) : null}
      {question.Type === "Image" ? (
        <ImageInput {...input} />
      ) : question.Type === "DateTime" ? (
        <DateTimeInput {...input} problem={props.problems?.[question.Id]} />
      ) : question.AnswerOptions.length > 0 ||
        question.Type === "SingleSelection" ||
        question.Type === "MultipleSelection" ? (
        <ChoiceInput {...input} />
      ) : (
        <TextualInput {...input} />
      )}
      {named ? null : (
        <SaveStatus questionId={question.Id} state={refused ? undefined : props.states?.get(question.Id)} />
      )}
      {named ? <input type="hidden" name="questionIds" value={question.Id} /> : null}
      {question.AllowFileAttachments && attachments ? attachments(question) : null}
      {subs.length > 0 ? (
        <div className="fill-sub">
          {subs.map((sub) => (
            <QuestionBlock key={sub.Id} {...props} question={sub} level={level + 1} />
          ))}
        </div>
      ) : null}
    </div>
  );
}
