import { createStore, del, get, keys, set, type UseStore } from "idb-keyval";
import type { Survey, SurveyListEntry } from "~/domain/survey";

/**
 * Downloaded surveys (section 3, local offline storage): each survey under its id, and the "all" key
 * holding the survey list as last seen online, so the list can be shown (and filtered) offline.
 */
export const ALL_KEY = "all";

let store: UseStore | null = null;
function surveys(): UseStore {
  store ??= createStore("survey-offline", "surveys");
  return store;
}

export async function saveSurvey(survey: Survey): Promise<void> {
  await set(survey.Id, survey, surveys());
}

export function getSurvey(id: number): Promise<Survey | undefined> {
  return get<Survey>(id, surveys());
}

/** Forgets the stored copy of a survey. Unsynced fills of it stay where they are (a separate store). */
export async function removeSurvey(id: number): Promise<void> {
  await del(id, surveys());
}

export async function downloadedIds(): Promise<number[]> {
  const all = await keys(surveys());
  return all.filter((k): k is number => typeof k === "number");
}

export async function saveSurveyList(list: SurveyListEntry[]): Promise<void> {
  await set(ALL_KEY, list, surveys());
}

export async function getSurveyList(): Promise<SurveyListEntry[]> {
  return (await get<SurveyListEntry[]>(ALL_KEY, surveys())) ?? [];
}

/** Test support: a fresh store handle after the database was replaced. */
export function resetSurveyStoreForTests() {
  store = null;
}
