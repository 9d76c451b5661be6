import { expect } from "vitest";

/**
 * A checker of the Stata syntax responses.do is written in (no Stata here): each line is one of the commands
 * the script uses, strings are closed, every variable named exists at that point, names are valid Stata
 * names, labels keep Stata's limits, and every value label is defined before it is attached.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,31}$/;
const FUNCTIONS = new Set(["real", "subinstr", "substr", "clock", "strpos"]);

/** The strings of a line (compound quotes or plain) and the line with each replaced by S. */
function strings(line: string): { rest: string; texts: string[] } {
  const texts: string[] = [];
  let rest = "";
  for (let i = 0; i < line.length;) {
    if (line.startsWith('`"', i)) {
      let j = i + 2;
      for (; j < line.length && !line.startsWith("\"'", j); j++) if (line[j] === "\\") j++;
      expect(j, `compound string closed: ${line}`).toBeLessThan(line.length);
      const body = line.slice(i + 2, j);
      expect(/(?<!\\)[`$]/.test(body), `no macro inside a string: ${line}`).toBe(false);
      texts.push(body.replace(/\\([`$\\])/g, "$1"));
      rest += " S ";
      i = j + 2;
    } else if (line[i] === '"') {
      const j = line.indexOf('"', i + 1);
      expect(j, `string closed: ${line}`).toBeGreaterThan(i);
      texts.push(line.slice(i + 1, j));
      rest += " S ";
      i = j + 1;
    } else rest += line[i++];
  }
  return { rest, texts };
}

/** The identifiers an expression names (variables and functions). */
function checkExpression(expr: string, vars: Set<string>, line: string) {
  for (const m of expr.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) {
    const word = m[0];
    if (word === "S") continue;
    if (FUNCTIONS.has(word)) continue;
    expect(vars.has(word), `${word} exists: ${line}`).toBe(true);
  }
  let depth = 0;
  for (const ch of expr) {
    depth += ch === "(" ? 1 : ch === ")" ? -1 : 0;
    expect(depth, line).toBeGreaterThanOrEqual(0);
  }
  expect(depth, `brackets closed: ${line}`).toBe(0);
}

export interface StataCheck {
  variables: string[];
  labels: Map<string, string>;
  valueLabels: Map<string, string>;
}

export function checkStata(script: string, columns: number): StataCheck {
  const vars = new Set<string>();
  const defined = new Set<string>();
  const labels = new Map<string, string>();
  const valueLabels = new Map<string, string>();
  let order: string[] = [];
  for (const line of script.split("\n")) {
    if (line === "" || line.startsWith("* ")) continue;
    const { rest, texts } = strings(line);
    const words = rest.trim().split(/\s+/);
    const [cmd, sub] = words;
    if (line === "clear" || line === "version 16") continue;
    if (cmd === "import") {
      expect(rest.replace(/\s+/g, " ")).toMatch(
        /^import delimited using S , delimiter\( S \) varnames\(nonames\) rowrange\(2\)/,
      );
      for (let i = 1; i <= columns; i++) vars.add(`v${i}`);
    } else if (cmd === "rename") {
      expect(words).toHaveLength(3);
      expect(vars.delete(words[1]), line).toBe(true);
      expect(words[2]).toMatch(NAME);
      vars.add(words[2]);
    } else if (cmd === "generate") {
      const m = /^generate (byte|long|double) (\w+) = (.*)$/.exec(rest.trim());
      expect(m, line).not.toBeNull();
      expect(m![2]).toMatch(NAME);
      expect(vars.has(m![2]), `new: ${line}`).toBe(false);
      checkExpression(m![3].replace(/ if /, " "), vars, line);
      vars.add(m![2]);
    } else if (cmd === "replace") {
      const m = /^replace (\w+) = (-?[\d.]+|\.[ab]|\.) if (.*)$/.exec(rest.trim());
      expect(m, line).not.toBeNull();
      expect(vars.has(m![1]), line).toBe(true);
      checkExpression(m![3], vars, line);
    } else if (cmd === "label" && sub === "define") {
      expect(words[2]).toMatch(NAME);
      // value "text" pairs
      const pairs = words.slice(3);
      expect(pairs.length % 2, line).toBe(0);
      for (let i = 0; i < pairs.length; i += 2) {
        expect(pairs[i]).toMatch(/^(-?\d+|\.[a-z])$/);
        expect(pairs[i + 1]).toBe("S");
      }
      for (const t of texts) expect(t.length).toBeLessThanOrEqual(32_000);
      defined.add(words[2]);
    } else if (cmd === "label" && sub === "values") {
      expect(vars.has(words[2]), line).toBe(true);
      expect(defined.has(words[3]), `label ${words[3]} defined first`).toBe(true);
      valueLabels.set(words[2], words[3]);
    } else if (cmd === "label" && sub === "variable") {
      expect(vars.has(words[2]), line).toBe(true);
      expect(texts).toHaveLength(1);
      expect([...texts[0]].length, `Stata's 80 characters: ${line}`).toBeLessThanOrEqual(80);
      labels.set(words[2], texts[0]);
    } else if (cmd === "format") {
      expect(vars.has(words[1]), line).toBe(true);
      expect(words[2]).toBe("%tc");
    } else if (cmd === "drop") {
      for (const w of words.slice(1)) expect(vars.delete(w), line).toBe(true);
    } else if (cmd === "order") {
      order = words.slice(1);
      expect(new Set(order)).toEqual(vars);
    } else throw new Error(`Not a command of the subset: ${line}`);
  }
  return { variables: order, labels, valueLabels };
}
