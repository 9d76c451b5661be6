import { surveysApi } from "~/contracts/surveys";
import { useId } from "react";
import { useTranslation } from "~/texts";
import { useHydrated } from "~/components/ui/useHydrated";
import { useEditorMutation } from "../editor-api";
import type { EditorTabProps } from "../types";
import { RichTextEditor, type RichTextField } from "./RichTextEditor";

/** The intro and outro tabs (section 2): the survey's intro or outro text in the rich-text editor. */
export function RichTextTab({ survey, editable, field = "IntroText" }: EditorTabProps & { field?: RichTextField }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const mutate = useEditorMutation();
  const labelId = useId();
  const save = async (value: string) => {
    const result = await mutate(surveysApi.update, { params: { id: survey.Id }, body: { [field]: value } });
    return result.ok ? (result.data[field] ?? "") : null;
  };
  return (
    <div className="rich-text-tab">
      <p id={labelId} className="field__label">
        {t(`richText.label.${field}`)}
      </p>
      {/* Only where scripts do not run: a page whose scripts are still on their way says nothing yet. */}
      {editable && !hydrated ? (
        <noscript>
          <p className="notice">{t("richText.needsScript")}</p>
        </noscript>
      ) : null}
      <RichTextEditor
        html={field === "IntroText" ? survey.IntroText : survey.OutroText}
        editable={editable}
        labelId={labelId}
        name={t(`richText.label.${field}`)}
        saveKey={field}
        testId={`${field}-save-state`}
        save={save}
      />
    </div>
  );
}
