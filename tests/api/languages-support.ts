import { expect } from "vitest";
import { translatableTexts } from "~/domain/content-languages";
import type { Survey } from "~/domain/survey";
import { read, type useStatisticsWorld } from "./statistics-support";

/**
 * The statistics fixture survey in three languages (docs/decisions/056-statistics-languages.md): German, its
 * source, and every text in Turkish and in Arabic (letters beyond Latin-1, and a right-to-left script), each
 * text's translation its own; cases P1 and P2 filled in Turkish, P3 in Arabic, the others in German.
 */

/** The Turkish and Arabic texts made of a German one: distinct for each text, with the scripts' letters. */
export const turkish = (source: string, i: number) => `Türkçe ${i}: ığüşöç İ ${source.length}`;
export const arabic = (source: string, i: number) => `عربي ${i}: سؤال ${source.length}`;

export const caseLanguages: Record<string, string | null> = {
  P1: "tr",
  P2: "tr",
  P3: "ar",
  P4: null,
  P5: null,
  P6: null,
};

/** Offers Turkish and Arabic on the fixture survey, translates every text and sets the cases' languages. */
export async function translateFixture(
  world: ReturnType<typeof useStatisticsWorld>["world"],
  surveyId: number,
  cases: Record<string, number>,
  /** Changes to the Draft before its texts are translated. */
  edit?: (call: ReturnType<typeof world>["call"]) => Promise<void>,
): Promise<Survey> {
  const w = world();
  const ok = async (res: Response) => expect(res.status, await res.text()).toBeLessThan(300);
  // Translations are written while the survey is a Draft (decision 054).
  await ok(await w.call("approver", "PUT", `/surveys/${surveyId}/change-status?newStatusId=1`));
  await edit?.(w.call);
  await ok(await w.call("editor", "PUT", `/surveys/${surveyId}`, { Languages: ["tr", "ar"] }));
  const survey: Survey = await read(await w.call("editor", "GET", `/surveys/${surveyId}`));
  const texts = translatableTexts(survey);
  for (const [lang, make] of [
    ["tr", turkish],
    ["ar", arabic],
  ] as const) {
    const body = { Texts: texts.map((t, i) => ({ Key: t.key, Text: make(t.source, i) })) };
    await ok(await w.call("editor", "PUT", `/surveys/${surveyId}/translations/${lang}`, body));
  }
  for (const [patient, language] of Object.entries(caseLanguages)) {
    await w.db.updateTable("patient_data").set({ language }).where("id", "=", cases[patient]).execute();
  }
  return read(await w.call("editor", "GET", `/surveys/${surveyId}`));
}
