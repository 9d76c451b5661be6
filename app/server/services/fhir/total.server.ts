import { surveyQuestions } from "~/domain/visibility";
import type { Survey } from "~/domain/survey";
import { code } from "../statistics/export-lines.server";
import type { ImportExtension, ImportItem } from "./import-schema.server";
import { linkIds } from "./link-ids.server";
import { HL7, type FhirItem } from "./types.server";

/**
 * A survey's total score in FHIR (docs/decisions/040-fhir.md): written as a read-only calculated item whose
 * FHIRPath adds up the chosen answers' scores, and recognised in a Questionnaire as such an item.
 */

const quote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/**
 * The FHIRPath of the scores a response chose: per question with scored answers, its chosen codings (at any
 * depth: a sub-question stands inside its answer) among those answers, through `weight()`, which reads the
 * answer option's ordinalValue or itemWeight. Only scored codes are asked: for a coding with a system and no
 * score, `weight()` goes on to look for a CodeSystem on a terminology server. `combine` keeps equal scores
 * of different answers (`|` would merge them).
 */
function chosenScores(survey: Survey): string | null {
  const parts: string[] = [];
  for (const q of surveyQuestions(survey)) {
    const scored = q.AnswerOptions.filter((o) => o.Score !== null).map((o) => quote(code(o)));
    if (scored.length === 0) continue;
    parts.push(
      `%resource.repeat(item | answer.item).where(linkId = ${quote(linkIds.question(q.Id))})` +
        `.answer.value.where(code in (${[...new Set(scored)].join(" | ")})).weight()`,
    );
  }
  return parts.length === 0 ? null : parts.reduce((all, part) => `${all}.combine(${part})`);
}

/**
 * The total's item, at the end of the Questionnaire: a read-only decimal that a form calculates as the
 * product's statistics do (the sum of the chosen answers' scores, none when no chosen answer has one), to at
 * most 4 decimals as the scores have. Null when the survey has no total.
 */
export function totalItem(survey: Survey): FhirItem | null {
  if (!survey.ScoreTitle) return null;
  const scores = chosenScores(survey);
  const codes = survey.Instrument?.ScoreCodes ?? [];
  return {
    linkId: linkIds.total,
    ...(codes.length > 0 ? { code: codes.map(codingOf) } : {}),
    text: survey.ScoreTitle,
    type: "decimal",
    readOnly: true,
    extension: [
      {
        url: HL7.variable,
        valueExpression: { name: "scores", language: "text/fhirpath", expression: scores ?? "{}" },
      },
      {
        url: HL7.calculatedExpression,
        valueExpression: {
          description: "Sum of the chosen answers' scores",
          language: "text/fhirpath",
          expression: "iif(%scores.exists(), %scores.sum().round(4), {})",
        },
      },
    ],
  };
}

/** A coding of the product's model as FHIR writes it. */
export function codingOf(c: { System: string | null; Code: string; Display: string | null }) {
  return { ...(c.System ? { system: c.System } : {}), code: c.Code, ...(c.Display ? { display: c.Display } : {}) };
}

/** The expressions an item is calculated by: its calculatedExpression, or any expression of a read-only item. */
function calculation(item: ImportItem): string | null {
  const expressions = (item.extension ?? []).flatMap((e) => {
    const expression = (e.valueExpression as { expression?: unknown } | undefined)?.expression;
    return typeof expression === "string" && !e.url.endsWith("/variable") ? [[e.url, expression] as const] : [];
  });
  const calculated = expressions.find(([url]) => url.endsWith("/sdc-questionnaire-calculatedExpression"));
  if (calculated) return calculated[1];
  return item.readOnly === true && expressions.length > 0 ? expressions[0][1] : null;
}

/** Reads the answers' scores: SDC's weight() or ordinal(), or the ordinalValue or itemWeight extension. */
const READS_SCORES = /\b(weight|ordinal)\s*\(\s*\)|ordinalValue|itemWeight/;
/** Adds them up. */
const SUMS = /\+|\bsum\s*\(/;
/** The questions an expression names: linkId = '…' (PHQ-9's variables name each question so). */
const NAMED = /linkId\s*=\s*'((?:[^'\\]|\\.)*)'/g;

/**
 * Whether an item is a total of the answers' scores, and which questions it names: its calculation (with the
 * variables it uses, the item's and the Questionnaire's) reads scores and adds them. The named questions are
 * checked by the caller against the questions that have scores: a total of some of them (a subscale) is not
 * the survey's total.
 */
export function scoreTotalOf(
  item: ImportItem,
  questionnaireVariables: readonly ImportExtension[],
): { names: Set<string> } | null {
  if (item.type !== "decimal" && item.type !== "integer") return null;
  const expression = calculation(item);
  if (expression === null) return null;
  const variables = new Map<string, string>();
  for (const e of [...questionnaireVariables, ...(item.extension ?? [])]) {
    const v = e.valueExpression as { name?: unknown; expression?: unknown } | undefined;
    if (e.url.endsWith("/variable") && typeof v?.name === "string" && typeof v.expression === "string")
      variables.set(v.name, v.expression);
  }
  // The expression and every variable it uses, however deep.
  const texts = [expression];
  const used = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    for (const [, name] of texts[i].matchAll(/%([A-Za-z_][A-Za-z0-9_]*)/g)) {
      const text = variables.get(name);
      if (text === undefined || used.has(name)) continue;
      used.add(name);
      texts.push(text);
    }
  }
  const all = texts.join("\n");
  if (!READS_SCORES.test(all) || !SUMS.test(all)) return null;
  return { names: new Set([...all.matchAll(NAMED)].map((m) => m[1].replace(/\\(.)/g, "$1"))) };
}
