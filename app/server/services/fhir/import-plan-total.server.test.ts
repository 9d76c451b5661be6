import { describe, expect, it } from "vitest";
import { coding, plan } from "./import-plan.test-support";

/**
 * A Questionnaire's plan of its total score: the calculated sum of the answers' scores it carries, read in
 * each of the ways instruments write it, and the sums that are not the survey's total, listed as not kept.
 */

describe("a Questionnaire's plan", () => {
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
