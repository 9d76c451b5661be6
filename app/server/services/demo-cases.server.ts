import type { Answers } from "~/domain/answers";
import type { ContentLanguage } from "~/domain/content-languages";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { visibleQuestionTree, visibleSubQuestions } from "~/domain/visibility";
import type { DB } from "~/server/db/types.server";
import { loadSurveyTree } from "./survey-tree.server";

/** A small deterministic random source, so every installation's demo figures are the same. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    chance: (p: number) => next() < p,
  };
}

type Random = ReturnType<typeof randomSource>;

const words = ["Atemnot", "Müdigkeit", "Schwindel", "gut", "besser", "Schlaf", "Ödeme", "Treppen", "stabil", "Husten"];

/** The languages demo cases are filled in, in turn, and the words of their free texts in each. */
export interface DemoLanguages {
  languages?: readonly ContentLanguage[];
  wordsByLanguage?: Partial<Record<ContentLanguage, readonly string[]>>;
}

/** A number question's demo answers: from min to max in steps of step. */
export interface NumberRange {
  min: number;
  max: number;
  step: number;
}

const ANY_NUMBER: NumberRange = { min: 40, max: 120, step: 0.1 };

/** What makes a survey's demo answers plausible, by question title. */
export interface DemoHints {
  /** A number question's range. */
  ranges: ReadonlyMap<string, NumberRange>;
  /** How often each option (by text) is chosen against the others; equally often where not given. */
  often?: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** The words free texts are made of. */
  words?: readonly string[];
}

/** One option, the more often the larger its share (one draw, as an equal pick takes). */
function pickOption(q: Question, r: Random, hints: DemoHints) {
  const shares = hints.often?.get(q.Title);
  if (!shares) return r.pick(q.AnswerOptions);
  const weights = q.AnswerOptions.map((o) => shares.get(answerText(o)) ?? 1);
  let left = r.next() * weights.reduce((a, b) => a + b, 0);
  for (const [i, weight] of weights.entries()) {
    left -= weight;
    if (left < 0) return q.AnswerOptions[i];
  }
  return q.AnswerOptions[q.AnswerOptions.length - 1];
}

/** One answer to a question, of its kind; undefined leaves it unanswered. */
function answerOf(q: Question, r: Random, day: Date, hints: DemoHints): Answers[number] | undefined {
  if (r.chance(0.08)) return undefined;
  switch (q.Type) {
    case "SingleSelection":
    case "Image": {
      if (!q.AnswerOptions.length) return undefined;
      const first = pickOption(q, r, hints).Id;
      // Where several markers may be chosen, some cases choose a second one.
      if (q.Type === "Image" && q.AllowMultipleAnswers && r.chance(0.3)) {
        const second = pickOption(q, r, hints).Id;
        return { AnswerOptionIds: second === first ? [first] : [first, second] };
      }
      return { AnswerOptionIds: [first] };
    }
    case "MultipleSelection":
    case "MultipleChoice": {
      const chosen = q.AnswerOptions.filter(() => r.chance(0.45)).map((o) => o.Id);
      return chosen.length ? { AnswerOptionIds: chosen } : undefined;
    }
    case "FreeText":
      return { TextResponse: `${r.pick(hints.words ?? words)}, ${r.pick(hints.words ?? words)}` };
    case "Numerical": {
      const { min, max, step } = hints.ranges.get(q.Title) ?? ANY_NUMBER;
      const steps = Math.floor(r.next() * (Math.round((max - min) / step) + 1));
      return { NumericalResponse: Math.round((min + steps * step) * 1000) / 1000 };
    }
    case "DateTime": {
      const d = new Date(day.getTime() - Math.floor(r.next() * 30) * 86_400_000);
      return {
        DateTimeResponse:
          d.toISOString().slice(0, 10) + "T" + `${8 + Math.floor(r.next() * 10)}`.padStart(2, "0") + ":00",
      };
    }
  }
}

/** Answers for the visible questions of one case, sub-questions of chosen answers included. */
function fillCase(
  survey: Survey,
  preliminary: Record<number, number>,
  r: Random,
  day: Date,
  hints: DemoHints,
): Answers {
  const answers: Answers = {};
  // Visibility depends on the answers given so far: walk until nothing new becomes visible.
  for (let round = 0; round < 4; round++) {
    const visible = visibleQuestionTree(
      survey.Categories.flatMap((c) => c.Questions),
      preliminary,
      answers,
    );
    const walk = (qs: readonly Question[]) => {
      for (const q of qs) {
        if (!(q.Id in answers)) {
          const a = answerOf(q, r, day, hints);
          if (a) answers[q.Id] = a;
        }
        walk(visibleSubQuestions(q, answers, preliminary));
      }
    };
    walk(visible);
  }
  return answers;
}

/**
 * Closed demo cases of a survey, spread over the last months, so that a new installation's statistics have
 * something to show. Only on an empty database (seedDemoDataIfEmpty); never on a real one.
 */
export async function seedDemoCases(
  db: DB,
  surveyId: number,
  count: number,
  seed = 7,
  hints: DemoHints = { ranges: new Map() },
  languages: DemoLanguages = {},
): Promise<void> {
  const survey = await loadSurveyTree(db, surveyId, { CanEdit: true, CanApprove: true, CanParticipate: true });
  if (!survey) return;
  const r = randomSource(seed);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++) {
      const created = new Date(now - Math.floor(r.next() * 180) * 86_400_000 - Math.floor(r.next() * 36_000_000));
      const closed = new Date(created.getTime() + 20 * 60_000).toISOString();
      const preliminary: Record<number, number> = {};
      for (const a of survey.PatientForm) if (a.AnswerOptions.length) preliminary[a.Id] = r.pick(a.AnswerOptions).Id;
      // The language of the case in turn (none drawn from the random source: other figures stay as they were).
      const language = languages.languages?.[i % languages.languages.length] ?? survey.SourceLanguage;
      const words = languages.wordsByLanguage?.[language] ?? hints.words;
      const answers = fillCase(survey, preliminary, r, created, { ...hints, words });
      const kase = await trx
        .insertInto("patient_data")
        .values({
          survey_id: surveyId,
          patient_id: `DEMO_${String(i + 1).padStart(4, "0")}`,
          state: "Closed",
          team_id: null,
          created_by_user_id: null,
          created_at: created.toISOString(),
          modified_at: closed,
          closed_at: closed,
          // The source language is stored as none (decision 054).
          language: language === survey.SourceLanguage ? null : language,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const at = created.toISOString();
      const prelimRows = Object.entries(preliminary).map(([attribute, option]) => ({
        survey_id: surveyId,
        patient_data_id: kase.id,
        attribute_id: Number(attribute),
        answer_option_id: option,
        created_at: at,
      }));
      if (prelimRows.length) await trx.insertInto("attribute_responses").values(prelimRows).execute();
      const rows = Object.entries(answers).flatMap(([question, a]) => {
        const base = {
          survey_id: surveyId,
          patient_data_id: kase.id,
          question_id: Number(question),
          answer_option_id: null as number | null,
          text_response: a.TextResponse ?? null,
          numerical_response: a.NumericalResponse ?? null,
          date_time_response: a.DateTimeResponse ?? null,
          created_at: at,
          updated_at: at,
        };
        return a.AnswerOptionIds ? a.AnswerOptionIds.map((id) => ({ ...base, answer_option_id: id })) : [base];
      });
      if (rows.length) await trx.insertInto("question_responses").values(rows).execute();
    }
  });
}
