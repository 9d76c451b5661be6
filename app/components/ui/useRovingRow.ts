import { useEffect, useRef, type KeyboardEvent } from "react";

const CONTROLS = "a[href], button, summary, input, select, textarea";

/**
 * The controls of a row, in order: those of the row itself, not of a row or an open menu inside it, nor one
 * that cannot take focus now (disabled, or not drawn).
 */
export function rowControls(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(CONTROLS)].filter(
    (el) =>
      el.closest("[data-row]") === row &&
      !el.closest(".menu__panel") &&
      !el.matches(":disabled") &&
      el.getClientRects().length > 0,
  );
}

/** Where a key moves within a row of `count` controls from `at`; undefined for a key that does not move. */
export function rowMove(key: string, at: number, count: number): number | undefined {
  if (count === 0 || at < 0) return undefined;
  if (key === "ArrowRight") return (at + 1) % count;
  if (key === "ArrowLeft") return (at - 1 + count) % count;
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return undefined;
}

/**
 * One Tab stop for a row of controls, as in WAI-ARIA's toolbar: Tab reaches the row once, at the control used
 * last (the first to begin with), and Left, Right, Home and End move between its controls. A list of rows is
 * then passed in as many Tabs as it has rows, not as it has controls. Without JavaScript every control keeps
 * its own stop. The row is the element `ref` is given to, marked `data-row`; a picked-up drag handle keeps its
 * arrow keys. The row is a toolbar named `label` while it has controls (`active`).
 */
export function useRovingRow<T extends HTMLElement>(label: string, active = true) {
  const ref = useRef<T>(null);
  const current = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const apply = () => {
      const controls = rowControls(row);
      const at = current.current && controls.includes(current.current) ? current.current : controls[0];
      for (const control of controls) {
        const tabIndex = control === at ? 0 : -1;
        if (control.tabIndex !== tabIndex) control.tabIndex = tabIndex;
      }
    };
    const onFocus = (event: FocusEvent) => {
      if (!rowControls(row).includes(event.target as HTMLElement)) return;
      current.current = event.target as HTMLElement;
      apply();
    };
    apply();
    // Controls come and go with the row's state (a move button at the list's ends, a disabled one).
    const watch = new MutationObserver(apply);
    watch.observe(row, { childList: true, subtree: true, attributes: true, attributeFilter: ["disabled", "hidden"] });
    row.addEventListener("focusin", onFocus);
    return () => {
      watch.disconnect();
      row.removeEventListener("focusin", onFocus);
    };
  }, []);

  const onKeyDown = (event: KeyboardEvent<T>) => {
    const target = event.target as HTMLElement;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    // A drag handle that holds its item moves it with the arrow keys.
    if (target.getAttribute("aria-pressed") === "true" && target.hasAttribute("aria-roledescription")) return;
    const controls = rowControls(event.currentTarget);
    const to = rowMove(event.key, controls.indexOf(target), controls.length);
    if (to === undefined) return;
    event.preventDefault();
    controls[to]?.focus();
  };

  return {
    ref,
    onKeyDown,
    "data-row": "",
    role: active ? "toolbar" : undefined,
    "aria-label": active ? label : undefined,
  };
}
