import { useSyncExternalStore } from "react";

const never = () => () => undefined;

/**
 * False while the server renders and the page hydrates; true once JavaScript runs the page. A page reached
 * later in the app is drawn hydrated from its first render: drawn once without its scripts' parts first, it
 * would not yet have the heading the move to it focuses (the editor's title is a plain field until then).
 */
export function useHydrated() {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
