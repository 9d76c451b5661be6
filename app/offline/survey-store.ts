import { del, keys } from "idb-keyval";
import type { Survey, SurveyListEntry } from "~/domain/survey";
import { personStore, sealedGet, sealedSet } from "./sealed";
import { currentHolder, requireHolder, type Holder } from "./vault";

/**
 * Surveys the holder downloaded (section 3, local offline storage; decision 048): each survey under its id,
 * and the "all" key holding the survey list as last seen online, so the list can be shown (and filtered)
 * offline. Sealed, in the holder's own store: another person of the device neither reads nor opens them.
 */
export const ALL_KEY = "all";

const surveys = (holder: Holder) => personStore(holder, "surveys");

export async function saveSurvey(survey: Survey): Promise<void> {
  const holder = await requireHolder();
  await sealedSet(holder, surveys(holder), survey.Id, survey);
}

export async function getSurvey(id: number): Promise<Survey | undefined> {
  const holder = await currentHolder();
  return holder ? sealedGet<Survey>(holder, surveys(holder), id) : undefined;
}

/** Forgets the stored copy of a survey. Unsynced fills of it stay where they are (a separate store). */
export async function removeSurvey(id: number): Promise<void> {
  const holder = await currentHolder();
  if (holder) await del(id, surveys(holder));
}

export async function downloadedIds(): Promise<number[]> {
  const holder = await currentHolder();
  if (!holder) return [];
  const all = await keys(surveys(holder));
  return all.filter((k): k is number => typeof k === "number");
}

export async function saveSurveyList(list: SurveyListEntry[]): Promise<void> {
  const holder = await currentHolder();
  if (holder) await sealedSet(holder, surveys(holder), ALL_KEY, list);
}

export async function getSurveyList(): Promise<SurveyListEntry[]> {
  const holder = await currentHolder();
  return (holder && (await sealedGet<SurveyListEntry[]>(holder, surveys(holder), ALL_KEY))) ?? [];
}
