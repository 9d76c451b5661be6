import { describe, expect, it } from "vitest";
import { coding, plan } from "./import-plan.test-support";

/**
 * A Questionnaire's plan of its questions and answers: help texts as hints, answers' scores and test weights,
 * and the codes and identity it keeps.
 */

describe("a Questionnaire's plan", () => {
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
});
