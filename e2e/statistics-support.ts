import type { Page } from "@playwright/test";
import { api, publishedSurvey } from "./api";

/** Four closed cases with known answers (and one file), so that every figure below is known. */
export async function surveyWithCases(page: Page, title: string, answers: ("Ja" | "Nein")[]) {
  const id = await publishedSurvey(page, title, [
    { Title: "Zufrieden?", Type: "SingleSelection", answers: ["Ja", "Nein"] },
    { Title: "Kommentar", Type: "FreeText", attachments: true },
    { Title: "Gewicht", Type: "Numerical" },
  ]);
  const survey = await api<{
    Categories: { Questions: { Id: number; Title: string; AnswerOptions: { Id: number; Text: string }[] }[] }[];
  }>(page, "GET", `/surveys/${id}`);
  const questions = survey.Categories[0].Questions;
  const q = (t: string) => questions.find((x) => x.Title === t)!;
  for (const [i, answer] of answers.entries()) {
    const patient = `S${id}_${i + 1}`;
    const added = await api<{ PatientDataId: number }>(
      page,
      "POST",
      `/patients/add?patientId=${patient}&surveyId=${id}`,
    );
    const base = { SurveyId: id, PatientId: patient };
    const option = q("Zufrieden?").AnswerOptions.find((o) => o.Text === answer)!.Id;
    await api(page, "POST", "/question-responses/single-selection", {
      ...base,
      QuestionId: q("Zufrieden?").Id,
      AnswerOptionId: option,
    });
    await api(page, "POST", "/question-responses/free-text", {
      ...base,
      QuestionId: q("Kommentar").Id,
      TextResponse: i % 2 ? "gut versorgt" : "lange gewartet",
    });
    await api(page, "POST", "/question-responses/numerical", {
      ...base,
      QuestionId: q("Gewicht").Id,
      NumericalResponse: 70 + i * 10,
    });
    if (i === 0) {
      await page.evaluate(
        async ([questionId, patientDataId, surveyId]) => {
          const form = new FormData();
          form.append("files", new File(["Befundtext"], "befund.txt", { type: "text/plain" }));
          const res = await fetch(
            `/api/file-attachments/upload?questionId=${questionId}&patientDataId=${patientDataId}&surveyId=${surveyId}`,
            { method: "POST", body: form },
          );
          if (!res.ok) throw new Error(`upload: ${res.status}`);
        },
        [q("Kommentar").Id, added.PatientDataId, id] as const,
      );
    }
    await api(page, "POST", `/patients/close?patientId=${patient}&surveyId=${id}`);
  }
  return id;
}

interface Built {
  Id: number;
  Title: string;
  AnswerOptions: { Id: number; Text: string }[];
}

/**
 * A survey with what makes the statistics screen wide: long answers and titles, a preliminary question, a
 * scored category, a multiple selection, free texts with a long word, two numbers and a date-time, and
 * six closed cases answering all of it; its dashboard holds every chart type, the choosing ones chosen.
 */
export async function wideSurvey(page: Page, title: string) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const id = survey.Id;
  await api(page, "PUT", `/surveys/${id}`, { IsPatientFormEnabled: true, TargetNumberOfResponses: 120 });
  const attribute = await api<Built>(page, "POST", "/patient-attributes/", {
    SurveyId: id,
    Title: "Versorgungssituation zu Hause",
    AnswerOptions: [{ Text: "lebt allein ohne Unterstützung" }, { Text: "mit Angehörigen oder Pflegedienst" }],
  });
  const scored = await api<{ Id: number }>(page, "POST", "/categories", {
    SurveyId: id,
    Title: "Beschwerden und Belastbarkeit im Alltag",
  });
  const other = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: id, Title: "Verlauf" });
  const question = async (CategoryId: number, Title: string, Type: string, extra: Record<string, unknown> = {}) =>
    api<Built>(page, "POST", "/questions", { SurveyId: id, CategoryId, Title, Type, ...extra });
  const options = async (q: Built, texts: string[], correct?: string) => {
    for (const Text of texts) {
      const o = await api<{ Id: number }>(page, "POST", "/answer-options", {
        SurveyId: id,
        QuestionId: q.Id,
        Text,
        ...(correct ? { WeightingState: Text === correct ? 1 : 0, ...(Text === correct ? { Weight: 2 } : {}) } : {}),
      });
      q.AnswerOptions.push({ Id: o.Id, Text });
    }
    return q;
  };
  const breath = await options(
    await question(
      scored.Id,
      "Wie stark ist die Atemnot bei alltäglicher Belastung, etwa beim Treppensteigen?",
      "SingleSelection",
      {
        IsTestQuestion: true,
      },
    ),
    [
      "keine Atemnot, auch nicht beim Treppensteigen",
      "leichte Atemnot erst nach zwei Stockwerken",
      "starke Atemnot schon in Ruhe",
    ],
    "keine Atemnot, auch nicht beim Treppensteigen",
  );
  const symptoms = await options(
    await question(scored.Id, "Welche Beschwerden traten in den letzten vier Wochen auf?", "MultipleSelection"),
    ["Wassereinlagerungen in den Beinen", "nächtlicher Husten", "Schwindel beim Aufstehen", "keine"],
  );
  const note = await question(other.Id, "Weitere Beobachtungen der Pflegekraft", "FreeText");
  const weight = await question(other.Id, "Körpergewicht am Morgen", "Numerical", { Unit: "kg" });
  const pressure = await question(other.Id, "Systolischer Blutdruck im Sitzen", "Numerical", { Unit: "mmHg" });
  const when = await question(other.Id, "Zeitpunkt der letzten Kontrolle", "DateTime");
  await api(page, "POST", `/surveys/${id}/approve`);

  const texts = [
    "Patientin berichtet über zunehmende Belastungsdyspnoe und Herzinsuffizienzverlaufskontrolldokumentationsbedarf",
    "keine Auffälligkeiten",
  ];
  for (let i = 0; i < 6; i++) {
    const PatientId = `W${id}_${i + 1}`;
    const base = { SurveyId: id, PatientId };
    await api(page, "POST", `/patients/add?patientId=${PatientId}&surveyId=${id}`);
    await api(page, "POST", "/attribute-responses", {
      ...base,
      PatientFormAttributeId: attribute.Id,
      PatientFormAnswerOptionId: attribute.AnswerOptions[i % 2].Id,
    });
    const answer = (path: string, body: Record<string, unknown>) =>
      api(page, "POST", `/question-responses/${path}`, { ...base, ...body });
    await answer("single-selection", { QuestionId: breath.Id, AnswerOptionId: breath.AnswerOptions[i % 3].Id });
    await answer("multiple-selection", {
      QuestionId: symptoms.Id,
      AnswerOptionIds: symptoms.AnswerOptions.slice(0, 1 + (i % 3)).map((o) => o.Id),
    });
    await answer("free-text", { QuestionId: note.Id, TextResponse: texts[i % 2] });
    await answer("numerical", { QuestionId: weight.Id, NumericalResponse: 70.5 + i * 3.25 });
    await answer("numerical", { QuestionId: pressure.Id, NumericalResponse: 120 + i * 7 });
    await answer("date-time", { QuestionId: when.Id, DateTimeResponse: `1${i}.0${1 + i}.2025 09:30` });
    await api(page, "POST", `/patients/close?patientId=${PatientId}&surveyId=${id}`);
  }

  const dashboard = await api<{ Id: number; Charts: { Id: number; ChartType: string }[] }>(
    page,
    "POST",
    `/statistics-dashboards/get-by-survey-id/${id}`,
    { Filters: {} },
  );
  const types = [
    "SurveyResponsesOverTime",
    "IndividualSurveyScores",
    "ScoreResultsOverTime",
    "AmountPerPreQuestion",
    "ScorePlotPerPreQuestion",
    "CategoryWithActualAndMaxScores",
    "NumericalRange",
    "DateTimeRange",
  ];
  const added = await api<{ Charts: { Id: number; ChartType: string }[] }>(
    page,
    "POST",
    `/statistics-dashboards/${dashboard.Id}/charts/add`,
    { ChartAddRequests: types.map((ChartType) => ({ ChartType })) },
  );
  for (const chart of added.Charts) {
    const choice = chart.ChartType.endsWith("PreQuestion")
      ? { AttributeId: attribute.Id }
      : chart.ChartType === "NumericalRange"
        ? { QuestionId1: weight.Id, QuestionId2: pressure.Id }
        : null;
    if (choice)
      await api(page, "POST", `/statistics-dashboards/${dashboard.Id}/charts/update/${chart.Id}`, {
        ...choice,
        Filters: {},
      });
  }
  return { id, note: note.Title };
}

/** The demo data's surveys (a new installation's, app/server/services/demo-surveys.server.ts), archived ones too. */
export const DEMO_TITLES = [
  "Herzinsuffizienz – Verlaufsbogen",
  "Post-operative Pain Assessment",
  "Patientenzufriedenheit Station 3A",
  "Sturzrisiko-Screening",
  "Medikationsabgleich (alt)",
  "Wundverlauf – Dokumentation",
  "Wundverlauf – Dokumentation (Station B)",
  "Befinden im Krankenhaus (mehrsprachig)",
];

interface Listed {
  Id: number;
  Title: string;
}

/** The demo surveys, in the order of DEMO_TITLES (archived ones too). */
export async function demoSurveys(page: Page): Promise<Listed[]> {
  const listed = [
    ...(await api<{ Data: Listed[] }>(page, "GET", "/surveys")).Data,
    ...(await api<{ Data: Listed[] }>(page, "GET", "/surveys?Archived=true")).Data,
  ];
  return DEMO_TITLES.flatMap((title) => listed.filter((s) => s.Title === title).slice(0, 1));
}

type DemoDashboard = {
  Id: number;
  Charts: { Id: number; ChartType: string }[];
  Choices: Record<"NumericalQuestions" | "DateTimeQuestions" | "PreliminaryQuestions", { Id: number }[]>;
};

/**
 * Every chart type added to a survey's dashboard, the choosing ones chosen where the survey offers a choice;
 * `remove` takes them off again (the demo surveys' dashboards start empty).
 */
export async function everyChart(page: Page, surveyId: number) {
  const dashboard = await api<DemoDashboard>(page, "POST", `/statistics-dashboards/get-by-survey-id/${surveyId}`, {
    Filters: {},
  });
  const added = await api<DemoDashboard>(page, "POST", `/statistics-dashboards/${dashboard.Id}/charts/add`, {
    ChartAddRequests: [
      "SurveyResponsesOverTime",
      "IndividualSurveyScores",
      "ScoreResultsOverTime",
      "AmountPerPreQuestion",
      "ScorePlotPerPreQuestion",
      "CategoryWithActualAndMaxScores",
      "NumericalRange",
      "DateTimeRange",
    ].map((ChartType) => ({ ChartType })),
  });
  const [number1, number2] = dashboard.Choices.NumericalQuestions;
  const [date1, date2] = dashboard.Choices.DateTimeQuestions;
  const attribute = dashboard.Choices.PreliminaryQuestions[0];
  const fresh = added.Charts.filter((c) => !dashboard.Charts.some((d) => d.Id === c.Id));
  for (const chart of fresh) {
    const choice = chart.ChartType.endsWith("PreQuestion")
      ? attribute && { AttributeId: attribute.Id }
      : chart.ChartType === "NumericalRange"
        ? number2 && { QuestionId1: number1.Id, QuestionId2: number2.Id }
        : chart.ChartType === "DateTimeRange"
          ? date2 && { QuestionId1: date1.Id, QuestionId2: date2.Id }
          : undefined;
    if (choice)
      await api(page, "POST", `/statistics-dashboards/${dashboard.Id}/charts/update/${chart.Id}`, {
        ...choice,
        Filters: {},
      });
  }
  return {
    count: added.Charts.length,
    remove: async () => {
      for (const chart of fresh) await api(page, "DELETE", `/statistics-dashboards/${dashboard.Id}/charts/${chart.Id}`);
    },
  };
}
