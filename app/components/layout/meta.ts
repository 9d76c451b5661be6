import type { MetaArgs } from "@remix-run/node";
import { fillLocales } from "~/domain/case-language";
import { asContentLanguage, isRightToLeft } from "~/domain/languages";
import { translate } from "~/i18n";

/** The document title "<page> · <app>", in the page's language (from the root loader). */
export function pageTitle(matches: MetaArgs["matches"], key: string, vars?: Record<string, string>) {
  const root = matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  return [{ title: titleText(root?.locale, key, vars) }];
}

function titleText(locale: string | undefined, key: string, vars?: Record<string, string>): string {
  return `${translate(locale, key, vars)} · ${translate(locale, "app.name")}`;
}

/**
 * The fill page's title: the survey's title as the page shows it, in the case's language, and the words around
 * it in the staff's (`locale`). A right-to-left title is isolated, so that the words around it keep their order.
 */
export function fillPageTitle(locale: string | undefined, surveyTitle: string, language: string | undefined): string {
  const title = language && isRightToLeft(language) ? `\u2068${surveyTitle}\u2069` : surveyTitle;
  return titleText(locale, "fill.pageTitle", { title });
}

/**
 * A patient's link page's title (decision 057): in the language the page speaks (its data's `language`), on
 * its own, without the staff's app name; in the staff's language where the page names none.
 */
export function linkPageTitle(matches: MetaArgs["matches"], key: string) {
  const spoken = (matches.at(-1)?.data as { language?: unknown } | undefined)?.language;
  const language = typeof spoken === "string" ? asContentLanguage(spoken) : null;
  if (!language) return pageTitle(matches, key);
  return [{ title: translate(fillLocales[language], key) }];
}
