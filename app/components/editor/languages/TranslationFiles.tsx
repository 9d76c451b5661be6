import { translationsApi } from "~/contracts/translations";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { Field } from "~/components/ui/Field";
import { useToast } from "~/components/ui/Toaster";
import {
  asContentLanguage,
  languageName,
  MAX_TRANSLATION_TEXTS,
  type ContentLanguage,
} from "~/domain/content-languages";
import type { Survey } from "~/domain/survey";
import {
  exportCsv,
  exportXliff,
  importPlan,
  isRefusal,
  readTranslationCsv,
  readXliff,
  translationFileName,
  type FileRefusal,
  type ImportChange,
} from "~/domain/translation-files";
import { useEditorMutation } from "../editor-api";
import { textPlace } from "./place";

/** Keys a refusal names, at most. */
const NAMED = 5;

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A language's translations as a file for translators (XLIFF 2.0, CSV) and back: an import shows what it
 * would change and is applied only when confirmed; a file for another survey or language, or with keys the
 * survey does not have, is refused with the reason.
 */
export function TranslationFiles({
  survey,
  lang,
  readOnly,
}: {
  survey: Survey;
  lang: ContentLanguage;
  readOnly: boolean;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const mutate = useEditorMutation();
  const input = useRef<HTMLInputElement>(null);
  const previewTitle = useRef<HTMLHeadingElement>(null);
  const [plan, setPlan] = useState<{ changes: ImportChange[] } | null>(null);
  const [refusal, setRefusal] = useState<FileRefusal | null>(null);
  const [applying, setApplying] = useState(false);
  const id = `translation-file-${lang}`;
  // A preview just read takes focus once it is drawn (an effect of its render, not a frame that may come first).
  const focusPreview = useRef(false);
  useEffect(() => {
    if (!plan || !focusPreview.current) return;
    focusPreview.current = false;
    previewTitle.current?.focus();
  }, [plan]);

  const read = async (file: File) => {
    const text = await file.text();
    const xml =
      /\.(xlf|xliff|xml)$/i.test(file.name) ||
      text
        .replace(/^\uFEFF/, "")
        .trimStart()
        .startsWith("<");
    const parsed = xml ? readXliff(text) : readTranslationCsv(text);
    const planned = isRefusal(parsed) ? parsed : importPlan(survey, lang, parsed);
    if (isRefusal(planned)) {
      setRefusal(planned);
      setPlan(null);
    } else {
      setRefusal(null);
      focusPreview.current = true;
      setPlan(planned);
    }
  };

  const apply = async () => {
    if (!plan) return;
    setApplying(true);
    const texts = plan.changes.map((c) => ({ Key: c.text.key, Text: c.after }));
    let ok = true;
    for (let i = 0; i < texts.length && ok; i += MAX_TRANSLATION_TEXTS) {
      const result = await mutate(translationsApi.put, {
        params: { id: survey.Id, language: lang },
        body: { Texts: texts.slice(i, i + MAX_TRANSLATION_TEXTS) },
      });
      ok = result.ok;
    }
    setApplying(false);
    if (ok) {
      toast("success", t("languages.files.imported", { count: texts.length }));
      setPlan(null);
      if (input.current) input.current.value = "";
      input.current?.focus();
    }
  };

  /** A language by its name in the page's language, a code the app does not know as it is. */
  const nameOf = (code: string) => {
    const known = asContentLanguage(code);
    return known ? languageName(known, i18n.language) : code;
  };

  const refusalText = (r: FileRefusal) => {
    switch (r.kind) {
      case "unreadable":
        return t("languages.files.refusal.unreadable", { detail: r.detail });
      case "otherSurvey":
        return t("languages.files.refusal.otherSurvey", { file: r.surveyId, survey: survey.Id });
      case "otherSource":
        return t("languages.files.refusal.otherSource", {
          language: nameOf(r.lang),
          survey: nameOf(survey.SourceLanguage),
        });
      case "otherLanguage":
        return t("languages.files.refusal.otherLanguage", { language: nameOf(r.lang), chosen: nameOf(lang) });
      case "unknownKeys":
        return t("languages.files.refusal.unknownKeys", {
          count: r.keys.length,
          keys: r.keys.slice(0, NAMED).join(", ") + (r.keys.length > NAMED ? ", …" : ""),
        });
      default:
        return t(`languages.files.refusal.${r.kind}`);
    }
  };

  return (
    <section className="translation-files" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="translation-group__title">
        {t("languages.files.title")}
      </h3>
      <p className="field__hint">{t("languages.files.hint")}</p>
      <div className="translation-files__actions">
        <button
          type="button"
          className="btn"
          onClick={() =>
            download(translationFileName(survey, lang, "xliff"), exportXliff(survey, lang), "application/xliff+xml")
          }
        >
          {t("languages.files.exportXliff")}
        </button>
        <button
          type="button"
          className="btn"
          onClick={() =>
            download(translationFileName(survey, lang, "csv"), exportCsv(survey, lang), "text/csv;charset=utf-8")
          }
        >
          {t("languages.files.exportCsv")}
        </button>
      </div>
      {readOnly ? null : (
        <Field id={id} label={t("languages.files.import")}>
          <input
            ref={input}
            id={id}
            type="file"
            accept=".xlf,.xliff,.xml,.csv,application/xliff+xml,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void read(file);
            }}
          />
        </Field>
      )}
      {refusal ? (
        <div role="alert" className="field__error" data-testid="translation-import-refused">
          {t("languages.files.refused")} {refusalText(refusal)}
        </div>
      ) : null}
      {plan ? (
        <div className="translation-files__preview" data-testid="translation-import-preview">
          <h4 ref={previewTitle} tabIndex={-1} className="field__label">
            {t("languages.files.previewTitle")}
          </h4>
          <p>
            {plan.changes.length === 0
              ? t("languages.files.nothing")
              : t("languages.files.preview", { count: plan.changes.length })}
          </p>
          {plan.changes.length > 0 ? (
            <ul>
              {plan.changes.map((c) => (
                <li key={c.text.key}>
                  <span>{textPlace(t, c.text)}</span>: <span lang={lang}>{c.after}</span>{" "}
                  <span className="field__hint">
                    ({t("languages.files.before")}:{" "}
                    {c.before ? <span lang={lang}>{c.before}</span> : t("languages.files.none")})
                  </span>
                  {c.sourceChanged ? <span className="field__hint"> {t("languages.files.sourceChanged")}</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="translation-files__actions">
            {plan.changes.length > 0 ? (
              <button type="button" className="btn btn--primary" disabled={applying} onClick={() => void apply()}>
                {t("languages.files.apply")}
              </button>
            ) : null}
            <button
              type="button"
              className="btn"
              onClick={() => {
                setPlan(null);
                input.current?.focus();
              }}
            >
              {t("languages.files.discard")}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
