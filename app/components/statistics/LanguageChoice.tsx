import { Link } from "@remix-run/react";
import { createContext, useContext } from "react";
import { useTranslation } from "~/texts";
import { useTabHash } from "~/components/ui/HashTabs";
import { isRightToLeft, languageName, type ContentLanguage } from "~/domain/content-languages";
import { viewHref, type StatisticsView } from "~/domain/statistics-view";

/**
 * The language of the survey's labels on the statistics (docs/decisions/056-statistics-languages.md): one link
 * per language the survey has, so the choice is in the address (a bookmark opens it again) and it works
 * without JavaScript; the chosen one is marked as current. Each language is named in its own language.
 */
export function LanguageChoice({
  view,
  languages,
}: {
  view: StatisticsView;
  languages: { chosen: ContentLanguage; offered: ContentLanguage[]; source: ContentLanguage };
}) {
  const { t } = useTranslation();
  const hash = useTabHash();
  if (languages.offered.length < 2) return null;
  return (
    <nav className="stats-languages" aria-label={t("statistics.language.label")}>
      <span className="stats-languages__label" aria-hidden="true">
        {t("statistics.language.label")}
      </span>
      <ul className="stats-languages__list">
        {languages.offered.map((lang) => {
          const name = languageName(lang, lang);
          const current = lang === languages.chosen;
          return (
            <li key={lang}>
              <Link
                to={`${viewHref(view, { language: lang })}${hash}`}
                preventScrollReset
                replace
                aria-current={current ? "true" : undefined}
                className={`stats-languages__option${current ? " stats-languages__option--on" : ""}`}
              >
                <span lang={lang} dir={isRightToLeft(lang) ? "rtl" : undefined}>
                  {name}
                </span>
                {lang === languages.source ? (
                  <span className="stats-languages__note"> ({t("statistics.language.source")})</span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The language of the survey's labels on the page, for the elements that show them (their lang and dir). */
export const LabelLanguage = createContext<ContentLanguage | null>(null);

/** lang and dir for an element that shows one of the survey's labels, so a screen reader reads it in its language. */
export function useLabelLanguage(): { lang?: string; dir?: "rtl" | "ltr" } {
  const lang = useContext(LabelLanguage);
  return lang ? { lang, dir: isRightToLeft(lang) ? "rtl" : "ltr" } : {};
}
