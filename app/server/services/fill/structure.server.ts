import type { PatientFormAttribute, Question, Survey } from "~/domain/survey";
import { allQuestions, topLevelQuestions } from "~/domain/visibility";
import type { SurveyAccess } from "../survey-access.server";
import { loadSurveyTree } from "../survey-tree.server";
import type { Executor } from "~/server/db/types.server";

/** What the fill services need to know of a survey's questions and preliminary questions, indexed. */
export interface SurveyStructure {
  survey: Survey;
  topLevel: Question[];
  questions: ReadonlyMap<number, Question>;
  /** Question id → the question ids below it (sub-questions at any depth). */
  descendants: ReadonlyMap<number, readonly number[]>;
  attributes: ReadonlyMap<number, PatientFormAttribute>;
}

function index(survey: Survey): SurveyStructure {
  const topLevel = topLevelQuestions(survey.Categories);
  const all = allQuestions(topLevel);
  const descendants = new Map<number, number[]>();
  for (const q of all) {
    descendants.set(
      q.Id,
      allQuestions(q.AnswerOptions.flatMap((o) => o.SubQuestions)).map((s) => s.Id),
    );
  }
  return {
    survey,
    topLevel,
    questions: new Map(all.map((q) => [q.Id, q])),
    descendants,
    attributes: new Map(survey.PatientForm.map((a) => [a.Id, a])),
  };
}

const MAX_CACHED = 64;
/**
 * Survey id, Hash and modification time → structure. The Hash is random (96 bits), so entries of
 * different databases never meet; an Active survey's content cannot change.
 */
const cache = new Map<string, SurveyStructure>();

/**
 * The structure of the survey the caller was granted access to. Kept in memory while the survey's Hash and
 * modification time stay the same (every content edit changes both), so that recording an answer does not
 * read the whole survey each time.
 */
export async function surveyStructure(db: Executor, access: SurveyAccess): Promise<SurveyStructure> {
  const key = `${access.row.id}:${access.row.hash}:${access.row.updated_at}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const survey = await loadSurveyTree(db, access.row.id, access.rights);
  if (!survey) throw new Error(`Survey ${access.row.id} vanished while it was read`);
  const structure = index(survey);
  for (const k of cache.keys()) if (k.startsWith(`${access.row.id}:${access.row.hash}:`)) cache.delete(k);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, structure);
  return structure;
}
