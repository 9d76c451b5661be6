import { answerText, type Survey } from "~/domain/survey";
import { surveyQuestions } from "~/domain/visibility";
import type { DB, Executor } from "~/server/db/types.server";
import { audit } from "./audit.server";
import { seedDemoCases, type DemoHints } from "./demo-cases.server";
import { createImportedSurvey } from "./fhir/import.server";
import phq9 from "./instruments/phq9.json";
import { loadSurveyTree } from "./survey-tree.server";

/**
 * The demo's scored instrument: LHC-Forms' PHQ-9 (instruments/README.md), imported by the product's own FHIR
 * import (decision 040) and published, so that a new installation shows an instrument's scores and total.
 */

/** Its demo cases: enough for the total's figures to show a spread. */
const CASES = { count: 20, seed: 9 };

/** Imports PHQ-9 as an Active survey and returns its id. */
export async function seedDemoInstrument(trx: Executor): Promise<number> {
  const { surveyId, plan } = await createImportedSurvey(trx, phq9, { status: 2, createdBy: null });
  await audit(
    trx,
    { surveyUserDataId: null, sub: null },
    { action: "survey.seed", entity: "survey", entityId: surveyId, surveyId, after: { Title: plan.title } },
  );
  return surveyId;
}

/**
 * How its demo cases answer: a lower score more often than a higher one (4 : 3 : 2 : 1 for 0 to 3), as in a
 * clinic's patients, most of whom are not depressed; so the totals spread from none to severe.
 */
function hintsOf(survey: Survey): DemoHints {
  const often = new Map<string, Map<string, number>>();
  for (const q of surveyQuestions(survey)) {
    if (!q.AnswerOptions.some((o) => o.Score !== null)) continue;
    often.set(q.Title, new Map(q.AnswerOptions.map((o) => [answerText(o), 4 - (o.Score ?? 0)])));
  }
  return { ranges: new Map(), often };
}

/** Its closed demo cases (on an empty database only, as the other demo surveys' are). */
export async function seedDemoInstrumentCases(db: DB, surveyId: number): Promise<void> {
  const survey = await loadSurveyTree(db, surveyId, { CanEdit: true, CanApprove: true, CanParticipate: true });
  if (survey) await seedDemoCases(db, surveyId, CASES.count, CASES.seed, hintsOf(survey));
}
