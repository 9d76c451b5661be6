import { cutLabel, LIMITS, type Clause, type Variable, type VariablePlan } from "./variables.server";

/**
 * responses.do: Stata. Reads the CSV's columns as text by position (v1, v2, ...), then makes each variable:
 * labelled codes for single choices, 0/1 per option of a multiple choice, doubles, %tc date-times (the
 * clinic's local time; Stata has no zones), strL texts.
 * Numeric variables take .a when the question was not shown by a rule and .b when it was not answered
 * (docs/decisions/041-statistics-scripts.md).
 */

/**
 * A Stata string in compound quotes. A backquote or a dollar sign would start a macro inside it: they are
 * escaped; line breaks become spaces.
 */
export function stataString(text: string): string {
  const flat = text
    .replace(/[\r\n\t]+/g, " ")
    .replace(/\\(?=[`$])/g, "\\\\")
    .replace(/([`$])/g, "\\$1");
  return `\`"${flat}"'`;
}

const raw = (i: number) => `v${i + 1}`;

const contains = (column: number, code: string) =>
  `strpos("| " + ${raw(column)} + " |", ${stataString(`| ${code} |`)}) > 0`;

function shownDo(clauses: Clause[]): string | null {
  if (clauses.length === 0) return null;
  return clauses
    .map((c) => {
      const any = c.any.length === 0 ? "0" : c.any.map((t) => contains(t.column, t.code)).join(" | ");
      return c.negate ? `!(${any})` : `(${any})`;
    })
    .join(" & ");
}

function make(v: Exclude<Variable, { kind: "string" }>): string {
  const c = raw(v.column);
  switch (v.kind) {
    case "number":
      return `generate double ${v.name} = real(subinstr(${c}, ",", ".", 1))`;
    case "dateTime":
      // "2024-03-01T08:00:00+01:00": the local time, without the offset.
      return `generate double ${v.name} = clock(subinstr(substr(${c}, 1, 19), "T", " ", 1), "YMDhms")`;
    case "choice":
      return `generate long ${v.name} = .`;
    case "flag":
      return `generate byte ${v.name} = ${contains(v.column, v.code)} if ${c} != ""`;
  }
}

export function scriptDo(plan: VariablePlan, file: string, sep: ";" | ",", header: string): string {
  const words = plan.words;
  const missing = `.a ${stataString(cutLabel(words.notShown, LIMITS.stata.value))} .b ${stataString(cutLabel(words.notAnswered, LIMITS.stata.value))}`;
  const lines = [
    `* ${header}`,
    "version 16",
    "clear",
    `import delimited using ${stataString(file)}, delimiter(${stataString(sep)}) varnames(nonames) rowrange(2) stringcols(_all) encoding("utf-8") bindquote(strict) clear`,
    `label define chosen 0 ${stataString(words.notChosen)} 1 ${stataString(words.chosen)} ${missing}`,
  ];
  const renamed = new Set<number>();
  for (const v of plan.variables) {
    if (v.kind === "string") {
      lines.push(`rename ${raw(v.column)} ${v.name}`);
      renamed.add(v.column);
    } else {
      const c = raw(v.column);
      lines.push(make(v));
      if (v.kind === "choice") {
        for (const o of v.values) lines.push(`replace ${v.name} = ${o.value} if ${c} == ${stataString(o.code)}`);
        const each = v.values.map((o) => `${o.value} ${stataString(cutLabel(o.label, LIMITS.stata.value))}`);
        lines.push(`label define ${v.name} ${[...each, missing].join(" ")}`);
        lines.push(`label values ${v.name} ${v.name}`);
      } else if (v.kind === "flag") lines.push(`label values ${v.name} chosen`);
      else if (v.kind === "dateTime") lines.push(`format ${v.name} %tc`);
      if (!v.own) {
        lines.push(`replace ${v.name} = .b if ${c} == ""`);
        const shown = shownDo(v.shown);
        if (shown) lines.push(`replace ${v.name} = .a if ${c} == "" & !(${shown})`);
      }
    }
    lines.push(`label variable ${v.name} ${stataString(cutLabel(v.label, LIMITS.stata.variable))}`);
  }
  const rest = plan.columns.map((_, i) => i).filter((i) => !renamed.has(i));
  if (rest.length > 0) lines.push(`drop ${rest.map(raw).join(" ")}`);
  lines.push(`order ${plan.variables.map((v) => v.name).join(" ")}`, "");
  return lines.join("\n");
}
