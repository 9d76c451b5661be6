import { useCallback } from "react";
import { useTranslation } from "~/texts";
import { refusalKey, type ApiResult } from "~/api-client";
import { useToast, type ToastKind } from "~/components/ui/Toaster";

export type Refusal = Extract<ApiResult<unknown>, { ok: false }>;

export interface RefusalOptions {
  /** The caller's words for a refusal (a locale key); a lost network is still said as such. */
  key?: string;
  /** Said in a toast (the default), or only returned for the caller to show in place. */
  toast?: boolean;
}

interface Means {
  t: (key: string) => string;
  toast: (kind: ToastKind, text: string) => void;
  /** Opens a page of the app anew (the server draws the 401 and 403 pages). */
  open: (path: string) => void;
}

/**
 * The one way a page meets a refusal of the API. A lapsed session (401) and a missing right (403) open their
 * pages, which say what happened and how to go on; nothing is returned then, the page is leaving. Any other
 * refusal is put in words: a lost network as such, else the caller's key, else section 8's words for its type;
 * the words are said in a toast unless the caller shows them in place, and returned.
 */
export function meetRefusal(result: Refusal, means: Means, options: RefusalOptions = {}): string | null {
  if (result.status === 401 || result.status === 403) {
    means.open(`/${result.status}`);
    return null;
  }
  const words = means.t(result.type === "NETWORK" ? "errors.network" : (options.key ?? refusalKey(result)));
  if (options.toast !== false) means.toast("error", words);
  return words;
}

/** meetRefusal with the page's toasts, language and location. */
export function useRefusal() {
  const toast = useToast();
  const { t } = useTranslation();
  return useCallback(
    (result: Refusal, options?: RefusalOptions) =>
      meetRefusal(result, { t, toast, open: (path) => window.location.assign(path) }, options),
    [t, toast],
  );
}
