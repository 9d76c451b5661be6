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
        {
          linkId: "w",
          type: "choice",
          text: "W",
          answerOption: [coding("1")],
          item: [{ linkId: "w1", type: "text", text: "W1" }],
        },
      ],
    });
    expect(p.notKept).toHaveLength(5);
    expect(p.notKept.join("\n")).toContain("“X”: the condition P1 exists true");
    expect(p.notKept.join("\n")).toContain("“Z”: its answers (http://loinc.org/vs/LL1-9)");
    expect(p.notKept.join("\n")).toContain("“W1”: nested under “W”");
    const titles = p.categories[0].questions.map((q) => [q.title, q.type, q.rule]);
    expect(titles).toEqual([
      ["X", "FreeText", null],
      ["Y", "FreeText", null],
      ["Z", "FreeText", null],
      ["W", "SingleSelection", null],
      ["W1", "FreeText", null],
    ]);
  });
});
