import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from "react";
import { defaultCulture } from "~/domain/culture";
import { currentPageLanguage, listenToPageLanguage, textsOf, type TFunction } from "~/i18n";

/**
 * The texts a part of the page speaks: its language and its `t` (docs/decisions/066-own-texts.md). The page's
 * own, in the staff's language, and inside a fill region those of the case's language (FillLanguage).
 */
export interface Texts {
  readonly language: string;
  readonly t: TFunction;
}

/** The staff's texts of a language: German's stand in for any the language lacks. */
export function staffTexts(language: string): Texts {
  return { language, t: textsOf(language, defaultCulture) };
}

const TextsContext = createContext<Texts>(staffTexts(defaultCulture));

export function TextsProvider({ texts, children }: { texts: Texts; children: ReactNode }) {
  return <TextsContext.Provider value={texts}>{children}</TextsContext.Provider>;
}

/** The texts around a component: `const { t, i18n } = useTranslation()`, `i18n.language` its language. */
export function useTranslation(): { t: TFunction; i18n: Texts } {
  const texts = useContext(TextsContext);
  return { t: texts.t, i18n: texts };
}

/** The page's texts in the browser, from the language it started in and following each switch. */
export function PageTexts({ language, children }: { language: string; children: ReactNode }) {
  const current = useSyncExternalStore(
    listenToPageLanguage,
    () => currentPageLanguage() ?? language,
    () => language,
  );
  const texts = useMemo(() => staffTexts(current), [current]);
  return <TextsProvider texts={texts}>{children}</TextsProvider>;
}
