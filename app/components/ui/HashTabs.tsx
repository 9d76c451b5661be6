import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { restartTabOrder } from "~/components/layout/page-focus";
import { useHydrated } from "./useHydrated";

/** The tab named by the URL hash; the first tab when there is none or it names no tab. */
export function tabOf<T extends string>(hash: string, tabs: readonly T[]): T {
  const name = hash.replace(/^#/, "");
  return (tabs as readonly string[]).includes(name) ? (name as T) : tabs[0];
}

/**
 * The URL's hash (the chosen tab) once the page runs, for links and forms that should come back to the same
 * tab. The server never sees a hash, so until the page is hydrated there is none (the same markup on both).
 */
export function useTabHash(): string {
  const hydrated = useHydrated();
  const { hash } = useLocation();
  return hydrated ? hash : "";
}

/**
 * Without JavaScript every panel is on the page, under its title (the rules of `.tabs--static` undone). No ">"
 * in it: the server writes a style element's text escaped.
 */
const WITHOUT_SCRIPTS = ".tabs--static .tabs__panel,.tabs--static .tabs__panel-title{display:block!important}";

/**
 * Tabs by URL hash: bookmarkable, and back/forward move between them. Without JavaScript all panels are
 * on the page and the tab links jump to them; with it, only the chosen one shows, also while the page's
 * scripts are still on their way (the panel the address names, by its id, is the one `:target` finds).
 */
export function HashTabs<T extends string>({
  tabs,
  label,
  titleKey,
  hydrated,
  marks = {},
  markTitle,
  panels,
}: {
  tabs: readonly T[];
  /** Accessible name of the tab list. */
  label: string;
  /** Translation key of a tab's title, from its name. */
  titleKey: (tab: T) => string;
  hydrated: boolean;
  marks?: Partial<Record<T, boolean>>;
  markTitle?: string;
  panels: Record<T, ReactNode>;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const active = tabOf(location.hash, tabs);
  const list = useRef<HTMLDivElement>(null);

  // Loaded with a tab's hash, the browser jumped to that panel before the page came alive (without
  // JavaScript the panels follow one another): the page starts at its top, with its title and actions, and so
  // does the Tab key.
  useEffect(() => {
    if (!hydrated || !(tabs as readonly string[]).includes(location.hash.slice(1))) return;
    window.scrollTo({ top: 0 });
    restartTabOrder();
    // Only as the page comes alive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated]);

  // On a narrow screen the tab list scrolls sideways: the chosen tab is kept in view.
  useEffect(() => {
    const box = list.current;
    const tab = box?.querySelector<HTMLElement>(`#tab-${active}`);
    if (!box || !tab) return;
    const within = box.getBoundingClientRect();
    const place = tab.getBoundingClientRect();
    if (place.left < within.left) box.scrollLeft -= within.left - place.left;
    else if (place.right > within.right) box.scrollLeft += place.right - within.right;
  }, [active]);

  return (
    <div className={hydrated ? "tabs" : "tabs tabs--static"}>
      <div ref={list} role={hydrated ? "tablist" : undefined} className="tabs__list" aria-label={label}>
        {tabs.map((tab) => (
          <a
            key={tab}
            href={`#${tab}`}
            role={hydrated ? "tab" : undefined}
            id={`tab-${tab}`}
            aria-selected={hydrated ? active === tab : undefined}
            aria-controls={hydrated ? `panel-${tab}` : undefined}
            className={`tabs__tab${hydrated && active === tab ? " tabs__tab--active" : ""}`}
            // Through the router, not the browser's own jump: a page that guards unsaved work (a blocker)
            // cannot follow a hash change made behind the router's back, and the tab would not change.
            onClick={(event) => {
              if (!hydrated || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              navigate({ hash: `#${tab}` }, { preventScrollReset: true });
            }}
          >
            {t(titleKey(tab))}
            {marks[tab] ? (
              <span className="tabs__mark" title={markTitle}>
                *<span className="visually-hidden"> {markTitle}</span>
              </span>
            ) : null}
          </a>
        ))}
      </div>
      {tabs.map((tab) => (
        <section
          key={tab}
          id={hydrated ? `panel-${tab}` : tab}
          role={hydrated ? "tabpanel" : undefined}
          aria-labelledby={`tab-${tab}`}
          hidden={hydrated && active !== tab}
          className="tabs__panel"
        >
          {!hydrated ? <h2 className="tabs__panel-title">{t(titleKey(tab))}</h2> : null}
          {panels[tab]}
        </section>
      ))}
      {hydrated ? null : (
        <noscript>
          <style>{WITHOUT_SCRIPTS}</style>
        </noscript>
      )}
    </div>
  );
}
