import { csvLine } from "~/domain/statistics";
import { translate } from "~/server/locales.server";
import { scriptDo } from "./script-do.server";
import { scriptR } from "./script-r.server";
import { scriptSps } from "./script-sps.server";
import { cutLabel, LIMITS, type Variable, type VariablePlan } from "./variables.server";
import type { ZipPart } from "./zip.server";

const encoder = new TextEncoder();
const BOM = "\uFEFF";

async function* text(value: string): AsyncIterable<Uint8Array> {
  yield encoder.encode(value);
}

/**
 * codebook-variables.csv: each script's variables, with the column it reads, its kind, its full label, where
 * SPSS or Stata cut it, its values and its missing codes.
 */
function codebookVariables(plan: VariablePlan, sep: ";" | ","): string {
  const t = (key: string, vars?: Record<string, string>) => translate(plan.culture, `statistics.scripts.${key}`, vars);
  const words = { notShown: plan.words.notShown, notAnswered: plan.words.notAnswered };
  const missingOf = (v: Variable) => {
    if (v.own) return "";
    if (v.kind === "choice" || v.kind === "flag") return t("missingCodes", words);
    if (v.kind === "string") return t("missingTexts");
    return t("missingNumbers", words);
  };
  const valuesOf = (v: Variable) => {
    if (v.kind === "choice") return v.values.map((o) => `${o.value} = ${o.label} (${o.code})`).join("; ");
    if (v.kind === "flag") return `0 = ${plan.words.notChosen}; 1 = ${plan.words.chosen}`;
    return "";
  };
  const cut = (label: string, limit: { bytes?: number; chars?: number }) => {
    const short = cutLabel(label, limit);
    return short === label ? "" : short;
  };
  const head = ["variable", "column", "kind", "label", "spssLabel", "stataLabel", "values", "missing"].map((k) => t(k));
  const rows = plan.variables.map((v) => [
    v.name,
    plan.columns[v.column],
    t(`kinds.${v.kindName ?? v.kind}`, { zone: plan.zone }),
    v.label,
    cut(v.label, LIMITS.spss.variable),
    cut(v.label, LIMITS.stata.variable),
    valuesOf(v),
    missingOf(v),
  ]);
  return BOM + [head, ...rows].map((r) => csvLine(r, sep)).join("");
}

/**
 * The export's files for statistics packages (docs/decisions/041-statistics-scripts.md). `spssFile` is the
 * CSV the SPSS syntax reads: responses-lines.csv when a text holds a line break (SPSS reads one case a line).
 */
export function scriptParts(plan: VariablePlan, sep: ";" | ",", spssFile: string): ZipPart[] {
  const header = (file: string) => translate(plan.culture, "statistics.scripts.header", { file });
  return [
    { name: "codebook-variables.csv", chunks: text(codebookVariables(plan, sep)) },
    { name: "responses.R", chunks: text(scriptR(plan, "responses.csv", sep, header("responses.csv"))) },
    { name: "responses.sps", chunks: text(scriptSps(plan, spssFile, sep, header(spssFile))) },
    { name: "responses.do", chunks: text(scriptDo(plan, "responses.csv", sep, header("responses.csv"))) },
  ];
}
