import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import { titleMatches } from "~/domain/title-search";
import type { SurveyListEntry } from "~/domain/survey";
import { reportNetworkError } from "./connectivity";
import { refreshCopies } from "./downloads";
import { isNetworkError } from "./network";
import { cachedUser } from "./root-cache";
import { downloadedIds, getSurvey, getSurveyList, saveSurveyList } from "./survey-store";

interface ListData {
  me: { fullName: string; institute: string; roles: string[] };
  surveys: SurveyListEntry[];
  q: string;
  confirm: { kind: string; id: number; title: string } | null;
  /** Built on this device: never kept again as the list. */
  local?: true;
}

/**
 * The list as kept on this device: the list last seen online, and every survey stored here that it lacks
 * (stored from its fill page, or before the list was first kept), so a stored survey is never missing.
 */
export async function keptList(): Promise<SurveyListEntry[]> {
  const [list, ids] = await Promise.all([getSurveyList(), downloadedIds()]);
  const known = new Set(list.map((s) => s.Id));
  const stored = await Promise.all(ids.filter((id) => !known.has(id)).map((id) => getSurvey(id)));
  return [...list, ...stored.filter((s) => s !== undefined)];
}

/**
 * The survey list's client loader: online, the full list is kept for offline use and the stored copies
 * follow it; offline, the kept list is shown and the title filter runs on the device.
 */
export async function listClientLoader<T extends ListData>({ request, serverLoader }: ClientLoaderFunctionArgs) {
  const q = new URL(request.url).searchParams.get("q")?.slice(0, 200) ?? "";
  try {
    const loaded = await serverLoader<T>();
    if (!q) void saveSurveyList(loaded.surveys).then(() => refreshCopies(loaded.surveys).catch(() => undefined));
    return loaded;
  } catch (error) {
    const user = isNetworkError(error) ? await cachedUser() : null;
    if (!user) throw error;
    reportNetworkError();
    const surveys = (await keptList()).filter((s) => titleMatches(s.Title, q));
    return { me: user, surveys, q, confirm: null, local: true } as ListData as T;
  }
}

/**
 * The list a page was drawn with (its client loader does not run as it starts) is kept too, once the page
 * has loaded: a list opened as a document is then there offline when the app navigates to it.
 */
export function keepDrawnList(data: Pick<ListData, "surveys" | "q" | "local">) {
  if (!data.q && !data.local) void saveSurveyList(data.surveys).catch(() => undefined);
}
