import type { Clause, Variable, VariablePlan } from "./variables.server";

/**
 * responses.R: base R only. Reads responses.csv as text, then builds the data frame `responses`: factors for
 * single choices (levels: the answer texts), 0/1 integers for the options of a multiple choice, numbers,
 * POSIXct date-times (the instant the CSV's local time and offset name, shown in the clinic's zone) and
 * character texts. Every variable carries its label in attr "label"; a
 * missing value's reason (not shown by a rule, not answered) in attr "missing" (docs/decisions/041).
 * The script is plain ASCII: every other character is written as an escape, whatever the R session's locale.
 */

/** An R string literal in ASCII. */
export function rString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
    else if (c < 0x7f) out += ch;
    else if (c <= 0xffff) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += `\\U{${c.toString(16)}}`;
  }
  return `${out}"`;
}

const col = (i: number) => `raw[[${i + 1}]]`;

function shownR(clauses: Clause[]): string {
  if (clauses.length === 0) return "rep(TRUE, n)";
  return clauses
    .map((c) => {
      const any =
        c.any.length === 0 ? "rep(FALSE, n)" : c.any.map((t) => `has(${t.column + 1}, ${rString(t.code)})`).join(" | ");
      return c.negate ? `!(${any})` : `(${any})`;
    })
    .join(" & ");
}

function valueOf(v: Variable): string {
  switch (v.kind) {
    case "string":
      return `ifelse(${col(v.column)} == "", NA_character_, ${col(v.column)})`;
    case "number":
      return `suppressWarnings(as.numeric(sub(",", ".", ${col(v.column)}, fixed = TRUE)))`;
    case "dateTime":
      return `zoned(${col(v.column)})`;
    case "choice":
      return `factor(${col(v.column)}, levels = c(${v.values.map((o) => rString(o.code)).join(", ")}), labels = c(${v.values.map((o) => rString(o.label)).join(", ")}))`;
    case "flag":
      return `ifelse(${col(v.column)} == "", NA_integer_, as.integer(has(${v.column + 1}, ${rString(v.code)})))`;
  }
}

export function scriptR(plan: VariablePlan, file: string, sep: ";" | ",", header: string): string {
  const { notShown, notAnswered } = plan.words;
  const lines = [
    `# ${header}`,
    '# Base R only: source("responses.R") in the folder that holds the export.',
    `raw <- read.csv(${rString(file)}, header = TRUE, sep = ${rString(sep)}, quote = "\\"", colClasses = "character",`,
    '  check.names = FALSE, na.strings = character(0), fileEncoding = "UTF-8-BOM", encoding = "UTF-8")',
    "n <- nrow(raw)",
    'has <- function(i, code) vapply(strsplit(raw[[i]], " | ", fixed = TRUE), function(s) code %in% s, logical(1))',
    "# Why a value is missing: not shown by a rule, or shown and not answered.",
    `reason <- function(value, shown) factor(ifelse(!is.na(value), NA, ifelse(shown, ${rString(notAnswered)}, ${rString(notShown)})), levels = c(${rString(notShown)}, ${rString(notAnswered)}))`,
    `# Date-times: local time in ${plan.zone} with the offset from UTC ("2024-03-01T08:00:00+01:00"), read as`,
    "# that instant and shown in the zone. The offset loses its colon: R before 4.3 reads %z only as +hhmm.",
    `zoned <- function(x) as.POSIXct(paste0(substr(x, 1, 22), substr(x, 24, 25)), format = "%Y-%m-%dT%H:%M:%S%z", tz = ${rString(plan.zone)})`,
    "responses <- data.frame(row.names = seq_len(n))",
  ];
  for (const v of plan.variables) {
    const name = rString(v.name);
    lines.push(`x <- ${valueOf(v)}`);
    lines.push(`attr(x, "label") <- ${rString(v.label)}`);
    if (v.kind === "flag")
      lines.push(`attr(x, "labels") <- c(${rString(plan.words.notChosen)} = 0L, ${rString(plan.words.chosen)} = 1L)`);
    if (!v.own) lines.push(`attr(x, "missing") <- reason(x, ${shownR(v.shown)})`);
    lines.push(`responses[[${name}]] <- x`);
  }
  lines.push("rm(raw, x, n, has, reason, zoned)", "");
  return lines.join("\n");
}
