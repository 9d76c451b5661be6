import { useEffect, useRef, type ReactNode } from "react";

/**
 * A small action menu on details/summary: it opens and works without JavaScript; with it, it closes on
 * Escape, on a click outside and after an item was chosen.
 */
export function Menu({ label, children, icon = "⋮" }: { label: string; children: ReactNode; icon?: ReactNode }) {
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
      <summary className="menu__button" title={label}>
        <span aria-hidden="true">{icon}</span>
      </summary>
      <div
        className="menu__panel"
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a,button") && ref.current) ref.current.open = false;
        }}
      >
        {children}
      </div>
    </details>
  );
}
