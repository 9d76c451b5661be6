import { createStore, get, set, type UseStore } from "idb-keyval";

/**
 * The category last chosen on a fill page, per survey and patient (section 4), kept on this device.
 * IndexedDB rather than local storage: reading it never holds up the page's main thread while it starts.
 */
let store: UseStore | null = null;
function places(): UseStore {
  store ??= createStore("fill-places", "categories");
  return store;
}

const key = (surveyId: number, patientId: string) => `${surveyId}:${patientId}`;

/** The category last chosen for this case, if any (and none when storage cannot be read). */
export async function lastCategory(surveyId: number, patientId: string): Promise<number | undefined> {
  try {
    const id = await get<number>(key(surveyId, patientId), places());
    return typeof id === "number" ? id : undefined;
  } catch {
    return undefined;
  }
}

export async function rememberCategory(surveyId: number, patientId: string, categoryId: number): Promise<void> {
  try {
    await set(key(surveyId, patientId), categoryId, places());
  } catch {
    // Storage refused: the page then opens on its first category next time.
  }
}

export function resetLastCategoryStoreForTests() {
  store = null;
}
