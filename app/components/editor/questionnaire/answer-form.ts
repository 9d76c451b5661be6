/**
 * The answer modal's form state and the bodies it sends (section 7); its text's and score's checks are the
 * schema's (AnswerFormSchema).
 */
import { resolveWeighting, weightingStates } from "~/domain/editing";
import { scoreText, typedScore } from "~/domain/scores";
import { answerText, type AnswerOption, type Question } from "~/domain/survey";

export type WeightingState = 0 | 1 | 2;

export interface AnswerDraft {
  text: string;
  exit: boolean;
  state: WeightingState;
  /** 1..3 for a correct answer, null otherwise. */
  weight: number | null;
  /** The score as typed: empty for none (docs/decisions/051-instrument-scores.md). */
  score: string;
}

const asState = (n: number): WeightingState => (n === 0 || n === 1 ? n : 2);

/** The draft of an answer, its score written in the language's way (a decimal comma in German). */
export function initialAnswerDraft(answer?: AnswerOption, locale = "de-DE"): AnswerDraft {
  if (!answer) return { text: "", exit: false, state: weightingStates.notWeighted, weight: null, score: "" };
  const state = asState(answer.WeightingState);
  return {
    text: answerText(answer),
    exit: answer.IsExitAnswer,
    state,
    weight: state === weightingStates.correct ? (answer.Weight ?? 1) : null,
    score: scoreText(answer.Score, locale),
  };
}

/** Choosing correct gives weight 1; any other state has no weight (section 5). */
export function chooseWeightingState(draft: AnswerDraft, state: WeightingState): AnswerDraft {
  if (state === draft.state) return draft;
  return { ...draft, state, weight: state === weightingStates.correct ? 1 : null };
}

/** A weight is only taken for a correct answer. */
export function chooseWeight(draft: AnswerDraft, weight: number): AnswerDraft {
  if (draft.state !== weightingStates.correct || weight < 1 || weight > 3) return draft;
  return { ...draft, weight };
}

function weightingOf(draft: AnswerDraft) {
  const resolved = resolveWeighting(
    { WeightingState: weightingStates.notWeighted, Weight: null },
    { WeightingState: draft.state, Weight: draft.state === weightingStates.correct ? (draft.weight ?? 1) : null },
  );
  // resolveWeighting only refuses a weight with another state, which the draft never holds.
  return typeof resolved === "string" ? { WeightingState: draft.state, Weight: null } : resolved;
}

/** The body of PUT /answer-options/{id} with only the changed fields; null when nothing changed. */
export function updateAnswerBody(question: Question, answer: AnswerOption, draft: AnswerDraft, surveyId: number) {
  const body: Record<string, unknown> = {};
  const text = draft.text.trim();
  if (text !== answerText(answer)) body[question.Type === "Image" ? "Title" : "Text"] = text;
  if (draft.exit !== answer.IsExitAnswer) body.IsExitAnswer = draft.exit;
  // A score that is no score is refused by the form before this.
  const score = typedScore(draft.score);
  if (score.ok && score.score !== (answer.Score ?? null)) body.Score = score.score;
  if (question.IsTestQuestion) {
    const next = weightingOf(draft);
    const storedWeight = answer.WeightingState === weightingStates.correct ? (answer.Weight ?? 1) : null;
    if (next.WeightingState !== answer.WeightingState || next.Weight !== storedWeight) {
      // Sent together, so the server checks the pair as one.
      body.WeightingState = next.WeightingState;
      body.Weight = next.Weight;
    }
  }
  if (Object.keys(body).length === 0) return null;
  return { SurveyId: surveyId, ...body };
}
