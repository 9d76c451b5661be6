import { cutLabel, LIMITS, NOT_ANSWERED, NOT_SHOWN, type Clause, type VariablePlan } from "./variables.server";

/**
 * responses.sps: SPSS syntax that GNU PSPP runs too. Reads the CSV's columns as text by position, then
 * computes each variable: numeric codes with value labels for single choices, 0/1 per option of a multiple
 * choice, numbers, DATETIME values (the clinic's local time; SPSS has no zones), texts. Choices declare -1 (not shown by a rule) and -2 (not answered) as
 * missing values (docs/decisions/041-statistics-scripts.md).
 */

/** SPSS keeps free texts up to this many bytes (its longest string). */
export const SPSS_TEXT_BYTES = 32_767;

export function spssString(text: string): string {
  return `'${text.replace(/[\r\n\t]+/g, " ").replace(/'/g, "''")}'`;
}

const raw = (i: number) => `c${i + 1}`;

function contains(column: number, code: string) {
  return `INDEX(CONCAT('| ', RTRIM(${raw(column)}), ' |'), ${spssString(`| ${code} |`)}) > 0`;
}

function shownSps(clauses: Clause[]): string | null {
  if (clauses.length === 0) return null;
  return clauses
    .map((c) => {
      const any = c.any.length === 0 ? "0 = 1" : c.any.map((t) => contains(t.column, t.code)).join(" OR ");
      return c.negate ? `NOT (${any})` : `(${any})`;
    })
    .join(" AND ");
}

/**
 * "2024-03-01T08:00:00+01:00" → the DATETIME of its local time, the offset left aside. Built from its parts:
 * PSPP reads YMDHMS too, but not every SPSS release does.
 */
const localDateTime = (c: string) =>
  `DATE.DMY(NUMBER(SUBSTR(${c}, 9, 2), F2.0), NUMBER(SUBSTR(${c}, 6, 2), F2.0), NUMBER(SUBSTR(${c}, 1, 4), F4.0))` +
  ` + TIME.HMS(NUMBER(SUBSTR(${c}, 12, 2), F2.0), NUMBER(SUBSTR(${c}, 15, 2), F2.0), NUMBER(SUBSTR(${c}, 18, 2), F2.0))`;

/** The width each column is read with: texts at most SPSS's longest string, codes as long as all of them. */
function widths(plan: VariablePlan): number[] {
  const out = plan.columns.map(() => 1);
  const widen = (i: number, w: number) => (out[i] = Math.min(SPSS_TEXT_BYTES, Math.max(out[i], w)));
  for (const v of plan.variables) {
    if (v.kind === "string") widen(v.column, v.own ? 1000 : SPSS_TEXT_BYTES);
    else if (v.kind === "number") widen(v.column, 64);
    else if (v.kind === "dateTime") widen(v.column, 40);
    else if (v.kind === "choice")
      widen(
        v.column,
        v.values.reduce((s, o) => s + Buffer.byteLength(o.code) + 3, 0),
      );
    else widen(v.column, Buffer.byteLength(v.code) + 3);
  }
  // A flag's column holds every option's code.
  const flags = new Map<number, number>();
  for (const v of plan.variables)
    if (v.kind === "flag") flags.set(v.column, (flags.get(v.column) ?? 0) + Buffer.byteLength(v.code) + 3);
  for (const [i, w] of flags) widen(i, w);
  return out;
}

export function scriptSps(plan: VariablePlan, file: string, sep: ";" | ",", header: string): string {
  const strings = new Map(plan.variables.filter((v) => v.kind === "string").map((v) => [v.column, v.name]));
  const w = widths(plan);
  const names = plan.columns.map((_, i) => strings.get(i) ?? raw(i));
  const lines = [
    "* Encoding: UTF-8.",
    `* ${header.replace(/\.$/, "")}.`,
    "SET DECIMAL=DOT.",
    `GET DATA /TYPE=TXT /FILE=${spssString(file)} /ENCODING='UTF-8' /ARRANGEMENT=DELIMITED /DELCASE=LINE`,
    `  /FIRSTCASE=2 /DELIMITERS=${spssString(sep)} /QUALIFIER='"'`,
    "  /VARIABLES=",
    ...names.map((n, i) => `    ${n} A${w[i]}`),
    ".",
  ];
  const labels: string[] = [];
  const values: string[] = [];
  const missing: string[] = [];
  const formats: string[] = [];
  const words = plan.words;
  const missingLabels = `${NOT_SHOWN} ${spssString(cutLabel(words.notShown, LIMITS.spss.value))} ${NOT_ANSWERED} ${spssString(cutLabel(words.notAnswered, LIMITS.spss.value))}`;
  for (const v of plan.variables) {
    labels.push(`  ${v.name} ${spssString(cutLabel(v.label, LIMITS.spss.variable))}`);
    if (v.kind === "string") continue;
    const c = raw(v.column);
    const shown = shownSps(v.shown);
    lines.push(`NUMERIC ${v.name} (F8.0).`);
    if (v.kind === "choice" || v.kind === "flag") {
      lines.push(`COMPUTE ${v.name} = ${NOT_ANSWERED}.`);
      if (shown) lines.push(`IF NOT (${shown}) ${v.name} = ${NOT_SHOWN}.`);
      missing.push(`${v.name} (${NOT_SHOWN}, ${NOT_ANSWERED})`);
    }
    if (v.kind === "choice") {
      for (const o of v.values) lines.push(`IF RTRIM(${c}) = ${spssString(o.code)} ${v.name} = ${o.value}.`);
      const each = v.values.map((o) => `${o.value} ${spssString(cutLabel(o.label, LIMITS.spss.value))}`);
      values.push(`  /${v.name} ${[...each, missingLabels].join(" ")}`);
    } else if (v.kind === "flag") {
      lines.push(`IF ${c} <> '' ${v.name} = ${contains(v.column, v.code)}.`);
      values.push(`  /${v.name} 0 ${spssString(words.notChosen)} 1 ${spssString(words.chosen)} ${missingLabels}`);
    } else if (v.kind === "number") {
      lines.push(`IF ${c} <> '' ${v.name} = NUMBER(REPLACE(${c}, ',', '.'), F40.0).`);
      formats.push(`${v.name} (F16.4)`);
    } else {
      lines.push(`IF ${c} <> '' ${v.name} = ${localDateTime(c)}.`);
      formats.push(`${v.name} (DATETIME20)`);
    }
  }
  if (formats.length > 0) lines.push(`FORMATS ${formats.join(" ")}.`);
  lines.push("VARIABLE LABELS", ...labels, ".");
  if (values.length > 0) lines.push("VALUE LABELS", ...values, ".");
  if (missing.length > 0) lines.push(`MISSING VALUES ${missing.join(" ")}.`);
  lines.push("ADD FILES /FILE=* /KEEP=", ...plan.variables.map((v) => `  ${v.name}`), ".", "EXECUTE.", "");
  return lines.join("\n");
}
