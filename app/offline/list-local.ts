import type { ClientLoaderFunctionArgs } from "@remix-run/react";
import type { SurveyListEntry } from "~/domain/survey";
import { reportNetworkError } from "./connectivity";
import { refreshCopies } from "./downloads";
import { isNetworkError } from "./network";
import { cachedUser } from "./root-cache";
import { getSurveyList, saveSurveyList } from "./survey-store";

interface ListData {
  me: { fullName: string; institute: string; roles: string[] };
  surveys: SurveyListEntry[];
  q: string;
  confirm: { kind: string; id: number; title: string } | null;
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
    const user = isNetworkError(error) ? cachedUser() : null;
    if (!user) throw error;
    reportNetworkError();
    const needle = q.toLocaleLowerCase();
    const surveys = (await getSurveyList()).filter((s) => s.Title.toLocaleLowerCase().includes(needle));
    return { me: user, surveys, q, confirm: null } as ListData as T;
  }
}
