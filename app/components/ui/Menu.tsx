import { useEffect, useRef, type ReactNode } from "react";

/**
 * A small action menu on details/summary: it opens and works without JavaScript; with it, it closes on
 * Escape, on a click outside and after an item was chosen.
 */
export function Menu({
  id,
  label,
  children,
  icon = "⋮",
}: {
  /** The menu button's id (for a skip link to it). */
  id?: string;
  label: string;
  children: ReactNode;
  icon?: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onDocClick = (event: MouseEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && details.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("click", onDocClick);
    details.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", onDocClick);
      details.removeEventListener("keydown", onKey);
    };
  }, []);
  return (
    <details className="menu" ref={ref}>
      <summary id={id} className="menu__button" title={label}>
        <span aria-hidden="true">{icon}</span>
      </summary>
      <div
        className="menu__panel"
        onClick={(event) => {
          if (!(event.target as HTMLElement).closest("a,button") || !ref.current) return;
          // The chosen item is hidden with the menu: focus goes back to the menu's button, so that a modal the
          // item opens gives it back there, and nothing drops it to the page's body.
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }}
      >
        {children}
      </div>
    </details>
  );
}
