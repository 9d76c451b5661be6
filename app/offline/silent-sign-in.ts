/** Where a silent sign-in ends (app/routes/authentication.silent-done.tsx). */
const SILENT_DONE = "/authentication/silent-done";
const RENEW = "/authentication/silent-token-renew-callback";

/** How long the provider may take before the page falls back to a sign-in the person sees. */
export const SILENT_SIGN_IN_MS = 15_000;

/**
 * Signs in again without leaving the page: the sign-in runs in a hidden frame with prompt=none, so the
 * provider answers at once from its own session and never shows a page. Resolves true when the app has a
 * session again; false when the provider wants the person (no session there, terms, no access) or does
 * not answer in time. Nothing of the page, and nothing kept on the device, is touched.
 */
export function silentSignIn(timeoutMs = SILENT_SIGN_IN_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.tabIndex = -1;
    frame.setAttribute("aria-hidden", "true");
    let done = false;
    const finish = (ok: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      frame.remove();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    // Each page the frame reaches fires "load". The outcome is read from the app's own page when the frame
    // may read it, and otherwise asked of the server (behind a proxy the provider may send the frame to
    // the app's public address, which the page cannot read).
    frame.addEventListener("load", async () => {
      try {
        const here = new URL(frame.contentWindow?.location.href ?? "");
        if (here.pathname === SILENT_DONE) return finish(here.searchParams.get("ok") === "1");
      } catch {
        // Another origin: ask the server below.
      }
      const res = await fetch(RENEW, { credentials: "same-origin", cache: "no-store" }).catch(() => null);
      if (res?.ok) finish(true);
    });
    frame.src = `/authentication/login?prompt=none&returnTo=${encodeURIComponent(`${SILENT_DONE}?ok=1`)}`;
    document.body.append(frame);
  });
}
