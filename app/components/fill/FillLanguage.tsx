import { createContext, useMemo, type ReactNode } from "react";
import { isRightToLeft, type ContentLanguage } from "~/domain/languages";
import { ToastLanguageContext } from "~/components/ui/Toaster";
import { TextsProvider, useTranslation } from "~/texts";
import { fillTexts } from "./fill-texts";

/** The language of the fill region around (its texts' and its answers'), or null outside one. */
export const RegionLanguage = createContext<ContentLanguage | null>(null);

/**
 * The fill page's region in the case's language (docs/decisions/055-fill-languages.md): its words come from
 * that language's fill words, and it says its language and direction (`lang`, `dir`), right to left for
 * Arabic. The page around it (the header, the sync) stays in the staff's language. Should the language's
 * words not have come, the page's own words stand in.
 */
export function FillLanguage({
  lang,
  words,
  className,
  label,
  children,
}: {
  lang: ContentLanguage;
  /** Whose words the region says: a content language's fill words (`lang`'s unless named), or null: the page's. */
  words?: ContentLanguage | null;
  className?: string;
  label?: string;
  children: ReactNode;
}) {
  const { i18n } = useTranslation();
  const own = words === null ? null : fillTexts(words ?? lang);
  // A toast raised in the region says its words, in their language: the case's words' where they came.
  const spoken = own ? (words ?? lang) : null;
  const toastLanguage = useMemo(
    () => (spoken ? { lang: spoken, dir: isRightToLeft(spoken) ? ("rtl" as const) : ("ltr" as const) } : null),
    [spoken],
  );
  return (
    <TextsProvider texts={own ?? i18n}>
      <ToastLanguageContext.Provider value={toastLanguage}>
        <RegionLanguage.Provider value={lang}>
          <section
            className={className}
            aria-label={label}
            lang={lang}
            dir={isRightToLeft(lang) ? "rtl" : "ltr"}
            data-testid="fill-region"
          >
            {children}
          </section>
        </RegionLanguage.Provider>
      </ToastLanguageContext.Provider>
    </TextsProvider>
  );
}

const MARK = "\u0000";

/**
 * A text whose named values (a patient id, a date) read left to right in every language: each in a `<bdi
 * dir="ltr">` of its own, the words around them in the text's direction. What the text says is unchanged.
 */
export function LtrValues({ text }: { text: (mark: (value: string) => string) => string }) {
  const values: string[] = [];
  const marked = text((value) => `${MARK}${values.push(value) - 1}${MARK}`);
  const parts = marked.split(MARK);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <bdi key={i} dir="ltr">
            {values[Number(part)]}
          </bdi>
        ) : (
          part
        ),
      )}
    </>
  );
}
