import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { translatableTexts } from "~/domain/content-languages";
import type { Dashboard } from "~/domain/dashboards";
import type { Statistics, StatisticsFilterData } from "~/domain/statistics";
import type { Survey } from "~/domain/survey";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { arabic, translateFixture, turkish } from "./languages-support";
import { allQuestions } from "./statistics-scripts-support";
import { parseCsv, read, useStatisticsWorld, utf8 } from "./statistics-support";

/**
 * The statistics in a survey's languages (docs/decisions/056-statistics-languages.md): the same figures with the
 * labels of the language asked for, the case's language as a filter and as the export's variable, and exports
 * whose languages differ in their labels only.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The figures without their labels: what must be the same in every language. */
function figuresOnly(s: Statistics) {
  return allQuestions(s).map((q) => ({
    id: q.QuestionId,
    answered: q.TotalQuestionResponses,
    notAnswered: q.NotAnswered,
    score: q.ScorePercentage,
    answers: q.AnswerStatistics.map((a) => [a.AnswerOptionId, a.TotalAnswerOptionResponses]),
  }));
}

/** R, SPSS and Stata string literals masked: what a script is apart from its texts. */
const withoutStrings = (script: string) =>
  script
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/`"[^"]*"'/g, "``");

describe.each(dialects)("statistics in the survey's languages on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let survey: Survey;
  const text = new Map<string, { tr: string; ar: string; de: string }>();
  beforeAll(async () => {
    const f = fixture();
    survey = await translateFixture(world, f.survey, f.cases);
    for (const [i, t] of translatableTexts(survey).entries())
      text.set(t.key, { de: t.source, tr: turkish(t.source, i), ar: arabic(t.source, i) });
  });
  const call = async (path: string, body: unknown = {}) => read(await world().call("editor", "POST", path, body));
  const figures = (query = "", filters = {}): Promise<Statistics> =>
    call(`/statistics/${fixture().survey}?wordCloud=false${query}`, filters);

  it("the figures are the same in every language; their labels are the language's", async () => {
    const f = fixture();
    const [de, tr, ar] = await Promise.all([figures(), figures("&language=tr"), figures("&language=ar")]);
    expect(figuresOnly(tr)).toEqual(figuresOnly(de));
    expect(figuresOnly(ar)).toEqual(figuresOnly(de));
    expect(de.Title).toBe("Statistik: Herz & Kreislauf");
    expect(tr.Title).toBe(text.get("Title")!.tr);
    const feeling = (s: Statistics) => allQuestions(s).find((q) => q.QuestionId === f.q.feeling)!;
    expect(feeling(tr).QuestionTitle).toBe(text.get(`question:${f.q.feeling}`)!.tr);
    expect(feeling(ar).AnswerStatistics.map((a) => a.AnswerOptionText)).toEqual(
      ["gut", "mittel", "schlecht"].map((k) => text.get(`answer:${f.o[k]}`)!.ar),
    );
    const weight = allQuestions(ar).find((q) => q.QuestionId === f.q.weight)!;
    expect(weight.Unit).toBe(text.get(`question:${f.q.weight}:Unit`)!.ar);
    expect(tr.CategoryStatistics.map((c) => c.CategoryText)).toEqual([
      text.get(`category:${f.categories.befinden}`)!.tr,
      text.get(`category:${f.categories.wissen}`)!.tr,
    ]);
    // A language the survey does not offer gives its source texts; one that is none is refused.
    expect((await figures("&language=ru")).Title).toBe(de.Title);
    expect((await world().call("editor", "POST", `/statistics/${f.survey}?language=xx`, {})).status).toBe(400);
  });

  it("the filter data and the charts' choices in the language asked for, and the languages to filter by", async () => {
    const f = fixture();
    const data: StatisticsFilterData = await read(
      await world().call("editor", "GET", `/statisticsFilterData?surveyId=${f.survey}&language=ar`),
    );
    expect(data.Languages).toEqual(["de", "tr", "ar"]);
    const smoker = data.PreliminaryQuestions.find((p) => p.Id === f.smoker.id)!;
    expect(smoker.Title).toBe(text.get(`attribute:${f.smoker.id}`)!.ar);
    expect(smoker.AnswerOptions.map((o) => o.Text)).toEqual([
      text.get(`entry:${f.smoker.yes}`)!.ar,
      text.get(`entry:${f.smoker.no}`)!.ar,
    ]);
    const dashboard: Dashboard = await call(`/statistics-dashboards/get-by-survey-id/${f.survey}?language=tr`, {
      Filters: {},
    });
    expect(dashboard.Choices.NumericalQuestions).toEqual([
      {
        Id: f.q.weight,
        Title: text.get(`question:${f.q.weight}`)!.tr,
        Unit: text.get(`question:${f.q.weight}:Unit`)!.tr,
      },
    ]);
  });

  it("filters by the case's language: a case without one is in the source language", async () => {
    const f = fixture();
    const counted = async (Languages: string[]) => (await figures("", { Languages })).NumSurveyResponses;
    expect(await counted(["tr"])).toBe(2);
    expect(await counted(["ar"])).toBe(1);
    expect(await counted(["de"])).toBe(3);
    expect(await counted(["de", "ar"])).toBe(4);
    expect(await counted(["en"])).toBe(0);
    expect(await counted([])).toBe(6);
    const ids = await call(`/statistics/${f.survey}/patient-ids`, { Languages: ["tr", "ar"] });
    expect(ids).toEqual(["P1", "P2", "P3"]);
    expect((await world().call("editor", "POST", `/statistics/${f.survey}`, { Languages: ["fr"] })).status).toBe(400);
  });

  it("German and Turkish exports differ only in their labels: the same CSV, codes and values", async () => {
    const f = fixture();
    const zip = async (language: string) => {
      const res = await world().call(
        "editor",
        "POST",
        `/statistics/${f.survey}/csv?culture=de-DE&language=${language}`,
        {},
      );
      expect(res.status).toBe(200);
      return unzipSync(new Uint8Array(await res.arrayBuffer()));
    };
    const [de, tr] = [await zip("de"), await zip("tr")];
    expect(Object.keys(tr).sort()).toEqual(Object.keys(de).sort());
    // responses.csv is the same file: the answers and every code, and the case's language.
    expect(utf8.decode(tr["responses.csv"])).toBe(utf8.decode(de["responses.csv"]));
    const [header, ...rows] = parseCsv(utf8.decode(de["responses.csv"]).slice(1), ";");
    expect(rows.map((r) => [r[0], r[header.indexOf("Language")]])).toEqual([
      ["P1", "tr"],
      ["P2", "tr"],
      ["P3", "ar"],
      ["P4", "de"],
      ["P5", "de"],
      ["P6", "de"],
    ]);
    // codebook.csv: the same columns, kinds and codes; the questions and the answers' texts in Turkish.
    const book = (files: Record<string, Uint8Array>) => parseCsv(utf8.decode(files["codebook.csv"]).slice(1), ";");
    const [bookDe, bookTr] = [book(de), book(tr)];
    const row = (rows: string[][], name: string) => rows.find((r) => r[0] === name)!;
    // (A number's unit is one of the survey's texts: it is in its language in the column's kind too.)
    const unit = text.get(`question:${f.q.weight}:Unit`)!;
    const kinds = (rows: string[][], of: string) => rows.map((r) => [r[0], r[2].replace(of, "<unit>")]);
    expect(kinds(bookTr, unit.tr)).toEqual(kinds(bookDe, unit.de));
    expect(row(bookTr, `Q${f.q.weight}`)[2]).toBe(`Numerical in ${unit.tr}`);
    const codesOf = (cell: string) => cell.split("; ").map((c) => c.split(" = ")[0]);
    expect(bookTr.map((r) => codesOf(r[3]))).toEqual(bookDe.map((r) => codesOf(r[3])));
    expect(row(bookTr, `Q${f.q.feeling}`)[1]).toBe(text.get(`question:${f.q.feeling}`)!.tr);
    expect(row(bookTr, `Q${f.q.feeling}`)[3]).toBe(
      ["G1", "G2", "G3"]
        .map((c, i) => `${c} = ${text.get(`answer:${f.o[["gut", "mittel", "schlecht"][i]]}`)!.tr}`)
        .join("; "),
    );
    expect(row(bookDe, `Q${f.q.feeling}`)[1]).toBe("Wie geht es Ihnen?");
    // The scripts' variables: the same names, columns, kinds, values and codes; only their labels differ.
    const vars = (files: Record<string, Uint8Array>) =>
      parseCsv(utf8.decode(files["codebook-variables.csv"]).slice(1), ";").map((r) => [
        r[0],
        r[1],
        r[2],
        r[6].replace(/ = [^;]*\(([^()]*)\)/g, " = ($1)"),
        r[7],
      ]);
    expect(vars(tr)).toEqual(vars(de));
    const labels = (files: Record<string, Uint8Array>) =>
      parseCsv(utf8.decode(files["codebook-variables.csv"]).slice(1), ";").map((r) => r[3]);
    expect(labels(tr)).not.toEqual(labels(de));
    expect(labels(tr)).toContain(text.get(`question:${f.q.notes}`)!.tr);
    for (const script of ["responses.R", "responses.sps", "responses.do"]) {
      const [a, b] = [utf8.decode(de[script]), utf8.decode(tr[script])];
      expect(a, script).not.toBe(b);
      expect(withoutStrings(b), script).toBe(withoutStrings(a));
    }
  });
});
