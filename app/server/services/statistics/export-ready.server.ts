import { sql } from "kysely";
import { surveyQuestions } from "~/domain/visibility";
import { dialectOf, openLeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import { clinicZone } from "~/server/time-zone.server";
import { loadSurveyTree } from "../survey-tree.server";
import { busiestSurveys, countedCondition } from "./cases.server";
import { caseLines, keepLines } from "./export-lines.server";

/**
 * The export's lines written ahead, in the background (docs/decisions/032-export-lines-readied.md): the
 * first export of a survey, and the first after many cases closed, then reads kept lines instead of every
 * answer.
 */

/** Cases written per round; between rounds the server answers whatever arrived meanwhile. */
const ROUND = 100;
/** How long a round's write waits for the server's own writes (SQLite), the server's thread blocked meanwhile. */
const WRITE_WAIT_MS = 50;

/**
 * Writes and keeps the line of every counted case of the survey whose kept line is missing or not the
 * present one (its answers or the survey's layout changed), as the export would in the clinic's time zone
 * (`timeZone`, CLINIC_TIME_ZONE). Stops between rounds when `signal` is aborted. Returns the lines written
 * and kept.
 */
export async function readyExportLines(
  db: DB,
  surveyId: number,
  timeZone: string,
  signal?: AbortSignal,
): Promise<number> {
  const survey = await loadSurveyTree(db, surveyId, { CanParticipate: false, CanEdit: false, CanApprove: true });
  if (!survey) return 0;
  const questions = surveyQuestions(survey);
  const zone = clinicZone(timeZone);
  // In the one separator every export reads them in (export-lines.server.ts).
  const lines = caseLines(survey, questions, zone);
  // Work nobody waits for: a round that finds the database being written gives up its lines (the next round
  // writes them) rather than hold the server's thread while it waits.
  const reader = openLeanReader(db, { writeWaitMs: WRITE_WAIT_MS });
  const sqlite = dialectOf(db) === "sqlite";
  let written = 0;
  try {
    for (let after = 0; !signal?.aborted;) {
      // The versions are read before the answers (caseLines' read).
      const cases = await reader.db
        .selectFrom("patient_data as pd")
        // Bounded on both sides, as the export's page walk (export.server.ts): not merged from the first row.
        .leftJoin("case_export_rows as kept", (join) =>
          join.onRef("kept.patient_data_id", "=", "pd.id").on("kept.patient_data_id", ">", after),
        )
        .select(["pd.id", "pd.answers_version"])
        .where("pd.survey_id", "=", surveyId)
        .where(countedCondition(reader.db, {}))
        .where("pd.id", ">", after)
        .where(
          (eb) =>
            sql<boolean>`(${eb.ref("kept.patient_data_id")} is null or ${eb.ref("kept.layout")} <> ${lines.layout}
              or ${eb.ref("kept.answers_version")} <> ${eb.ref("pd.answers_version")})`,
        )
        .orderBy("pd.id")
        .limit(ROUND)
        .execute();
      if (cases.length === 0) break;
      const ids = cases.map((c) => c.id);
      const made = lines.linesOf(ids, await lines.read(reader, ids), sqlite);
      const kept = await keepLines(
        reader.writer(),
        cases.map((c) => ({
          patient_data_id: c.id,
          answers_version: Number(c.answers_version),
          layout: lines.layout,
          line: made.get(c.id)!,
        })),
      );
      if (kept) written += cases.length;
      after = ids[ids.length - 1];
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await reader.close();
  }
  return written;
}

/**
 * Readies the lines of every survey with closed cases, one after the other: those exported before (any line
 * kept) first, then the others by their closed cases, most first. Any survey's first export then reads kept
 * lines. Returns the lines written per survey (only those with any).
 */
export async function readyExports(db: DB, timeZone: string, signal?: AbortSignal): Promise<Record<number, number>> {
  const withCases = await busiestSurveys(db);
  const exported = await db
    .selectFrom("surveys as s")
    .select("s.id")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("patient_data as pd")
          .innerJoin("case_export_rows as kept", "kept.patient_data_id", "pd.id")
          .select("pd.id")
          .whereRef("pd.survey_id", "=", "s.id"),
      ),
    )
    .execute();
  const surveys = [...new Set([...exported.map((e) => e.id), ...withCases])];
  const written: Record<number, number> = {};
  for (const surveyId of surveys) {
    if (signal?.aborted) break;
    const n = await readyExportLines(db, surveyId, timeZone, signal);
    if (n > 0) written[surveyId] = n;
  }
  return written;
}
