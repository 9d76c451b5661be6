/**
 * A sign-out that could not reach the server (docs/decisions/048-shared-device.md, amended): without a
 * connection the device forgets the person's keys at once, but the session stays open on the server, and
 * the next person to open the app would work in it. The device keeps which person signed out (their holder
 * tag, not their id) until a page comes for someone else or for nobody; a page that still comes for that
 * person ends the session before anything of it runs, at once or when the connection is back.
 */
const KEY = "sign-out-pending";

/** The tag of the person the page was drawn for, or "" for nobody. */
function pageHolder(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="offline-holder"]');
  return meta?.dataset.user ? meta.content : "";
}

/**
 * Before the sign-out's form is sent without a connection: kept until the next page that comes for that
 * person ends the session, or a page comes for someone else or nobody.
 */
export function markSignOut(): void {
  const holder = pageHolder();
  if (navigator.onLine || !holder) return;
  try {
    window.localStorage.setItem(KEY, holder);
  } catch {
    // Storage refused (private mode, full): the sign-out goes as before.
  }
}

/** Sends the sign-out once; the person may sign in again right after it. */
function endSession(): void {
  window.localStorage.removeItem(KEY);
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/authentication/logout";
  document.body.append(form);
  form.submit();
}

/**
 * At a page's start: true when the page was drawn for the person who signed out without a connection. Their
 * session is ended now (or once the connection is back) and the page must not start.
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
