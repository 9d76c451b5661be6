import { useEffect } from "react";
import { reportNetworkError, reportOnline } from "~/offline/connectivity";

/** Ask the server to renew the access token this often while a page is open (tokens live 5 minutes). */
export const RENEW_EVERY_MS = 4 * 60_000;

/**
 * Keeps the sign-in alive while a page stays open: the server renews the tokens it holds. A lapsed
 * session goes to the 401 page; a failed request only marks the app offline.
 */
export function useSilentRenew(signedIn: boolean) {
  useEffect(() => {
    if (!signedIn) return;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const res = await fetch("/authentication/silent-token-renew-callback", { credentials: "same-origin" });
        if (res.status === 401) {
          window.location.assign("/401");
          return;
        }
        reportOnline();
      } catch {
        reportNetworkError();
      }
      timer = setTimeout(tick, RENEW_EVERY_MS);
    };
    timer = setTimeout(tick, RENEW_EVERY_MS);
    return () => clearTimeout(timer);
  }, [signedIn]);
}
