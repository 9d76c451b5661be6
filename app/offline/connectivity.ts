import { useSyncExternalStore } from "react";

/**
 * Whether the app is online, as the browser's events and the app's own failed requests say.
 * A failed request can put the app offline before the browser notices.
 */
let online = true;
const listeners = new Set<() => void>();

function set(next: boolean) {
  if (next === online) return;
  online = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1 && typeof window !== "undefined") {
    online = navigator.onLine;
    window.addEventListener("online", onOnline);
    window.addEventListener("offline", onOffline);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== "undefined") {
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    }
  };
}

const onOnline = () => set(true);
const onOffline = () => set(false);

/** Call when a request failed without a response: the app goes offline until the next success. */
export function reportNetworkError() {
  set(false);
}

export function reportOnline() {
  set(true);
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => online,
    () => true,
  );
}
