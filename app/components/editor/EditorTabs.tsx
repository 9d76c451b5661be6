import { useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";

export const editorTabs = ["start", "intro", "preliminary", "questionnaire", "outro"] as const;
export type EditorTab = (typeof editorTabs)[number];

/** The tab named by the URL hash; #start when there is none (section 2). */
export function tabOf(hash: string): EditorTab {
  const name = hash.replace(/^#/, "");
  return (editorTabs as readonly string[]).includes(name) ? (name as EditorTab) : "start";
}

/**
 * Tabs by URL hash: bookmarkable, and back/forward move between them. Without JavaScript all panels are
 * on the page and the tab links jump to them; with it, only the chosen one shows.
 */
export function EditorTabs({
  hydrated,
  marks,
  panels,
}: {
  hydrated: boolean;
  marks: Partial<Record<EditorTab, boolean>>;
  panels: Record<EditorTab, ReactNode>;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const active = tabOf(location.hash);
  return (
    <div className="tabs">
      <div role={hydrated ? "tablist" : undefined} className="tabs__list" aria-label={t("editor.tabs")}>
        {editorTabs.map((tab) => (
          <a
            key={tab}
            href={`#${tab}`}
            role={hydrated ? "tab" : undefined}
            id={`tab-${tab}`}
            aria-selected={hydrated ? active === tab : undefined}
            aria-controls={hydrated ? `panel-${tab}` : undefined}
            className={`tabs__tab${hydrated && active === tab ? " tabs__tab--active" : ""}`}
          >
            {t(`editor.tab.${tab}`)}
            {marks[tab] ? (
              <span className="tabs__mark" title={t("editor.missingQuestions")}>
                *<span className="visually-hidden"> {t("editor.missingQuestions")}</span>
              </span>
            ) : null}
          </a>
        ))}
      </div>
      {editorTabs.map((tab) => (
        <section
          key={tab}
          id={hydrated ? `panel-${tab}` : tab}
          role={hydrated ? "tabpanel" : undefined}
          aria-labelledby={`tab-${tab}`}
          hidden={hydrated && active !== tab}
          className="tabs__panel"
        >
          {!hydrated ? <h2 className="tabs__panel-title">{t(`editor.tab.${tab}`)}</h2> : null}
          {panels[tab]}
        </section>
      ))}
    </div>
  );
}
