import { createStore, get, set, type UseStore } from "idb-keyval";
import type { FillPage } from "~/domain/fill-pages";

/**
 * Where a case was left on this device, per survey and patient (section 4; decision 019): the page, and
 * the category last chosen. IndexedDB rather than local storage: reading it never holds up the page's main
 * thread while it starts. Earlier versions kept the category alone (a number); it still reads.
 */
let store: UseStore | null = null;
function places(): UseStore {
  store ??= createStore("fill-places", "categories");
  return store;
}

export interface KeptPlace {
  page?: FillPage;
  categoryId?: number;
}

const key = (surveyId: number, patientId: string) => `${surveyId}:${patientId}`;

/** The place this case was left at, if any (and none when storage cannot be read). */
export async function lastPlace(surveyId: number, patientId: string): Promise<KeptPlace | undefined> {
  try {
    const kept = await get<unknown>(key(surveyId, patientId), places());
    if (typeof kept === "number") return { categoryId: kept };
    if (!kept || typeof kept !== "object") return undefined;
    const { page, categoryId } = kept as KeptPlace;
    return {
      ...(typeof page === "string" ? { page } : {}),
      ...(typeof categoryId === "number" ? { categoryId } : {}),
    };
  } catch {
    return undefined;
  }
}

export async function rememberPlace(surveyId: number, patientId: string, place: KeptPlace): Promise<void> {
  try {
    await set(key(surveyId, patientId), place, places());
  } catch {
    // Storage refused: the case then opens where its answers say (decision 019).
  }
}

export function resetLastCategoryStoreForTests() {
  store = null;
}
