import { answerKind } from "~/domain/question-types";
import { contentLanguages, languageName } from "~/domain/content-languages";
import { defaultCulture } from "~/domain/culture";
import { respondentKinds } from "~/domain/respondents";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { translate } from "~/server/locales.server";
import { code } from "./export-lines.server";

/**
 * The variables the statistics scripts (responses.R, responses.sps, responses.do) make of responses.csv
 * (docs/decisions/041-statistics-scripts.md). One plan, three renderings: the names, labels, values and
 * missing codes are decided here once.
 */

/** A test on one column of responses.csv: its codes (" | " between several) contain this code. */
export interface CodeTest {
  column: number;
  code: string;
}

/** One clause of when a question was shown: any of the tests holds (negated: none holds). */
export interface Clause {
  negate: boolean;
  any: CodeTest[];
}

interface VariableBase {
  /** Valid in R, SPSS and Stata: letters, digits and underscores, at most 32 characters, starts with a letter. */
  name: string;
  /** The full label; each script cuts it where its package requires. */
  label: string;
  /** The column of responses.csv the variable is read from (0-based). */
  column: number;
  /** When the question was shown to a case (all clauses hold); empty: always. */
  shown: Clause[];
  /** Not a question's: no missing codes. */
  own?: boolean;
  /** How codebook-variables.csv names its kind, when not by `kind` (statistics.scripts.kinds.*). */
  kindName?: string;
}

export type Variable =
  | (VariableBase & { kind: "string" })
  | (VariableBase & { kind: "number" })
  /** Read from "YYYY-MM-DDTHH:mm:ss±hh:mm", the clinic's local time with its offset. */
  | (VariableBase & { kind: "dateTime" })
  | (VariableBase & { kind: "choice"; values: { value: number; code: string; label: string }[] })
  | (VariableBase & { kind: "flag"; code: string });

export interface VariablePlan {
  variables: Variable[];
  /** The columns of responses.csv by name (as its header says), in order. */
  columns: string[];
  /** Labels of the missing codes and of the flags' values, in the export's language. */
  words: { notShown: string; notAnswered: string; chosen: string; notChosen: string };
  culture: string | undefined;
  /** The clinic's time zone, in which the CSV writes every date-time (docs/decisions/053-clinic-time-zone.md). */
  zone: string;
}

/** The missing codes (docs/decisions/041-statistics-scripts.md): -1 not shown by a rule, -2 not answered. */
export const NOT_SHOWN = -1;
export const NOT_ANSWERED = -2;

/** The numbers that stand for a question's options: their codes when all are distinct whole numbers, else ids. */
function optionValues(options: { Id: number; Value: string | null; label: string }[]) {
  const codes = options.map((o) => code(o));
  const whole = codes.every((c) => /^-?\d{1,9}$/.test(c) && Number(c) >= 0);
  const distinct = new Set(codes).size === codes.length;
  return options.map((o, i) => ({
    value: whole && distinct ? Number(codes[i]) : o.Id,
    code: codes[i],
    label: o.label,
  }));
}

/**
 * The case's language as a labelled code (docs/decisions/056-statistics-languages.md): each content language by
 * its place in the list (de 1, en 2, tr 3, …), the same in every export, named in the export's language.
 */
function languageValues(culture: string | undefined) {
  const inLanguage = culture ?? defaultCulture;
  return contentLanguages.map((l, i) => ({ value: i + 1, code: l, label: languageName(l, inLanguage) }));
}

/**
 * Who answered the case as a labelled code (docs/decisions/057-patient-links.md): staff 1, link 2, handover 3,
 * the same in every export, named in the export's language.
 */
function respondentValues(culture: string | undefined) {
  return respondentKinds.map((r, i) => ({
    value: i + 1,
    code: r,
    label: translate(culture, `statistics.codebook.respondents.${r}`),
  }));
}

/**
 * The plan for a survey's export: the case's own variables, one per preliminary question, and one per
 * question (one 0/1 variable per option for multiple choice). `columns` is responses.csv's header.
 */
export function variablePlan(
  survey: Survey,
  questions: Question[],
  columns: string[],
  culture: string | undefined,
  zone: string,
): VariablePlan {
  const t = (key: string, vars?: Record<string, string>) => translate(culture, `statistics.scripts.${key}`, vars);
  const at = (name: string) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`responses.csv has no column ${name}`);
    return i;
  };
  const variables: Variable[] = [
    { kind: "string", name: "PatientId", label: t("patientId"), column: 0, shown: [], own: true },
    { kind: "string", name: "State", label: t("state"), column: 1, shown: [], own: true },
    { kind: "dateTime", name: "Created", label: t("created"), column: 2, shown: [], own: true },
    { kind: "dateTime", name: "Closed", label: t("closed"), column: 3, shown: [], own: true },
    {
      kind: "choice",
      name: "Language",
      label: t("language"),
      column: at("Language"),
      shown: [],
      own: true,
      kindName: "language",
      values: languageValues(culture),
    },
    {
      kind: "choice",
      name: "Respondent",
      label: t("respondent"),
      column: at("Respondent"),
      shown: [],
      own: true,
      kindName: "respondent",
      values: respondentValues(culture),
    },
    {
      kind: "number",
      name: "RespondentLink",
      label: t("respondentLink"),
      column: at("RespondentLink"),
      shown: [],
      own: true,
    },
  ];
  // Where each preliminary answer is read: the preliminary question's code column and the answer's code.
  const prelimTest = new Map<number, CodeTest>();
  for (const a of survey.PatientForm) {
    const column = at(`P${a.Id}_code`);
    for (const o of a.AnswerOptions) prelimTest.set(o.Id, { column, code: code(o) });
    const values = optionValues(a.AnswerOptions.map((o) => ({ ...o, label: o.Text })));
    variables.push({ kind: "choice", name: `P${a.Id}`, label: a.Title, column, shown: [], values });
  }
  const optionTest = new Map<number, CodeTest>();
  const shownOf = new Map<number, Clause[]>();
  const byOption = new Map<number, Question>();
  for (const q of questions) for (const o of q.AnswerOptions) byOption.set(o.Id, q);
  const shown = (q: Question): Clause[] => {
    const known = shownOf.get(q.Id);
    if (known) return known;
    const clauses: Clause[] = [];
    if (q.ParentAnswerOptionId !== null) {
      const parent = byOption.get(q.ParentAnswerOptionId);
      if (parent) clauses.push(...shown(parent));
      const test = optionTest.get(q.ParentAnswerOptionId);
      if (test) clauses.push({ negate: false, any: [test] });
    }
    const rule = q.Dependence;
    if (rule && rule.PreliminaryAnswerOptions.length > 0) {
      const any = rule.PreliminaryAnswerOptions.flatMap((id) => prelimTest.get(id) ?? []);
      clauses.push({ negate: rule.Type === "HIDE", any });
    }
    shownOf.set(q.Id, clauses);
    return clauses;
  };
  for (const q of questions) {
    if (q.AnswerOptions.length > 0) {
      const column = at(`Q${q.Id}_code`);
      for (const o of q.AnswerOptions) optionTest.set(o.Id, { column, code: code(o) });
    }
  }
  const parentText = new Map(questions.flatMap((q) => q.AnswerOptions.map((o) => [o.Id, answerText(o)] as const)));
  for (const q of questions) {
    const answer = q.ParentAnswerOptionId === null ? undefined : parentText.get(q.ParentAnswerOptionId);
    const title = answer === undefined ? q.Title : t("subQuestion", { title: q.Title, answer });
    const base = { name: `Q${q.Id}`, shown: shown(q) };
    if (q.AnswerOptions.length > 0) {
      const column = at(`Q${q.Id}_code`);
      if (answerKind(q) === "multiple") {
        for (const o of q.AnswerOptions) {
          const label = t("option", { title, option: answerText(o) });
          variables.push({ ...base, kind: "flag", name: `Q${q.Id}_o${o.Id}`, label, column, code: code(o) });
        }
      } else {
        const values = optionValues(q.AnswerOptions.map((o) => ({ ...o, label: answerText(o) })));
        variables.push({ ...base, kind: "choice", label: title, column, values });
      }
      continue;
    }
    const column = at(`Q${q.Id}`);
    if (q.Type === "Numerical") {
      const label = q.Unit ? t("unit", { title, unit: q.Unit }) : title;
      variables.push({ ...base, kind: "number", label, column });
    } else if (q.Type === "DateTime") {
      variables.push({ ...base, kind: "dateTime", label: title, column });
    } else variables.push({ ...base, kind: "string", label: title, column });
  }
  // The total score, the last column: a number, empty for a case without one (docs/decisions/051).
  if (survey.ScoreTitle) {
    variables.push({
      kind: "number",
      name: "Total",
      label: survey.ScoreTitle,
      column: columns.length - 1,
      shown: [],
      own: true,
    });
  }
  return {
    variables,
    columns,
    culture,
    zone,
    words: { notShown: t("notShown"), notAnswered: t("notAnswered"), chosen: t("chosen"), notChosen: t("notChosen") },
  };
}

/** A label cut to at most `bytes` bytes of UTF-8 (SPSS) or `chars` characters (Stata), whole characters. */
export function cutLabel(label: string, limit: { bytes?: number; chars?: number }): string {
  const flat = label.replace(/[\r\n\t]+/g, " ").trim();
  let out = "";
  let bytes = 0;
  let chars = 0;
  for (const ch of flat) {
    const size = Buffer.byteLength(ch);
    if (
      (limit.bytes !== undefined && bytes + size > limit.bytes) ||
      (limit.chars !== undefined && chars + 1 > limit.chars)
    )
      break;
    out += ch;
    bytes += size;
    chars++;
  }
  return out;
}

/** The packages' limits: variable labels and value labels. */
export const LIMITS = {
  spss: { variable: { bytes: 255 }, value: { bytes: 120 } },
  stata: { variable: { chars: 80 }, value: { chars: 32_000 } },
} as const;
