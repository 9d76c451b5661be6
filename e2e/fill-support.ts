import { expect, type Page } from "@playwright/test";
import { api } from "./api";

export interface QuestionSpec {
  Title: string;
  Type: string;
  answers?: string[];
  /** The answer that ends the survey. */
  exit?: string;
  attachments?: boolean;
}

/**
 * A published survey with an optional intro, optional preliminary questions and categories of questions
 * (made by someone with both roles).
 */
export async function surveyWith(
  page: Page,
  title: string,
  parts: {
    intro?: string;
    /** `exit`: the entry that ends the survey. */
    preliminary?: { Title: string; answers: string[]; exit?: string }[];
    categories: { Title: string; questions: QuestionSpec[] }[];
    /** Before it is published (a draft's texts, its languages and translations). */
    prepare?: (surveyId: number) => Promise<void>;
  },
) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  await api(page, "PUT", `/surveys/${survey.Id}`, {
    IntroText: parts.intro ? `<p>${parts.intro}</p>` : "",
    IsPatientFormEnabled: (parts.preliminary?.length ?? 0) > 0,
  });
  for (const p of parts.preliminary ?? []) {
    await api(page, "POST", "/patient-attributes", {
      SurveyId: survey.Id,
      Title: p.Title,
      Enabled: true,
      AnswerOptions: p.answers.map((Text) => ({ Text, IsExitAnswer: Text === p.exit })),
    });
  }
  for (const c of parts.categories) {
    const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: c.Title });
    for (const q of c.questions) {
      const created = await api<{ Id: number }>(page, "POST", "/questions", {
        SurveyId: survey.Id,
        CategoryId: category.Id,
        Title: q.Title,
        Type: q.Type,
        AllowFileAttachments: q.attachments ?? false,
      });
      for (const text of q.answers ?? []) {
        await api(page, "POST", "/answer-options", {
          SurveyId: survey.Id,
          QuestionId: created.Id,
          Text: text,
          IsExitAnswer: text === q.exit,
        });
      }
    }
  }
  await parts.prepare?.(survey.Id);
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}

export function question(page: Page, title: string) {
  return page.getByTestId("fill-question").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** Opens the start page and starts (or reopens) the case of this patient id, with or without JavaScript. */
export async function openCase(page: Page, surveyId: number, patientId: string) {
  await page.goto(`/survey/${surveyId}`);
  await page
    .getByLabel(/Patienten|Patient ID/)
    .first()
    .fill(patientId);
  await page.getByRole("button", { name: /Neue Umfrage starten|Umfrage öffnen|Start new survey|Open survey/ }).click();
  await expect(page).toHaveURL(new RegExp(`/fill/${patientId}`));
}

/** The answers the server holds for a case. */
export function serverAnswers(page: Page, surveyId: number, patientId: string) {
  return api<{ QuestionId: number; DateTimeResponse?: string; TextResponse?: string }[]>(
    page,
    "GET",
    `/question-responses/?surveyId=${surveyId}&patientId=${patientId}`,
  );
}

/** Nothing is wider than the viewport. */
export async function expectNoOverflow(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
}
