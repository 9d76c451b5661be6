import { callApi } from "~/api-client";
import { surveysApi } from "~/contracts/surveys";
import { useCallback, useEffect, useState } from "react";
import { canFill } from "~/domain/start-state";
import type { SurveyListEntry } from "~/domain/survey";
import { requestPersistence } from "./persistence";
import { downloadedIds, getSurvey, removeSurvey, saveSurvey } from "./survey-store";

const EVENT = "offline:downloads";
const changed = () => window.dispatchEvent(new Event(EVENT));

/**
 * Stores an Active survey on the device with its latest open cases (to continue them offline, decision 038)
 * and has the service worker keep its pages (section 2).
 */
export async function downloadSurvey(id: number): Promise<void> {
  const result = await callApi(surveysApi.get, { params: { id } });
  if (!result.ok) throw new Error(`survey ${id}: ${result.status || result.type}`);
  const survey = result.data;
  if (!canFill(survey)) throw new Error(`survey ${id} cannot be filled`);
  const before = await getSurvey(id);
  await saveSurvey(survey);
  void requestPersistence();
  try {
    // The survey is there even when a case could not be read: it can still be filled offline.
    // Loaded when first needed, not with the list's page.
    await import("./case-download").then((m) => m.keepLatestCases(id)).catch(() => undefined);
    // The service worker's side loads when it is first needed, not with every page.
    await import("./sw.client").then((sw) => sw.warmOffline([id]));
  } catch (error) {
    // A first download whose pages could not all be kept is not offered as ready: its pages would not open
    // offline. A survey kept before stays, with the pages kept then.
    if (!before) await dropCopy(id).catch(() => undefined);
    throw error;
  } finally {
    changed();
  }
}

async function dropCopy(id: number): Promise<void> {
  await removeSurvey(id);
  await import("./case-copies").then((m) => m.dropCaseCopies(id)).catch(() => undefined);
}

export async function forgetSurvey(id: number): Promise<void> {
  await dropCopy(id);
  await import("./sw.client").then((sw) => sw.forgetOffline([id]));
  changed();
}

/**
 * Keeps the stored copies in step with the full list seen online: a changed Active survey is stored
 * again, one no longer Active (unpublished, ended) or gone loses its copy. Unsynced fills stay.
 */
export async function refreshCopies(list: SurveyListEntry[]): Promise<void> {
  const byId = new Map(list.map((s) => [s.Id, s]));
  for (const id of await downloadedIds()) {
    const entry = byId.get(id);
    if (!entry || !canFill(entry)) await forgetSurvey(id);
    else if (entry.Hash !== (await getSurvey(id))?.Hash) await downloadSurvey(id).catch(() => undefined);
  }
}

/** The downloaded survey ids and the downloads in progress, for the survey list. */
export function useDownloads() {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    const load = () => void downloadedIds().then((list) => setIds(new Set(list)));
    load();
    window.addEventListener(EVENT, load);
    return () => window.removeEventListener(EVENT, load);
  }, []);
  const download = useCallback(async (id: number) => {
    setBusy((b) => new Set(b).add(id));
    try {
      await downloadSurvey(id);
      return true;
    } catch {
      return false;
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(id);
        return next;
      });
    }
  }, []);
  return { ids, busy, download };
}
