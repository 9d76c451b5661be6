import { useEffect, useLayoutEffect, type RefObject } from "react";

/** A layout effect in the browser; the server, which runs none, is not asked (React warns there). */
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Once, as the page starts: hands `take` the server-drawn control a person may have typed into, ticked or
 * picked from before the page's script ran (the scripts start after the first paint, decision 059), so that
 * the page goes on with what the person sees and not with the state it was drawn with. It runs in the commit
 * that hydrates the page, before the browser handles another event: no click meets the page in between.
 */
export function useGivenBeforeStart<T extends HTMLElement>(control: RefObject<T>, take: (control: T) => void) {
  useBrowserLayoutEffect(() => {
    if (control.current) take(control.current);
  }, []);
}
