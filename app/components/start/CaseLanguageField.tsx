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
  if (languages.length < 2) return null;
  return (
    <Field id="case-language" label={t("start.language")} hint={t("start.languageHint")} hintId="case-language-hint">
      {(control) => (
        <select
          {...control}
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
