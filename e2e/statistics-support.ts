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
