import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { Choice, Field } from "~/components/ui/Field";
import { useHydrated } from "~/components/ui/useHydrated";
import {
  contentLanguages,
  languageName,
  translatableTabs,
  translationProgress,
  type ContentLanguage,
} from "~/domain/content-languages";
import type { EditorTabProps } from "../types";
import { useSavedField } from "../start/useSavedField";
import { TranslationList } from "./TranslationList";

const sameList = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

/**
 * The languages tab (docs/decisions/054-content-languages.md): the survey's source language, the languages
 * its texts are offered in, how far each translation is, and the texts side by side with their translations.
 */
export function LanguagesTab({ survey, editable }: EditorTabProps) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const readOnly = !editable || !hydrated;
  const source = useSavedField(survey.Id, "SourceLanguage", survey.SourceLanguage);
  const offered = useSavedField(survey.Id, "Languages", survey.Languages, sameList);
  const name = (lang: ContentLanguage) => languageName(lang, i18n.language);
  const choice = (lang: ContentLanguage) =>
    lang === i18n.language.slice(0, 2)
      ? name(lang)
      : t("languages.languageChoice", { name: name(lang), own: languageName(lang, lang) });

  const [current, setCurrent] = useState<ContentLanguage | null>(survey.Languages[0] ?? null);
  useEffect(() => {
    if (current === null || !survey.Languages.includes(current)) setCurrent(survey.Languages[0] ?? null);
  }, [current, survey.Languages]);

  const toggle = (lang: ContentLanguage, on: boolean) => {
    const next = contentLanguages.filter((l) => l !== source.value && (l === lang ? on : offered.value.includes(l)));
    void offered.save(next);
  };

  return (
    <div className="languages-tab">
      <p className="languages-tab__intro">{t("languages.intro")}</p>
      {!editable ? <p className="notice">{t("languages.readOnly")}</p> : null}

      <Field id="survey-source-language" label={t("languages.source")} hint={t("languages.sourceHint")}>
        {(control) => (
          <select
            {...control}
            className="input"
            value={source.value}
            disabled={readOnly}
            onChange={(event) => void source.save(event.target.value as ContentLanguage)}
          >
            {contentLanguages.map((lang) => (
              <option key={lang} value={lang} lang={lang}>
                {choice(lang)}
              </option>
            ))}
          </select>
        )}
      </Field>

      <fieldset className="choice-list" aria-describedby="survey-languages-hint">
        <legend className="field__label">{t("languages.offered")}</legend>
        <p id="survey-languages-hint" className="field__hint">
          {t("languages.offeredHint")}
        </p>
        {contentLanguages
          .filter((lang) => lang !== source.value)
          .map((lang) => (
            <Choice key={lang} id={`survey-language-${lang}`} label={choice(lang)}>
              <input
                id={`survey-language-${lang}`}
                type="checkbox"
                checked={offered.value.includes(lang)}
                disabled={readOnly}
                onChange={(event) => toggle(lang, event.target.checked)}
              />
            </Choice>
          ))}
      </fieldset>

      <section aria-labelledby="languages-progress-title" className="languages-tab__progress">
        <h2 id="languages-progress-title" className="field__label">
          {t("languages.progressTitle")}
        </h2>
        {survey.Languages.length === 0 ? (
          <p>{t("languages.noLanguages")}</p>
        ) : (
          <table className="table" data-testid="translation-progress">
            <caption className="visually-hidden">{t("languages.progressCaption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("languages.language")}</th>
                <th scope="col">{t("languages.overall")}</th>
                {translatableTabs.map((tab) => (
                  <th scope="col" key={tab}>
                    {t(`languages.area.${tab}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {survey.Languages.map((lang) => {
                const progress = translationProgress(survey, lang);
                const cell = (count: typeof progress.overall) =>
                  `${t("languages.count", { translated: count.translated, total: count.total })}${count.review ? `, ${t("languages.review", { count: count.review })}` : ""}`;
                return (
                  <tr key={lang} data-testid={`progress-${lang}`}>
                    <th scope="row" lang={lang}>
                      {languageName(lang, lang)}
                    </th>
                    <td>{cell(progress.overall)}</td>
                    {translatableTabs.map((tab) => (
                      <td key={tab}>{cell(progress.byTab[tab])}</td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </section>

      {current ? (
        <section aria-labelledby="languages-translate-title" className="languages-tab__translate">
          <h2 id="languages-translate-title" className="field__label">
            {t("languages.translateTitle")}
          </h2>
          {survey.Languages.length > 1 ? (
            <Field id="translate-into" label={t("languages.translateInto")}>
              {(control) => (
                <select
                  {...control}
                  className="input"
                  value={current}
                  onChange={(event) => setCurrent(event.target.value as ContentLanguage)}
                >
                  {survey.Languages.map((lang) => (
                    <option key={lang} value={lang} lang={lang}>
                      {choice(lang)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          <TranslationList key={current} survey={survey} lang={current} readOnly={readOnly} />
        </section>
      ) : null}
    </div>
  );
}
