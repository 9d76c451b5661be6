/**
 * Runs `run` once the page has loaded and the browser is idle (or at the latest `timeout` ms after load):
 * work that can wait (keeping copies for offline use, the service worker's warm-up) does not compete with
 * the page starting. Returns a function that cancels it if it has not run yet.
 */
export function afterLoad(run: () => void, timeout = 2000): () => void {
  let cancelled = false;
  const once = () => {
    if (!cancelled) run();
  };
  const idle = () => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(once, { timeout });
    else setTimeout(once, 0);
  };
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener("load", idle);
  };
}
