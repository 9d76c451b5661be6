import { describe, expect, it } from "vitest";
import { importPlan } from "./import-plan.server";
import { QuestionnaireSchema } from "./import-schema.server";

const plan = (resource: unknown) => importPlan(QuestionnaireSchema.parse(resource), "en-US");
const coding = (code: string) => ({ valueCoding: { code, display: code.toUpperCase() } });
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

  it("a help text under a question is its hint, not the survey's introduction, with or without itemControl help", () => {
    const help = (linkId: string, text: string, control?: string) => ({
      linkId,
      type: "display",
      text,
      ...(control
        ? {
            extension: [
              {
                url: "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
                valueCodeableConcept: { coding: [{ code: control }] },
              },
            ],
          }
        : {}),
    });
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        { linkId: "intro", type: "display", text: "Welcome" },
        { linkId: "a", type: "string", text: "A", item: [help("a-help", " <b>Help</b> ", "help")] },
        {
          linkId: "b",
          type: "choice",
          text: "B",
          answerOption: [coding("1")],
          item: [help("b1", "One"), help("b2", "Two")],
        },
      ],
    });
    expect(p.intro).toEqual(["Welcome"]);
    expect(p.categories[0].questions.map((q) => [q.title, q.hint])).toEqual([
      ["A", "<b>Help</b>"],
      ["B", "One\n\nTwo"],
    ]);
    expect(p.notKept).toEqual([]);
  });

  it("takes scores from ordinalValue or itemWeight, on the option or its coding, 0 kept, never as test weights", () => {
    const ext = (name: string, value: number) => ({
      url: `http://hl7.org/fhir/StructureDefinition/${name}`,
      valueDecimal: value,
    });
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        {
          linkId: "q",
          type: "choice",
          text: "Q",
          answerOption: [
            {
              valueCoding: { system: "http://loinc.org", code: "a", display: "A" },
              extension: [ext("ordinalValue", 0)],
            },
            { valueCoding: { code: "b", display: "B", extension: [ext("ordinalValue", 2)] } },
            { valueCoding: { code: "c", display: "C" }, extension: [ext("itemWeight", -1.5)] },
            { valueCoding: { code: "d", display: "D" }, extension: [ext("itemWeight", 3), ext("ordinalValue", 3)] },
            { valueCoding: { code: "e", display: "E" } },
          ],
        },
      ],
    });
    const [q] = p.categories[0].questions;
    expect(q.options.map((o) => [o.code, o.system, o.score, o.weight, o.weightingState])).toEqual([
      ["a", "http://loinc.org", 0, null, 2],
      ["b", null, 2, null, 2],
      ["c", null, -1.5, null, 2],
      ["d", null, 3, null, 2],
      ["e", null, null, null, 2],
    ]);
    expect(q.test).toBeNull();
    expect(p.notKept).toEqual([]);
  });

  it("reads the product's own test weights, apart from scores, and those of exports from before test-weight", () => {
    const own = (name: string, value: number) => ({
      url: `https://x.example/fhir/StructureDefinition/${name}`,
      valueInteger: value,
    });
    const ordinal = (value: number) => ({
      url: "http://hl7.org/fhir/StructureDefinition/ordinalValue",
      valueDecimal: value,
    });
    const p = plan({
      resourceType: "Questionnaire",
      item: [
        {
          linkId: "now",
          type: "choice",
          text: "Now",
          extension: [{ url: "https://x.example/fhir/StructureDefinition/test-question", valueBoolean: true }],
          answerOption: [
            { valueCoding: { code: "r" }, extension: [ordinal(1), own("weighting-state", 1), own("test-weight", 3)] },
            { valueCoding: { code: "w" }, extension: [ordinal(2), own("weighting-state", 0)] },
            { valueCoding: { code: "n" }, extension: [ordinal(0)] },
          ],
        },
        {
          linkId: "before",
          type: "choice",
          text: "Before",
          answerOption: [
            { valueCoding: { code: "r", extension: [ordinal(2)] }, extension: [own("weighting-state", 1)] },
            { valueCoding: { code: "w" }, extension: [own("weighting-state", 0)] },
          ],
        },
      ],
    });
    const [now, before] = p.categories[0].questions;
    expect(now.options.map((o) => [o.code, o.score, o.weight, o.weightingState])).toEqual([
      ["r", 1, 3, 1],
      ["w", 2, null, 0],
      ["n", 0, null, 2],
    ]);
    expect(now.test).toBe(true);
    expect(before.options.map((o) => [o.code, o.score, o.weight, o.weightingState])).toEqual([
      ["r", null, 2, 1],
      ["w", null, null, 0],
    ]);
  });

  it("keeps the codes of items, groups and the Questionnaire, and its identity", () => {
    const loinc = (code: string, display?: string) => ({
      system: "http://loinc.org",
      code,
      ...(display ? { display } : {}),
    });
    const p = plan({
      resourceType: "Questionnaire",
      name: "PHQ-9",
      title: "PHQ-9 quick depression assessment panel",
      identifier: [{ system: "http://loinc.org", value: "44249-1" }, { value: "" }],
      date: "2024-06-09",
      subjectType: ["Patient"],
      code: [loinc("44249-1", "PHQ-9 quick depression assessment panel")],
      copyright: "© Pfizer",
      item: [
        {
          linkId: "g",
          type: "group",
          text: "G",
          code: [loinc("44249-1"), { display: "no code" }],
          item: [{ linkId: "q", type: "string", text: "Q", code: [{ code: "x" }] }],
        },
      ],
    });
    expect(p.categories[0].codes).toEqual([{ System: "http://loinc.org", Code: "44249-1", Display: null }]);
    expect(p.categories[0].questions[0].codes).toEqual([{ System: null, Code: "x", Display: null }]);
    expect(p.instrument).toEqual({
      Name: "PHQ-9",
      Identifier: [{ System: "http://loinc.org", Value: "44249-1" }],
      Date: "2024-06-09",
      SubjectType: ["Patient"],
      Codes: [{ System: "http://loinc.org", Code: "44249-1", Display: "PHQ-9 quick depression assessment panel" }],
      Copyright: "© Pfizer",
    });
    expect(p.notKept).toEqual([]);
    expect(plan({ resourceType: "Questionnaire", item: [{ linkId: "q", type: "string" }] }).instrument).toBeNull();
  });

  describe("a calculated sum of the answers' scores is the survey's total", () => {
    const calculated = (expression: string) => ({
      url: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression",
      valueExpression: { language: "text/fhirpath", expression },
    });
    const variable = (name: string, expression: string) => ({
      url: "http://hl7.org/fhir/StructureDefinition/variable",
      valueExpression: { name, language: "text/fhirpath", expression },
    });
    const scored = (linkId: string) => ({
      linkId,
      type: "choice",
      text: linkId.toUpperCase(),
      answerOption: [0, 1].map((v) => ({
        valueCoding: { code: `${linkId}${v}` },
        extension: [{ url: "http://hl7.org/fhir/StructureDefinition/ordinalValue", valueDecimal: v }],
      })),
    });
    const total = (extension: object[], more: object = {}) => ({
      linkId: "total",
      type: "decimal",
      text: "Sum",
      code: [{ system: "http://loinc.org", code: "44261-6" }],
      extension,
      ...more,
    });
    const with_ = (...items: object[]) =>
      plan({ resourceType: "Questionnaire", item: [scored("a"), scored("b"), ...items] });

    it("PHQ-9's way: variables that read ordinalValue, added up", () => {
      const read = (linkId: string) =>
        `%questionnaire.item.where(linkId = '${linkId}').answerOption.where(valueCoding.code=%resource.item.where(linkId = '${linkId}').answer.valueCoding.code).extension.where(url=%scoreExt).valueDecimal`;
      const p = with_(
        total([
          variable("scoreExt", "'http://hl7.org/fhir/StructureDefinition/ordinalValue'"),
          variable("qa", read("a")),
          variable("qb", read("b")),
          calculated("iif(%qa.exists(), %qa, 0) + iif(%qb.exists(), %qb, 0)"),
        ]),
      );
      expect(p.scoreTitle).toBe("Sum");
      expect(p.instrument?.ScoreCodes).toEqual([{ System: "http://loinc.org", Code: "44261-6", Display: null }]);
      expect(p.categories[0].questions.map((q) => q.title)).toEqual(["A", "B"]);
      expect(p.notKept).toEqual([]);
    });

    it("weight() or ordinal() with sum(), or a read-only item with an expression", () => {
      for (const made of [
        total([calculated("%resource.repeat(item).answer.value.weight().sum()")]),
        total([calculated("%resource.item.answer.value.ordinal().sum()")]),
        total(
          [
            {
              url: "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression",
              valueExpression: { expression: "%resource.item.answer.value.weight().sum()" },
            },
          ],
          { readOnly: true },
        ),
      ]) {
        const p = with_(made);
        expect(p.scoreTitle).toBe("Sum");
        expect(p.notKept).toEqual([]);
      }
    });

    it("not a sum of the scores, a sum of some of them, or a sum without scores to add: left out and listed", () => {
      const cases = [
        total([calculated("iif(%resource.item.answer.value.code contains 'a1', 'risk', 'none')")]),
        total([calculated("%resource.item.where(linkId = 'a').answer.value.weight().sum()")]),
      ];
      for (const made of cases) {
        const p = with_(made);
        expect(p.scoreTitle).toBeNull();
        expect(p.instrument).toBeNull();
        expect(p.notKept).toEqual(["1 calculated item is not held (a survey does not calculate): “Sum”"]);
      }
      const unscored = plan({
        resourceType: "Questionnaire",
        item: [
          { linkId: "q", type: "choice", answerOption: [coding("x")] },
          total([calculated("%resource.item.answer.value.weight().sum()")]),
        ],
      });
      expect(unscored.scoreTitle).toBeNull();
      expect(unscored.notKept).toEqual(["1 calculated item is not held (a survey does not calculate): “Sum”"]);
    });

    it("one total: a second sum is listed; what the total carries besides its title is one line", () => {
      const p = with_(
        total(
          [
            calculated("%resource.item.answer.value.weight().sum()"),
            { url: "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", valueCoding: { display: "{score}" } },
          ],
          { prefix: "Σ" },
        ),
        { ...total([calculated("%resource.item.answer.value.weight().sum()")]), linkId: "again", text: "Again" },
      );
      expect(p.scoreTitle).toBe("Sum");
      expect(p.notKept).toEqual([
        "1 calculated item is not held (a survey does not calculate): “Again”",
        "The total score “Sum”: prefixes (Σ), unit not kept.",
      ]);
    });
  });
});
