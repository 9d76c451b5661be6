import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { Chart } from "~/domain/dashboards";
import type { QuestionStatistics } from "~/domain/statistics";
import { addLocale, mergeTables } from "~/i18n";
import { staffTexts, TextsProvider } from "~/texts";
import deAuthoring from "../../../locales/de-DE/authoring.json";
import deCommon from "../../../locales/de-DE/common.json";
import { ChartView } from "./graphs/ChartView";
import { QuestionStats } from "./QuestionStats";
import { readView } from "~/domain/statistics-view";

beforeAll(() => addLocale("de-DE", mergeTables(deCommon, deAuthoring)));

const html = (element: ReactElement) =>
  renderToStaticMarkup(<TextsProvider texts={staffTexts("de-DE")}>{element}</TextsProvider>);

function question(id: number, type: number, answers: [string, number, number][]): QuestionStatistics {
  return {
    QuestionId: id,
    QuestionTitle: `Frage ${id}`,
    Type: type,
    Unit: null,
    IsScoredQuestion: false,
    ScoreFlag: null,
    ScorePercentage: null,
    ScoreResult: null,
    ScoreMax: null,
    TotalQuestionResponses: 4,
    NotAnswered: 1,
    AnswerStatistics: answers.map(([text, count, percent], i) => ({
      AnswerOptionId: id * 10 + i,
      AnswerOptionText: text,
      TotalAnswerOptionResponses: count,
      PercentageAnswerOptionResponses: percent,
      SubQuestionStatistics: [],
    })),
    WordCloud: [],
    Responses: [],
    CountedValuesStatistics: null,
    AllowFileAttachments: false,
    NumberOfFileAttachments: 0,
  };
}

const pie = readView(new URLSearchParams("pie=1"));
const attr = (markup: string, tag: string, name: string) =>
  [...markup.matchAll(new RegExp(`<${tag}\\b[^>]*\\b${name}="([^"]*)"`, "g"))].map((m) => m[1]);

describe("results charts", () => {
  const single = question(1, 1, [
    ["Ja", 3, 75],
    ["Nein", 0, 0],
    ["Weiß nicht", 1, 25],
  ]);
  const several = question(2, 2, [
    ["Kopf", 3, 75],
    ["Bauch", 4, 100],
  ]);

  it("draws a single choice's pie with a key: each answer's colour, text and share", () => {
    const markup = html(<QuestionStats q={single} other={null} benchmarking={false} view={pie} several={new Set()} />);
    expect(markup).toContain('aria-label="Kreisdiagramm der Antworten auf Frage 1"');
    const key = /<ul class="pie__legend" aria-label="Farbschlüssel zu Frage 1">(.*?)<\/ul>/.exec(markup)?.[1] ?? "";
    expect(
      key
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    ).toBe("Ja 75,00 % Nein 0,00 % Weiß nicht 25,00 %");
    // The slices (the empty answer has none) take the colours their answers have in the key.
    const swatches = attr(key, "span", "style").map((s) => /background:\s*([^;]+)/.exec(s)?.[1]);
    expect(attr(markup, "path", "fill")).toEqual([swatches[0], swatches[2]]);
  });

  it("draws no pie for a question that takes several answers: bars of the shares, and says why", () => {
    const markup = html(
      <QuestionStats q={several} other={null} benchmarking={false} view={pie} several={new Set([2])} />,
    );
    expect(markup).not.toContain("Kreisdiagramm der Antworten");
    expect(markup).not.toContain("<svg");
    expect(markup).toContain('role="img" aria-label="Balkendiagramm der Antworten auf Frage 2"');
    expect(attr(markup, "span", "style").filter((s) => s.startsWith("width"))).toEqual([
      expect.stringContaining("width:75%"),
      expect.stringContaining("width:100%"),
    ]);
    expect(markup).toContain("Mehrfachauswahl: Die Anteile können zusammen mehr als 100 % ergeben");
  });

  it("says beside the answers how many cases were asked and gave none", () => {
    const markup = html(<QuestionStats q={single} other={null} benchmarking={false} view={pie} several={new Set()} />);
    expect(markup).toContain('<p class="qstat__total">4 Antworten, 1 nicht beantwortet</p>');
    const other = { ...single, TotalQuestionResponses: 3, NotAnswered: 2 };
    const text = html(<QuestionStats q={single} other={other} benchmarking view={pie} several={new Set()} />);
    expect(text.replace(/<[^>]+>/g, "")).toContain(
      "4 Antworten, 1 nicht beantwortet · Benchmark: 3 Antworten, 2 nicht beantwortet",
    );
  });

  it("draws neither while the pie charts are off", () => {
    const off = readView(new URLSearchParams());
    for (const q of [single, several]) {
      const markup = html(<QuestionStats q={q} other={null} benchmarking={false} view={off} several={new Set([2])} />);
      expect(markup).not.toContain('role="img"');
    }
  });
});

describe("radar chart", () => {
  const chart = (categories: number): Chart => ({
    Id: 1,
    ChartType: "CategoryWithActualAndMaxScores",
    PlotType: "RadarChart",
    AttributeId: null,
    QuestionId1: null,
    QuestionId2: null,
    Sort: 0,
    RangeEntries: [],
    RangeEntriesTotal: 0,
    ResponseCountsByDates: [],
    SurveyScoresByDates: [],
    AverageScoresByDates: [],
    ResponseCountsByPreQuestionOptions: [],
    ScorePlotByPreQuestionOptions: [],
    CategoryScores: Array.from({ length: categories }, (_, i) => ({
      CategoryId: i + 1,
      CategoryText: `Kategorie ${i + 1}`,
      ActualScore: 1,
      MaxScore: 2,
    })),
  });

  it("says why it is a line with one or two categories, and not with three", () => {
    expect(html(<ChartView chart={chart(1)} name="Kategorie-Punktzahlen" scored />)).toContain(
      "Nur eine Kategorie hat Punktzahlen. Eine Fläche entsteht erst ab drei Kategorien",
    );
    expect(html(<ChartView chart={chart(2)} name="Kategorie-Punktzahlen" scored />)).toContain(
      "Nur 2 Kategorien haben Punktzahlen.",
    );
    expect(html(<ChartView chart={chart(3)} name="Kategorie-Punktzahlen" scored />)).not.toContain("Fläche");
  });
});

describe("score charts of a survey without scored questions", () => {
  const base = (ChartType: Chart["ChartType"]): Chart => ({
    Id: 1,
    ChartType,
    PlotType: "LineChart",
    AttributeId: 5,
    QuestionId1: null,
    QuestionId2: null,
    Sort: 0,
    RangeEntries: [],
    RangeEntriesTotal: 0,
    ResponseCountsByDates: [{ Date: "2026-03-01", Count: 2 }],
    SurveyScoresByDates: [{ PatientId: "P1", Date: "2026-03-01", Score: 0, MaxScore: 0 }],
    AverageScoresByDates: [{ Date: "2026-03-01", AverageScore: 0, Count: 2 }],
    ResponseCountsByPreQuestionOptions: [],
    ScorePlotByPreQuestionOptions: [
      { OptionId: 1, OptionText: "akut", Count: 2, Min: 0, Q1: 0, Median: 0, Q3: 0, Max: 0 },
    ],
    CategoryScores: [],
  });

  it("say so instead of drawing every case at 0", () => {
    for (const type of [
      "IndividualSurveyScores",
      "ScoreResultsOverTime",
      "ScorePlotPerPreQuestion",
      "CategoryWithActualAndMaxScores",
    ] as const) {
      const markup = html(<ChartView chart={base(type)} name={type} scored={false} />);
      expect(markup, type).toContain("Diese Umfrage hat keine Fragen mit Punktwertung.");
      expect(markup, type).not.toContain("<svg");
    }
    // A chart of counts draws as before.
    expect(html(<ChartView chart={base("SurveyResponsesOverTime")} name="Antworten" scored={false} />)).toContain(
      'role="img"',
    );
  });
});

describe("charts say what they show", () => {
  const empty: Chart = {
    Id: 1,
    ChartType: "AmountPerPreQuestion",
    PlotType: "BarChart",
    AttributeId: 5,
    QuestionId1: null,
    QuestionId2: null,
    Sort: 0,
    RangeEntries: [],
    RangeEntriesTotal: 0,
    ResponseCountsByDates: [],
    SurveyScoresByDates: [],
    AverageScoresByDates: [],
    ResponseCountsByPreQuestionOptions: [],
    ScorePlotByPreQuestionOptions: [],
    CategoryScores: [],
  };
  const text = (markup: string) => markup.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

  it("names the preliminary question on its axis, in its label and over its figures", () => {
    const chart: Chart = {
      ...empty,
      ResponseCountsByPreQuestionOptions: [
        { OptionId: 1, OptionText: "akut", Count: 26 },
        { OptionId: 2, OptionText: "chronisch", Count: 24 },
      ],
    };
    const markup = html(
      <ChartView chart={chart} name="Anzahl je Vorabfrage" scored names={{ preQuestion: "Art der Wunde" }} />,
    );
    expect(attr(markup, "svg", "aria-label")).toEqual([
      "Anzahl je Vorabfrage, Vorabfrage: Art der Wunde: 2 Werte; waagerecht: Art der Wunde; senkrecht: Abgeschlossene Befragungen (Anzahl)",
    ]);
    expect(markup).toContain(">Abgeschlossene Befragungen (Anzahl)</text>");
    expect(markup).toContain(">Art der Wunde</text>");
    expect(text(markup)).toContain("Nach Art der Wunde sortieren");
  });

  it("writes averages with a decimal comma and days as DD.MM.YYYY in German", () => {
    const chart: Chart = {
      ...empty,
      ChartType: "ScoreResultsOverTime",
      PlotType: "LineChart",
      AttributeId: null,
      AverageScoresByDates: [
        { Date: "2026-06-05", AverageScore: 1.5, Count: 2 },
        { Date: "2026-06-23", AverageScore: 0.25, Count: 4 },
      ],
    };
    const markup = html(<ChartView chart={chart} name="Punktzahlen im Zeitverlauf" scored />);
    expect(markup).toContain(">05.06.2026</text>");
    expect(markup).toContain(">Durchschnittliche Punktzahl (Punkte)</text>");
    expect(text(markup)).toContain("05.06.2026 1,5 2");
    expect(text(markup)).toContain("23.06.2026 0,25 4");
    expect(markup).not.toMatch(/>\d+\.\d+</);
  });

  it("draws a range as points on axes named after its questions and their units", () => {
    const chart: Chart = {
      ...empty,
      ChartType: "NumericalRange",
      PlotType: "LineChart",
      AttributeId: null,
      QuestionId1: 7,
      QuestionId2: 8,
      RangeEntries: [
        { PatientId: "W1", Question1Value: 12.5, Question2Value: 3 },
        { PatientId: "W2", Question1Value: 4, Question2Value: 7 },
      ],
      RangeEntriesTotal: 2,
    };
    const names = {
      question1: { Title: "Wundfläche", Unit: "cm²" },
      question2: { Title: "Schmerz beim Verbandwechsel (0–10)", Unit: null },
    };
    const markup = html(<ChartView chart={chart} name="Zahlenbereich" scored names={names} />);
    expect(markup).toContain(">Wundfläche (cm²)</text>");
    expect(markup).toContain(">Schmerz beim Verbandwechsel (0–10)</text>");
    expect(markup).not.toContain("<path");
    expect((markup.match(/<circle/g) ?? []).length).toBe(2);
    expect(text(markup)).toContain("W1 12,5 3");
  });
});
