import { useRef } from "react";
import { useGivenBeforeStart } from "~/components/ui/useGivenBeforeStart";
import { useTranslation } from "~/texts";
import { Field } from "~/components/ui/Field";
import { languageName, type ContentLanguage } from "~/domain/languages";

export interface CaseLanguageChoice {
  languages: readonly ContentLanguage[];
  value: ContentLanguage;
  onChange: (language: ContentLanguage) => void;
}

/**
 * The language a new case is filled in (docs/decisions/055-fill-languages.md): the survey's languages, each
 * named in its own language. Sent with the start form; the fill page can switch it later.
 */
export function CaseLanguageField({ languages, value, onChange }: CaseLanguageChoice) {
  const { t } = useTranslation();
  const select = useRef<HTMLSelectElement>(null);
  // A language picked before the page's script ran is the one the page goes on with.
  useGivenBeforeStart(select, (picked) => {
    const shown = languages.find((lang) => lang === picked.value);
    if (shown && shown !== value) onChange(shown);
  });
  if (languages.length < 2) return null;
  return (
    <Field id="case-language" label={t("start.language")} hint={t("start.languageHint")} hintId="case-language-hint">
      {(control) => (
        <select
          {...control}
          ref={select}
          name="language"
          className="input start-form__language"
          value={value}
          onChange={(e) => onChange(e.target.value as ContentLanguage)}
          data-testid="case-language"
        >
          {languages.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {languageName(lang, lang)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
