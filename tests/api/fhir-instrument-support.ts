import { expect } from "vitest";
import type { Body } from "./statistics-support";

/**
 * A published Questionnaire against the product's export of the survey imported from it, item by item
 * (tests/api/fhir-instruments.test.ts): what the survey holds comes back as it was, and what it does not
 * hold is named in the preview's list.
 */

const SCORE = /\/(ordinalValue|itemWeight)$/;

/** An answer option's score as FHIR states it: ordinalValue or itemWeight, on the option or its coding. */
function scoreOf(option: Body): number | undefined {
  const all = [...(option.extension ?? []), ...(option.valueCoding?.extension ?? [])];
  return all.find((e: Body) => SCORE.test(e.url))?.valueDecimal;
}

/** An answer option's coding as FHIR states it, whatever its value[x]. */
function codingOf(option: Body) {
  if (option.valueCoding) {
    const { system, code, display } = option.valueCoding;
    return { system, code, display };
  }
  const value = String(Object.entries(option).find(([k]) => k.startsWith("value"))![1]);
  return { system: undefined, code: value, display: value };
}

/** Codes as they compare: system, code, display. */
const codes = (list: Body[] | undefined) =>
  (list ?? []).map((c: Body) => ({ system: c.system, code: c.code, display: c.display }));

/** An item's key across the two files: its first code, or its text. */
const keyOf = (item: Body) =>
  item.code?.[0] ? `${item.code[0].system ?? ""}|${item.code[0].code}` : `text ${item.text}`;

const isCalculated = (item: Body) =>
  (item.extension ?? []).some((e: Body) => e.url.endsWith("/sdc-questionnaire-calculatedExpression"));

/**
 * Compares `original` with `exported`, the product's Questionnaire of the survey imported from it; `lines` is
 * the import's list of what it did not keep. The identity (name, identifier, date, subject types, codes) is
 * kept; every question is in the export with its text, codes, repeats, answers (code, system, display,
 * score), help text and conditions, or the list names it (or a group around it); a calculated item is the
 * survey's total (its text and codes) or named in the list.
 */
export function compareWithExport(original: Body, exported: Body, lines: string[]): void {
  const named = (...items: Body[]) =>
    items.some((i) => i?.text && lines.some((l) => l.includes(`„${i.text}“`) || l.includes(`“${i.text}”`)));
  for (const key of ["title", "name", "identifier", "date", "subjectType", "code", "copyright"])
    expect(exported[key], `Questionnaire.${key}`).toEqual(original[key]);

  const byKey = new Map<string, Body>();
  const index = (items: Body[] = []) => {
    for (const i of items) {
      if (i.type !== "display") byKey.set(keyOf(i), i);
      index(i.item);
    }
  };
  index(exported.item);
  const linkIdOf = new Map<string, string>();
  const mapIds = (items: Body[] = []) => {
    for (const i of items) {
      const there = byKey.get(keyOf(i));
      if (there) linkIdOf.set(i.linkId, there.linkId);
      mapIds(i.item);
    }
  };
  mapIds(original.item);

  let compared = 0;
  const walk = (items: Body[] = [], around: Body[]) => {
    for (const item of items) {
      const where = `${item.linkId} (${item.text})`;
      if (item.type === "display") continue;
      if (item.type === "group" && item.repeats) {
        // Refused with all it holds: said in the list by its name.
        expect(named(item), `${where} is named as refused`).toBe(true);
        continue;
      }
      if (item.type === "group") {
        const group = byKey.get(keyOf(item));
        expect(group, where).toBeDefined();
        expect([group.type, group.text, codes(group.code)], where).toEqual(["group", item.text, codes(item.code)]);
        walk(item.item, [...around, item]);
        continue;
      }
      if (isCalculated(item)) {
        const total = exported.item.find((i: Body) => i.linkId === "score");
        if (total?.text === item.text) {
          expect([total.type, total.readOnly, codes(total.code)], where).toEqual(["decimal", true, codes(item.code)]);
          expect(isCalculated(total), where).toBe(true);
        } else expect(named(item), `${where} is named as not held`).toBe(true);
        compared++;
        continue;
      }
      const there = byKey.get(keyOf(item));
      if (!there) {
        expect(named(item, ...around), `${where} is in the export or named in the list`).toBe(true);
        continue;
      }
      compared++;
      expect([there.text, codes(there.code)], where).toEqual([item.text, codes(item.code)]);
      if (item.repeats) expect(there.repeats, `${where} repeats`).toBe(true);
      expect(
        (there.answerOption ?? []).map((o: Body) => [codingOf(o), scoreOf(o)]),
        `${where}: answers, their codes, systems and scores`,
      ).toEqual((item.answerOption ?? []).map((o: Body) => [codingOf(o), scoreOf(o)]));
      // Its help texts, under it as they were.
      const help = (i: Body) => (i.item ?? []).filter((c: Body) => c.type === "display").map((c: Body) => c.text);
      expect(help(there).join("\n\n"), `${where}: help`).toBe(help(item).join("\n\n").trim());
      // Its conditions, on the same questions and answers, or named in the list.
      const conditions = (i: Body, ids: (linkId: string) => string | undefined) =>
        (i.enableWhen ?? []).map((w: Body) => [ids(w.question), w.operator, w.answerCoding?.code]);
      if (item.enableWhen && !named(item)) {
        expect(
          conditions(there, (id) => id),
          `${where}: conditions`,
        ).toEqual(conditions(item, (id) => linkIdOf.get(id)));
      }
      walk(item.item, [...around, item]);
    }
  };
  walk(original.item, []);
  expect(compared).toBeGreaterThan(1);
}
