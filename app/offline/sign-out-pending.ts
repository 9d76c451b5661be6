/**
 * A sign-out that could not reach the server (docs/decisions/048-shared-device.md, amended): without a
 * connection the device forgets the person's keys at once, but the session stays open on the server, and
 * the next person to open the app would work in it. The device keeps which person signed out (their holder
 * tag, not their id) until a page comes for someone else or for nobody; a page that still comes for that
 * person ends the session before anything of it runs, at once or when the connection is back.
 */
/** Local storage's key of the mark (signed-out.ts watches it). */
export const KEY = "sign-out-pending";

/** The tag of the person the page was drawn for, or "" for nobody. */
function pageHolder(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="offline-holder"]');
  return meta?.dataset.user ? meta.content : "";
}

/**
 * A sign-out without a connection: kept until the next page that comes for that person ends the session, or
 * a page comes for someone else or nobody. True when it is kept: the form is then not sent (it could not
 * arrive; the browser would show its own error page), the page says the person is signed out instead
 * (showSignedOut), and the sign-out goes once the connection is back.
 */
export function markSignOut(): boolean {
  const holder = pageHolder();
  if (navigator.onLine || !holder) return false;
  try {
    window.localStorage.setItem(KEY, holder);
  } catch {
    // Storage refused (private mode, full): the sign-out goes as before.
    return false;
  }
  window.addEventListener("online", endSession, { once: true });
  return true;
}

/** What the page says while a sign-out waits for the connection (sync.json, "signedOutOffline"). */
export interface SignedOutTexts {
  title: string;
  body: string;
}

/**
 * What a page shows and watches for a sign-out without a connection (signed-out.ts): its own small chunk,
 * kept offline with the others, loaded only when needed or once the page has loaded.
 */
export const signedOut = () => import("./signed-out");

/**
 * Sends the sign-out once; the person may sign in again right after it. Several of the person's pages may
 * come back online at once: one after the other (a lock of the browser's, where it has them), and only the
 * first one that still finds the mark sends it.
 */
function endSession(): void {
  const send = () => {
    if (localStorage.getItem(KEY) === null) return;
    localStorage.removeItem(KEY);
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/authentication/logout";
    document.body.append(form);
    form.submit();
  };
  if ("locks" in navigator) void navigator.locks.request(KEY, send);
  else send();
}

/**
 * At a page's start: true when the page was drawn for the person who signed out without a connection. Their
 * session is ended now (or once the connection is back) and the page must not start: the caller shows that
 * the person is signed out (showSignedOut).
 */
export function finishPendingSignOut(): boolean {
  let pending: string | null = null;
  try {
    pending = window.localStorage.getItem(KEY);
  } catch {
    return false;
  }
  if (!pending) return false;
  if (pending !== pageHolder()) {
    window.localStorage.removeItem(KEY);
    return false;
  }
  if (navigator.onLine) endSession();
  else window.addEventListener("online", endSession, { once: true });
  return true;
}
