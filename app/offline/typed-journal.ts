import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import { TYPED_KEY as KEY } from "./typed-key";

/**
 * Typed answers not yet kept when the page was hidden or left (docs/decisions/038-typed-work-kept.md).
 * Written synchronously to local storage as the page goes (a write to IndexedDB started then may be cut
 * off with the page), and removed once the value is kept on the server or on the device. The next page of
 * this case takes its own values back; any other page start delivers the rest (typed-delivery.ts).
 */

export interface TypedValue {
  surveyId: number;
  patientId: string;
  /** What the API needs to carry the answer without the survey at hand. */
  question: Pick<Question, "Id" | "Type" | "AllowMultipleAnswers">;
  /** null: the answer was emptied. */
  value: AnswerValue | null;
  /** The page kept its answers on this device (offline) when it went. */
  local: boolean;
  at: string;
}

type Journal = Record<string, TypedValue>;

const keyOf = (surveyId: number, patientId: string, questionId: number) =>
  JSON.stringify([surveyId, patientId, questionId]);

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

function read(store: Storage | null): Journal {
  try {
    const raw = store?.getItem(KEY);
    return raw ? (JSON.parse(raw) as Journal) : {};
  } catch {
    return {};
  }
}

function write(store: Storage | null, journal: Journal) {
  try {
    if (Object.keys(journal).length === 0) store?.removeItem(KEY);
    else store?.setItem(KEY, JSON.stringify(journal));
  } catch {
    // Storage full or refused: the saves already on their way are all there is.
  }
}

const same = (a: AnswerValue | null | undefined, b: AnswerValue | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Notes values as the page goes (newer ones replace older ones of the same question). */
export function noteTyped(values: Omit<TypedValue, "at">[], store = storage()) {
  if (values.length === 0) return;
  const journal = read(store);
  const at = new Date().toISOString();
  for (const v of values) journal[keyOf(v.surveyId, v.patientId, v.question.Id)] = { ...v, at };
  write(store, journal);
}

/** The value is kept: its note goes, unless a newer value was noted since. */
export function forgetTyped(
  ref: { surveyId: number; patientId: string; questionId: number },
  kept: AnswerValue | null | undefined,
  store = storage(),
) {
  const raw = store?.getItem(KEY);
  if (!raw) return;
  const journal = read(store);
  const key = keyOf(ref.surveyId, ref.patientId, ref.questionId);
  if (!journal[key] || !same(journal[key].value, kept)) return;
  delete journal[key];
  write(store, journal);
}

/** Every noted value; with a case, only that case's. */
export function typedValues(of?: { surveyId: number; patientId: string }, store = storage()): TypedValue[] {
  const all = Object.values(read(store));
  return of ? all.filter((v) => v.surveyId === of.surveyId && v.patientId === of.patientId) : all;
}

type Case = { surveyId: number; patientId: string };

/** Notes what a page had not kept when it went (the newest value of each question). */
export function noteUnkept(at: Case, unkept: { question: Question; value: AnswerValue | undefined }[], local: boolean) {
  noteTyped(
    unkept.map(({ question, value }) => ({
      ...at,
      question: { Id: question.Id, Type: question.Type, AllowMultipleAnswers: question.AllowMultipleAnswers },
      value: value ?? null,
      local,
    })),
  );
}

/** The page of a case takes its notes back: a value it shows already goes, any other is given anew. */
export function takeBack(
  at: Case,
  answers: Answers,
  questionOf: (id: number) => Question | undefined,
  give: (question: Question, value: AnswerValue | undefined) => unknown,
) {
  for (const noted of typedValues(at)) {
    const question = questionOf(noted.question.Id);
    if (!question) continue;
    if (same(answers[question.Id], noted.value)) forgetTyped({ ...at, questionId: question.Id }, noted.value);
    else give(question, noted.value ?? undefined);
  }
}
