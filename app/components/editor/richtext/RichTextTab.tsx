import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/components/ui/useHydrated";
import type { EditorTabProps } from "../types";
import { RichTextEditor, type RichTextField } from "./RichTextEditor";

/** The intro and outro tabs (section 2): the survey's intro or outro text in the rich-text editor. */
export function RichTextTab({ survey, editable, field = "IntroText" }: EditorTabProps & { field?: RichTextField }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const labelId = useId();
  return (
    <div className="rich-text-tab">
      <p id={labelId} className="field__label">
        {t(`richText.label.${field}`)}
      </p>
      {editable && !hydrated ? <p className="notice">{t("richText.needsScript")}</p> : null}
      <RichTextEditor
        surveyId={survey.Id}
        field={field}
        html={field === "IntroText" ? survey.IntroText : survey.OutroText}
        editable={editable}
        labelId={labelId}
      />
    </div>
  );
}
