import type { TFunction } from "~/i18n";
import { useMemo, useState } from "react";
import { useTranslation } from "~/texts";
import {
  translatableTexts,
  translationState,
  type ContentLanguage,
  type TranslatableText,
} from "~/domain/content-languages";
import type { Survey } from "~/domain/survey";
import { Choice } from "~/components/ui/Field";
import { TranslationFiles } from "./TranslationFiles";
import { TranslationRow } from "./TranslationRow";

interface Group {
  key: string;
  heading: string;
  texts: TranslatableText[];
}

const START_KEYS = new Set(["Title", "Description", "IntroText"]);

/** The texts in reading order, grouped as the editor's tabs hold them: start, preliminary questions, each category, end. */
function groupsOf(texts: TranslatableText[], t: TFunction): Group[] {
  const groups: Group[] = [];
  const into = (key: string, heading: string, text: TranslatableText) => {
    const last = groups.at(-1);
    if (last?.key === key) last.texts.push(text);
    else groups.push({ key, heading, texts: [text] });
  };
  let category: { key: string; heading: string } | null = null;
  for (const text of texts) {
    if (text.tab === "start") {
      const start = START_KEYS.has(text.key);
      into(start ? "start" : "end", t(start ? "languages.group.start" : "languages.group.end"), text);
    } else if (text.tab === "patientForm") {
      into("patientForm", t("languages.group.patientForm"), text);
    } else {
      if (text.kind === "category") {
        category = { key: text.key, heading: t("languages.group.category", { title: text.source }) };
      }
      into(category?.key ?? "questionnaire", category?.heading ?? t("editor.tab.questionnaire"), text);
    }
  }
  return groups;
}

/**
 * Every translatable text of the survey beside its translation into `lang`, grouped by where it stands; with
 * the filter on, only those missing or to review (and those that were when it was switched on, so that a
 * text does not vanish while it is being typed).
 */
export function TranslationList({
  survey,
  lang,
  readOnly,
}: {
  survey: Survey;
  lang: ContentLanguage;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const texts = useMemo(() => translatableTexts(survey), [survey]);
  const stored = survey.Translations[lang] ?? {};
  const states = new Map(texts.map((text) => [text.key, translationState(survey, lang, text)]));
  const open = texts.filter((text) => states.get(text.key) !== "translated");
  const [onlyOpen, setOnlyOpen] = useState<ReadonlySet<string> | null>(null);
  const shown = onlyOpen
    ? texts.filter((text) => onlyOpen.has(text.key) || states.get(text.key) !== "translated")
    : texts;
  const groups = groupsOf(shown, t);
  const filterId = `translation-filter-${lang}`;

  return (
    <div className="translation-list">
      <TranslationFiles survey={survey} lang={lang} readOnly={readOnly} />
      <Choice id={filterId} label={t("languages.onlyOpen")}>
        <input
          id={filterId}
          type="checkbox"
          checked={onlyOpen !== null}
          onChange={(event) => setOnlyOpen(event.target.checked ? new Set(open.map((text) => text.key)) : null)}
        />
      </Choice>
      <p role="status" className="field__hint" data-testid="translation-open-count">
        {texts.length === 0
          ? t("languages.noTexts")
          : open.length === 0
            ? t("languages.allDone")
            : t("languages.openCount", { count: open.length })}
      </p>
      {groups.map((group) => (
        <section key={group.key} className="translation-group" aria-label={group.heading}>
          <h3 className="translation-group__title">{group.heading}</h3>
          <ul className="translation-group__list">
            {group.texts.map((text) => (
              <TranslationRow
                key={text.key}
                surveyId={survey.Id}
                sourceLang={survey.SourceLanguage}
                lang={lang}
                text={text}
                stored={stored[text.key]?.Text ?? ""}
                state={states.get(text.key)!}
                readOnly={readOnly}
              />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
