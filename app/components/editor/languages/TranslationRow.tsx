import { translationsApi } from "~/contracts/translations";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import {
  isRightToLeft,
  languageName,
  type ContentLanguage,
  type TranslatableText,
  type TranslationState,
} from "~/domain/content-languages";
import { Field } from "~/components/ui/Field";
import { useEditorMutation } from "../editor-api";
import { RichTextEditor } from "../richtext/RichTextEditor";
import { SaveStatus, saveChanged, saveOnItsWay, useAutosave } from "../saving";

const dirOf = (lang: string) => (isRightToLeft(lang) ? "rtl" : "ltr");

/**
 * One text beside its translation: the source (in its language and direction), the translation's field (in
 * the target language's), saved as it is typed like every field of the editor, and, where the source changed
 * since the translation was made, the mark and a way to confirm the translation as it is. A rich text (the
 * intro, the outro) is translated in the rich-text editor the intro and outro tabs use, beside its source as
 * it reads.
 */
export function TranslationRow({
  surveyId,
  sourceLang,
  lang,
  text,
  stored,
  state,
  readOnly,
}: {
  surveyId: number;
  sourceLang: ContentLanguage;
  lang: ContentLanguage;
  text: TranslatableText;
  stored: string;
  state: TranslationState;
  readOnly: boolean;
}) {
  const { t, i18n } = useTranslation();
  const mutate = useEditorMutation();
  const [value, setValue] = useState(stored);
  const saved = useRef(stored);
  const shown = useRef(stored);
  shown.current = value;
  const saveKey = `translation:${lang}:${text.key}`;
  /** Stores the text; gives it back as the server stored it (a rich text sanitized), or null when refused. */
  const store = async (next: string) => {
    const result = await mutate(translationsApi.put, {
      params: { id: surveyId, language: lang },
      body: { Texts: [{ Key: text.key, Text: next }] },
    });
    return result.ok ? (result.data.Translations[lang]?.[text.key]?.Text ?? "") : null;
  };
  const saving = useAutosave(text.html ? `${saveKey}:plain` : saveKey, (next: string) =>
    saveChanged(saved, next, async (value) => (await store(value)) !== null),
  );

  // The page's data after any save: shown unless something else was typed since the last save, or a save of
  // it is on its way.
  useEffect(() => {
    if (saveOnItsWay(saved)) return;
    const typedSince = shown.current !== saved.current;
    saved.current = stored;
    if (!typedSince) setValue(stored);
  }, [stored]);

  const id = `translation-${lang}-${text.key.replace(/:/g, "-")}`;
  const field = t(`languages.field.${text.label}`);
  const sourceName = languageName(sourceLang, i18n.language);
  const targetName = languageName(lang, i18n.language);
  const describedBy = [`${id}-source`, state === "review" ? `${id}-review` : null].filter(Boolean).join(" ");
  const control = {
    id,
    lang,
    dir: dirOf(lang),
    className: "input translation-row__target",
    value,
    disabled: readOnly,
    "aria-describedby": describedBy,
    onChange: (event: { target: { value: string } }) => {
      setValue(event.target.value);
      saving.change(event.target.value);
    },
    onBlur: () => void saving.flush(),
  };
  const stateMark =
    state !== "translated" ? (
      <span className={`translation-row__state translation-row__state--${state}`}>
        {t(state === "missing" ? "languages.stateMissing" : "languages.stateReview")}
      </span>
    ) : null;
  return (
    <li className={`translation-row translation-row--${state}`} data-testid={`translation-${text.key}`}>
      <div className="translation-row__source-part">
        <p className="translation-row__label" id={`${id}-source-label`}>
          {t("languages.sourceLabel", { field, language: sourceName })}
        </p>
        {text.html ? (
          <div
            id={`${id}-source`}
            className="translation-row__source"
            lang={sourceLang}
            dir={dirOf(sourceLang)}
            aria-labelledby={`${id}-source-label`}
            // The server sanitized the source as it stored it (rich-text.server.ts).
            dangerouslySetInnerHTML={{ __html: text.source }}
          />
        ) : (
          <p id={`${id}-source`} className="translation-row__source" lang={sourceLang} dir={dirOf(sourceLang)}>
            {text.source}
          </p>
        )}
      </div>
      <div className="translation-row__target-part">
        {text.html ? (
          <>
            <div className="field__head">
              <p id={`${id}-label`} className="translation-row__label">
                {t("languages.targetLabel", { field, language: targetName })}
              </p>
              {stateMark}
            </div>
            <RichTextEditor
              html={stored}
              editable={!readOnly}
              labelId={`${id}-label`}
              name={t("languages.targetLabel", { field, language: targetName })}
              describedBy={describedBy}
              lang={lang}
              dir={dirOf(lang)}
              saveKey={saveKey}
              testId={`${id}-save-state`}
              save={store}
              onChange={setValue}
            />
          </>
        ) : (
          <Field
            id={id}
            label={t("languages.targetLabel", { field, language: targetName })}
            aside={
              <>
                {stateMark}
                <SaveStatus state={saving.state} />
              </>
            }
            className="translation-row__field"
          >
            {text.multiline ? <textarea {...control} rows={3} /> : <input {...control} type="text" />}
          </Field>
        )}
        {state === "review" ? (
          <p id={`${id}-review`} className="translation-row__review">
            {t("languages.needsReview")}{" "}
            {!readOnly && value === stored ? (
              <button
                type="button"
                className="btn btn--small"
                onClick={() =>
                  void mutate(
                    translationsApi.put,
                    {
                      params: { id: surveyId, language: lang },
                      body: { Texts: [{ Key: text.key, Text: stored }] },
                    },
                    "languages.confirmed",
                  )
                }
              >
                {t("languages.confirm")}
              </button>
            ) : null}
          </p>
        ) : null}
      </div>
    </li>
  );
}
