import { csvField, type StatisticsFilters } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";
import type { LeanReader } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import type { ClinicZone } from "~/server/time-zone.server";
import { countedCondition } from "./cases.server";
import { CASE_CELLS, KEPT_SEP, type caseLines, type CaseAnswers, type KeptLine } from "./export-lines.server";

/** The lines of one survey in one separator (export-lines.server.ts). */
type Lines = ReturnType<typeof caseLines>;

/**
 * A page of counted cases after a case id (and up to one, when given), in id order (a walk along the primary
 * key), with their kept lines. The bound on the kept side too: without it PostgreSQL merges from the kept
 * lines' first row on every page (at 500,000 of 1,000,000 cases 221 ms a page instead of 1 ms), and the export
 * grows with the square of the cases.
 */
export function casesPage(
  db: DB,
  surveyId: number,
  filters: StatisticsFilters,
  after: number,
  size: number,
  upTo: number | null = null,
) {
  return db
    .selectFrom("patient_data as pd")
    .leftJoin("case_export_rows as kept", (join) =>
      join.onRef("kept.patient_data_id", "=", "pd.id").on("kept.patient_data_id", ">", after),
    )
    .select([
      "pd.id",
      "pd.patient_id",
      "pd.state",
      "pd.created_at",
      "pd.closed_at",
      "pd.language",
      "pd.respondent",
      "pd.respondent_link_id",
      "pd.answers_version",
    ])
    .select(["kept.answers_version as kept_version", "kept.layout", "kept.line"])
    .where("pd.survey_id", "=", surveyId)
    .where(countedCondition(db, filters))
    .where("pd.id", ">", after)
    .$if(upTo !== null, (qb) => qb.where("pd.id", "<=", upTo!))
    .orderBy("pd.id")
    .limit(size);
}

export type CaseRow = Awaited<ReturnType<ReturnType<typeof casesPage>["execute"]>>[number];

/** A page of cases with the answers of those whose kept line is not the present one. */
export interface CasesPage {
  cases: CaseRow[];
  stale: number[];
  answers: CaseAnswers;
}

/** Reads a page of counted cases after a case id (and up to one), with the answers of the stale ones. */
export async function readCasesPage(
  reader: LeanReader,
  lines: Lines,
  surveyId: number,
  filters: StatisticsFilters,
  after: number,
  size: number,
  upTo: number | null = null,
): Promise<CasesPage | null> {
  const cases = await casesPage(reader.db, surveyId, filters, after, size, upTo).execute();
  if (cases.length === 0) return null;
  // The versions were read before the answers (caseLines' read).
  const stale = cases.filter((c) => !lines.isKept(c)).map((c) => c.id);
  return { cases, stale, answers: await lines.read(reader, stale) };
}

/**
 * A page's part of responses.csv: each case's own cells, written each time (a reopened case closes again
 * later), before its answers' cells, which come from the kept line or are written (and returned to be kept).
 * Every date-time is in the clinic's zone with its offset (docs/decisions/053-clinic-time-zone.md). `flatten`
 * puts a text's line breaks on one line; `breaks` tells whether any text held one. In KEPT_SEP, as the kept
 * lines: `encodeIn` gives it in the export's separator.
 */
export function pageText(
  page: CasesPage,
  lines: Lines,
  survey: Survey,
  zone: ClinicZone,
  flatten: boolean,
  sqlite: boolean,
): { text: string; kept: KeptLine[]; breaks: boolean } {
  const written = lines.linesOf(page.stale, page.answers, sqlite);
  let out = "";
  let breaks = false;
  const kept: KeptLine[] = [];
  for (const c of page.cases) {
    const made = written.get(c.id);
    if (made !== undefined)
      kept.push({
        patient_data_id: c.id,
        answers_version: Number(c.answers_version),
        layout: lines.layout,
        line: made,
      });
    let line = made ?? c.line!;
    const times = [zone.instant(c.created_at), c.closed_at === null ? null : zone.instant(c.closed_at)];
    // A case without a stored language was filled in the survey's source language (decision 054).
    const language = c.language ?? survey.SourceLanguage;
    // Who answered: staff's cases store none (docs/decisions/057-patient-links.md).
    const respondent = c.respondent ?? "staff";
    const link = c.respondent === "link" ? c.respondent_link_id : null;
    const own = [c.patient_id, c.state, ...times, language, respondent, link]
      .map((v) => csvField(v, KEPT_SEP))
      .join(KEPT_SEP);
    if (lines.width <= CASE_CELLS) {
      out += `${own}\r\n`;
      continue;
    }
    // A line break inside a text (every line ends in its own CRLF): SPSS reads one case a line. Two
    // searches that stop at the line's end at the latest, no copy of the line.
    if (line.indexOf("\n") < line.length - 1 || line.indexOf("\r") < line.length - 2) {
      breaks = true;
      if (flatten) line = `${line.slice(0, -2).replace(/\r\n|[\r\n]/g, " ")}\r\n`;
    }
    out += `${own}${KEPT_SEP}${line}`;
  }
  return { text: out, kept, breaks };
}
