import { describe, expect, it } from "vitest";
import { importPlan } from "./import-plan.server";
import { QuestionnaireSchema } from "./import-schema.server";
import { coding, plan } from "./import-plan.test-support";

/**
 * A Questionnaire's plan: conditions on preliminary answers become rules; what it cannot hold (other conditions,
 * answers not in the file, nested items, repeats, items not asked) is told in the list of what is not kept, one
 * line a kind, in the editor's language.
 */

const prelim = {
  linkId: "preliminary",
  type: "group",
  text: "Before",
  item: [{ linkId: "P1", type: "choice", text: "Smoker", answerOption: [coding("y"), coding("n")] }],
};

describe("a Questionnaire's plan", () => {
  it("turns enableWhen on preliminary answers into SHOW and HIDE rules", () => {
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        prelim,
        {
          linkId: "g",
          type: "group",
          text: "G",
          item: [
            {
              linkId: "a",
              type: "string",
              text: "A",
              enableWhen: [{ question: "P1", operator: "=", answerCoding: { code: "y" } }],
            },
            {
              linkId: "b",
              type: "string",
              text: "B",
              enableBehavior: "all",
              enableWhen: [
                { question: "P1", operator: "!=", answerCoding: { code: "y" } },
                { question: "P1", operator: "!=", answerCoding: { code: "n" } },
              ],
            },
          ],
        },
      ],
    });
    expect(p.prelims.map((x) => x.options.map((o) => o.code))).toEqual([["y", "n"]]);
    const [a, b] = p.categories[0].questions;
    expect(a.rule).toEqual({ type: "SHOW", refs: [{ linkId: "P1", code: "y" }] });
    expect(b.rule?.type).toBe("HIDE");
    expect(p.notKept).toEqual([]);
  });

  it("lists what it cannot hold: exists, any across HIDE, a ValueSet not in the file, nested items without a condition", () => {
    const p = plan({
      resourceType: "Questionnaire",
      title: "T",
      item: [
        prelim,
        {
          linkId: "x",
          type: "string",
          text: "X",
          enableWhen: [{ question: "P1", operator: "exists", answerBoolean: true }],
        },
        {
          linkId: "y",
          type: "string",
          text: "Y",
          enableBehavior: "any",
          enableWhen: [
            { question: "P1", operator: "!=", answerCoding: { code: "y" } },
            { question: "P1", operator: "!=", answerCoding: { code: "n" } },
          ],
        },
        { linkId: "z", type: "choice", text: "Z", answerValueSet: "http://loinc.org/vs/LL1-9" },
        { linkId: "v", type: "choice", text: "V", answerValueSet: "#not-contained" },
        {
          linkId: "w",
          type: "choice",
          text: "W",
          answerOption: [coding("1")],
          item: [{ linkId: "w1", type: "text", text: "W1" }],
        },
      ],
    });
    // One line a kind: both conditions in one, the value set by its name, the nested item with its parent.
    expect(p.notKept).toEqual([
      "2 questions' conditions cannot be held; the questions are always shown: " +
        "“X” (“Smoker” exists true), “Y” (“Smoker” != y, “Smoker” != n)",
      "2 questions' answers are not in the file; the questions become free text: “Z” (LL1-9), “V” (not-contained)",
      "1 question under another without a condition on one of its answers is placed after it: “W1” (under “W”)",
    ]);
    const titles = p.categories[0].questions.map((q) => [q.title, q.type, q.rule]);
    expect(titles).toEqual([
      ["X", "FreeText", null],
      ["Y", "FreeText", null],
      ["Z", "FreeText", null],
      ["V", "FreeText", null],
      ["W", "SingleSelection", null],
      ["W1", "FreeText", null],
    ]);
  });

  it("refuses what repeats, first, with the questions it takes along; a choice that repeats takes several answers", () => {
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        { linkId: "a", type: "string", text: "Name" },
        {
          linkId: "family",
          type: "group",
          text: "Relatives",
          repeats: true,
          item: [
            { linkId: "f1", type: "string", text: "Who" },
            { linkId: "f2", type: "group", text: "Illnesses", repeats: true, item: [{ linkId: "f3", type: "date" }] },
          ],
        },
        { linkId: "meds", type: "string", text: "Medication", repeats: true },
        { linkId: "c", type: "choice", text: "Symptoms", repeats: true, answerOption: [coding("x"), coding("y")] },
      ],
    });
    expect(p.notKept).toEqual([
      "The group “Relatives” repeats (one block per entry); a survey cannot hold repeats: it and its 2 questions are not imported.",
      "The question “Medication” repeats (one answer per entry); a survey cannot hold repeats: it is not imported.",
    ]);
    expect(p.categories[0].questions.map((q) => [q.title, q.type])).toEqual([
      ["Name", "FreeText"],
      ["Symptoms", "MultipleSelection"],
    ]);
  });

  it("leaves calculated, read-only and hidden items out instead of asking someone to type them", () => {
    const calculated = { url: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression" };
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        {
          linkId: "g",
          type: "group",
          text: "Scores",
          item: [
            { linkId: "q", type: "choice", text: "Q", answerOption: [coding("1")] },
            {
              linkId: "total",
              type: "decimal",
              text: "Total",
              extension: [calculated],
              item: [
                { linkId: "total-help", type: "display", text: "The sum of the scores" },
                { linkId: "why", type: "string", text: "Why this total?" },
              ],
            },
            { linkId: "risk", type: "choice", text: "Risk", readOnly: true, answerOption: [coding("r")] },
            {
              linkId: "secret",
              type: "string",
              text: "Secret",
              extension: [{ url: "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", valueBoolean: true }],
            },
          ],
        },
        {
          linkId: "only",
          type: "group",
          text: "Only a total",
          item: [{ linkId: "t2", type: "integer", extension: [calculated] }],
        },
      ],
    });
    expect(p.notKept).toEqual([
      "2 calculated items are not held (a survey does not calculate): “Total”, “t2”",
      "1 read-only item (shown, not answered) is not held: “Risk”",
      "1 hidden item is not held: “Secret”",
    ]);
    // What stood under a left-out item is asked after it, its help text aside; the group whose only item was
    // left out makes no empty category.
    expect(p.categories.map((c) => [c.title, c.questions.map((q) => q.title)])).toEqual([
      ["Scores", ["Q", "Why this total?"]],
    ]);
  });

  it("tells each loss once, grouped, meaning first, in readable words, in either language", () => {
    const item = (n: number, more: object = {}) => ({
      linkId: `q${n}`,
      type: "choice",
      text: `Q${n}`,
      required: n % 2 === 0,
      code: [{ system: "http://loinc.org", code: `L${n}` }],
      extension: [
        {
          url: "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
          valueCodeableConcept: {
            coding: [{ system: "http://hl7.org/fhir/questionnaire-item-control", code: "drop-down" }],
          },
        },
        { url: "http://example.org/fhir/StructureDefinition/odd-thing", valueString: "x" },
      ],
      answerOption: [0, 1].map((v) => ({
        valueCoding: { code: `A${v}`, display: `a${v}` },
        extension: [
          { url: "http://hl7.org/fhir/StructureDefinition/questionnaire-optionPrefix", valueString: String(v) },
          { url: "http://hl7.org/fhir/StructureDefinition/ordinalValue", valueDecimal: v + 0.00001 },
        ],
      })),
      ...more,
    });
    const resource = {
      resourceType: "Questionnaire",
      item: [item(1), item(2), item(3, { enableWhen: [{ question: "q1", operator: "exists", answerBoolean: true }] })],
    };
    const en = plan(resource).notKept;
    // Codes are held now; scores too, but not with more than 4 decimals.
    expect(en).toEqual([
      "1 question's condition cannot be held; the question is always shown: “Q3” (“Q1” exists true)",
      "1 question is marked required; required answers are not enforced.",
      "3 questions: answer scores outside −9999 to 9999 or with more than 4 decimals (0.00001, 1.00001) are not kept.",
      "3 questions: answer prefixes (0, 1) not kept.",
      "3 questions: drop-down display not kept.",
      "3 questions: extension “odd-thing” not kept.",
    ]);
    for (const line of en) expect(line).not.toContain("http");
    const de = importPlan(QuestionnaireSchema.parse(resource), "de-DE").notKept;
    expect(de).toContain("1 Frage ist als Pflichtfrage markiert; Pflichtantworten werden nicht erzwungen.");
    expect(de).toContain("3 Fragen: Anzeige als Aufklappliste nicht übernommen.");
  });
});
