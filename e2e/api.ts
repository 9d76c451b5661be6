import type { Page } from "@playwright/test";

/** Calls the survey API from the signed-in page (session cookie, same origin). */
export async function api<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/api${p}`, {
        method: m,
        headers: b === undefined ? {} : { "content-type": "application/json" },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      if (!res.ok) throw new Error(`${m} ${p}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? null : res.json();
    },
    [method, path, body] as const,
  ) as Promise<T>;
}

/** A published survey with one category of the given questions (made by someone with both roles). */
export async function publishedSurvey(
  page: Page,
  title: string,
  questions: { Title: string; Type: string; answers?: string[]; exit?: string; attachments?: boolean }[],
  settings?: Record<string, unknown>,
) {
  const survey = await api<{ Id: number }>(page, "POST", "/surveys", { Title: title });
  const category = await api<{ Id: number }>(page, "POST", "/categories", { SurveyId: survey.Id, Title: "Teil 1" });
  for (const q of questions) {
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
  if (settings) await api(page, "PUT", `/surveys/${survey.Id}`, settings);
  await api(page, "POST", `/surveys/${survey.Id}/approve`);
  return survey.Id;
}
