import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { Field } from "~/components/ui/Field";
import { useHydrated } from "~/components/ui/useHydrated";
import { languageName, type ContentLanguage } from "~/domain/languages";

export interface LanguageChoice {
  /** The case's languages: the survey's source language and those it offers. */
  languages: readonly ContentLanguage[];
  current: ContentLanguage;
  /** With JavaScript: switches at once, keeping the page as it is. */
  onSwitch: (language: ContentLanguage) => void;
  busy?: boolean;
}

/**
 * The fill header's language switch (docs/decisions/055-fill-languages.md): a list of the case's languages,
 * each named in its own language, and a button that switches. Choosing in the list changes nothing by itself
 * (arrow keys only move through it). Without JavaScript the button sends the page's form (`formId`) with its
 * values, or, on a page without one, a form of its own to `action`.
 */
export function LanguageSwitch({
  choice,
  formId,
  action,
}: {
  choice: LanguageChoice;
  formId?: string;
  action: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const { languages, current, onSwitch, busy } = choice;
  const [chosen, setChosen] = useState(current);
  useEffect(() => setChosen(current), [current]);
  if (languages.length < 2) return null;
  const form = hydrated ? undefined : formId;
  const controls = (
    <div className="fill-language">
      {/* Enter in a field of the page's form keeps it on its page: this, not the switch, is its first button. */}
      {form ? (
        <button
          type="submit"
          form={form}
          name="go"
          value="stay"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
        />
      ) : null}
      <Field id="fill-language" label={t("fill.language")} className="fill-language__field">
        <select
          id="fill-language"
          name="language"
          className="input fill-language__select"
          form={form}
          value={chosen}
          onChange={(e) => setChosen(e.target.value as ContentLanguage)}
          data-testid="fill-language"
        >
          {languages.map((lang) => (
            <option key={lang} value={lang} lang={lang}>
              {languageName(lang, lang)}
            </option>
          ))}
        </select>
      </Field>
      <button
        type={hydrated ? "button" : "submit"}
        form={form}
        name={form ? "go" : undefined}
        value={form ? "language" : undefined}
        className="btn"
        disabled={hydrated && busy}
        data-testid="fill-language-apply"
        onClick={hydrated ? () => chosen !== current && onSwitch(chosen) : undefined}
      >
        {t("fill.languageApply")}
      </button>
    </div>
  );
  if (hydrated || form) return controls;
  return (
    <form method="post" action={action} className="fill-language__form">
      <input type="hidden" name="intent" value="language" />
      {controls}
    </form>
  );
}
