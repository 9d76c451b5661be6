import { describe, expect, it } from "vitest";
import { blocksPublishing, problemsByQuestion, publishProblems, publishSummary } from "./publish-check";
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
          Id: 10,
          Title: "A",
          Questions: [
            q(1, "Wahl", "MultipleSelection"),
            q(2, "Bild", "Image"),
            q(3, "Regel", "FreeText", { Dependence: { Type: "HIDE", PreliminaryAnswerOptions: [99] } }),
            q(4, "Oben", "SingleSelection", { AnswerOptions: [option(40, [q(5, "Unten", "SingleSelection")])] }),
          ],
        },
        { Id: 11, Title: "Leer", Questions: [] },
      ],
      [],
      "  ",
    );
    const problems = publishProblems(s);
    expect(problems).toEqual([
      { kind: "noTitle" },
      { kind: "emptyCategory", category: "Leer", categoryId: 11 },
      { kind: "noAnswers", question: "Wahl", questionId: 1 },
      { kind: "noImage", question: "Bild", questionId: 2 },
      { kind: "noMarkers", question: "Bild", questionId: 2 },
      { kind: "brokenRule", question: "Regel", questionId: 3 },
      { kind: "noAnswers", question: "Unten", questionId: 5 },
    ]);
    expect(problems.filter(blocksPublishing)).toHaveLength(6);
    // Each question's problems, for the badges on it in the editor.
    const byQuestion = problemsByQuestion(problems);
    expect([...byQuestion.keys()]).toEqual([1, 2, 3, 5]);
    expect(byQuestion.get(2)!.map((p) => p.kind)).toEqual(["noImage", "noMarkers"]);
    expect(publishProblems(survey([{ Title: "A", Questions: [] }]))).toEqual([{ kind: "noQuestion" }]);
  });
});

describe("untranslated texts", () => {
  it("are noted per offered language with their count and the first few, without blocking", async () => {
    const { sourceDigest } = await import("./content-languages");
    const { answer, category, question, survey: whole } = await import("./content-languages.test-support");
    const s = whole({
      Title: "Befinden",
      Languages: ["tr", "pl"],
      Categories: [category(1, "Allgemein", [question(2, "Wie geht es?", { AnswerOptions: [answer(3, "Gut")] })])],
      Translations: {
        tr: Object.fromEntries(
          [
            ["Title", "Befinden"],
            ["category:1", "Allgemein"],
            ["question:2", "Wie geht es?"],
            ["answer:3", "Gut"],
          ].map(([key, source]) => [key, { Text: `${source} (tr)`, Digest: sourceDigest(source!) }]),
        ),
        pl: { Title: { Text: "Samopoczucie", Digest: sourceDigest("Befinden") } },
      },
    });
    const problems = publishProblems(s);
    expect(problems).toEqual([
      {
        kind: "untranslated",
        language: "pl",
        count: 3,
        first: [
          expect.objectContaining({ key: "category:1" }),
          expect.objectContaining({ key: "question:2" }),
          expect.objectContaining({ key: "answer:3" }),
        ],
      },
    ]);
    expect(problems.some(blocksPublishing)).toBe(false);
  });
});
