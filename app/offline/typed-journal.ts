import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import { dropPad, openSealedText, preparePad, sealNow } from "./journal-seal";
import { TYPED_KEY as KEY } from "./typed-key";
import { currentHolder, type Holder } from "./vault";

/**
 * Typed answers not yet kept when the page was hidden or left (docs/decisions/038-typed-work-kept.md).
 * Written synchronously to local storage as the page goes (a write to IndexedDB started then may be cut
 * off with the page), and removed once the value is kept on the server or on the device. The next page of
 * this case takes its own values back; any other page start delivers the rest (typed-delivery.ts).
 * Each holder's notes are sealed under a key of their own (journal-seal.ts, decision 048): the page reads
 * them once its holder is known (journalReady) and writes them from that copy.
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
/** Where a holder's sealed notes are kept in local storage. */
export const journalKey = (tag: string) => `${KEY}:${tag}`;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The holder's notes as this page knows them (read by journalReady), or null before that. */
let mirror: { holder: Holder; journal: Journal } | null = null;

/** Reads the holder's notes (again: another tab may have written them) and readies their sealing. */
export async function journalReady(store = storage()): Promise<Holder | null> {
  const holder = await currentHolder();
  if (!holder) {
    mirror = null;
    dropPad();
    return null;
  }
  const raw = store?.getItem(journalKey(holder.tag));
  const text = raw ? await openSealedText(holder, raw) : null;
  let journal: Journal = {};
  try {
    journal = text ? (JSON.parse(text) as Journal) : {};
  } catch {
    // A damaged record: nothing of it can be read.
  }
  mirror = { holder, journal };
  await preparePad(holder);
  return holder;
}

function write(store: Storage | null) {
  if (!mirror) return;
  const key = journalKey(mirror.holder.tag);
  try {
    if (Object.keys(mirror.journal).length === 0) return store?.removeItem(key);
    const sealed = sealNow(mirror.holder, JSON.stringify(mirror.journal));
    if (sealed) store?.setItem(key, sealed);
  } catch {
    // Storage full or refused: the saves already on their way are all there is.
  }
}

const same = (a: AnswerValue | null | undefined, b: AnswerValue | null | undefined) =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Notes values as the page goes (newer ones replace older ones of the same question). */
export function noteTyped(values: Omit<TypedValue, "at">[], store = storage()) {
  if (values.length === 0 || !mirror) return;
  const at = new Date().toISOString();
  for (const v of values) mirror.journal[keyOf(v.surveyId, v.patientId, v.question.Id)] = { ...v, at };
  write(store);
}

/** The value is kept: its note goes, unless a newer value was noted since. */
export function forgetTyped(
  ref: { surveyId: number; patientId: string; questionId: number },
  kept: AnswerValue | null | undefined,
  store = storage(),
) {
  if (!mirror) return;
  const key = keyOf(ref.surveyId, ref.patientId, ref.questionId);
  if (!mirror.journal[key] || !same(mirror.journal[key].value, kept)) return;
  delete mirror.journal[key];
  write(store);
}

/** Every noted value the page knows (journalReady); with a case, only that case's. */
export function typedValues(of?: { surveyId: number; patientId: string }): TypedValue[] {
  const all = Object.values(mirror?.journal ?? {});
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
export async function takeBack(
  at: Case,
  answers: () => Answers,
  questionOf: (id: number) => Question | undefined,
  give: (question: Question, value: AnswerValue | undefined) => unknown,
) {
  await journalReady();
  const shown = answers();
  for (const noted of typedValues(at)) {
    const question = questionOf(noted.question.Id);
    if (!question) continue;
    if (same(shown[question.Id], noted.value)) forgetTyped({ ...at, questionId: question.Id }, noted.value);
    else give(question, noted.value ?? undefined);
  }
}
