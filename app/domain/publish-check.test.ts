import { describe, expect, it } from "vitest";
import { blocksPublishing, publishProblems, publishSummary } from "./publish-check";
import type { Survey } from "./survey";

const q = (Id: number, Title: string, Type: string, extra: Record<string, unknown> = {}) => ({
  Id,
  Title,
  Type,
  ImageSrc: null,
  Dependence: null,
  AnswerOptions: [],
  ...extra,
});
const option = (Id: number, SubQuestions: unknown[] = []) => ({ Id, Text: `o${Id}`, SubQuestions });

const survey = (categories: unknown[], patientForm: unknown[] = [], Title = "Umfrage") =>
  ({ Title, Categories: categories, PatientForm: patientForm }) as unknown as Pick<
    Survey,
    "Title" | "Categories" | "PatientForm"
  >;

describe("publishProblems", () => {
  it("finds nothing in a complete survey and counts what is released", () => {
    const s = survey(
      [
        {
          Title: "A",
          Questions: [
            q(1, "Wahl", "SingleSelection", {
              AnswerOptions: [
                option(10, [
                  q(2, "Warum?", "FreeText", { Dependence: { Type: "SHOW", PreliminaryAnswerOptions: [7] } }),
                ]),
              ],
            }),
          ],
        },
      ],
      [{ AnswerOptions: [{ Id: 7 }] }],
    );
    expect(publishProblems(s)).toEqual([]);
    expect(publishSummary(s)).toEqual({ categories: 1, questions: 2, rules: 1, preliminaryQuestions: 1 });
  });

  it("names every problem, sub-questions too; an empty category is only noted", () => {
    const s = survey(
      [
        {
          Title: "A",
          Questions: [
            q(1, "Wahl", "MultipleSelection"),
            q(2, "Bild", "Image"),
            q(3, "Regel", "FreeText", { Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [99] } }),
            q(4, "Oben", "SingleSelection", { AnswerOptions: [option(40, [q(5, "Unten", "SingleSelection")])] }),
          ],
        },
        { Title: "Leer", Questions: [] },
      ],
      [],
      "  ",
    );
    const problems = publishProblems(s);
    expect(problems).toEqual([
      { kind: "noTitle" },
      { kind: "emptyCategory", category: "Leer" },
      { kind: "noAnswers", question: "Wahl" },
      { kind: "noImage", question: "Bild" },
      { kind: "noMarkers", question: "Bild" },
      { kind: "brokenRule", question: "Regel" },
      { kind: "noAnswers", question: "Unten" },
    ]);
    expect(problems.filter(blocksPublishing)).toHaveLength(6);
    expect(publishProblems(survey([{ Title: "A", Questions: [] }]))).toEqual([{ kind: "noQuestion" }]);
  });
});
