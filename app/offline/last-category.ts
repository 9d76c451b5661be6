import type { FillPage } from "~/domain/fill-pages";
import { personStore, sealedGet, sealedSet } from "./sealed";
import { currentHolder, nameOf } from "./vault";

/**
 * Where a case was left on this device, per survey and patient (section 4; decision 019): the page, and
 * the category last chosen. IndexedDB rather than local storage: reading it never holds up the page's main
 * thread while it starts. Sealed in the holder's own store, under a name made of the case (decision 048).
 */

export interface KeptPlace {
  page?: FillPage;
  categoryId?: number;
}

/** The place this case was left at, if any (and none when storage cannot be read). */
export async function lastPlace(surveyId: number, patientId: string): Promise<KeptPlace | undefined> {
  try {
    const holder = await currentHolder();
    if (!holder) return undefined;
    const kept = await sealedGet<unknown>(
      holder,
      personStore(holder, "places"),
      await nameOf(holder, surveyId, patientId),
    );
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
    const holder = await currentHolder();
    if (holder)
      await sealedSet(holder, personStore(holder, "places"), await nameOf(holder, surveyId, patientId), place);
  } catch {
    // Storage refused: the case then opens where its answers say (decision 019).
  }
}
