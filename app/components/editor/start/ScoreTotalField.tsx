import { useState } from "react";
import { useTranslation } from "~/texts";
import { Choice, Field } from "~/components/ui/Field";
import { SCORE_TITLE_MAX } from "~/domain/survey";
import { SaveStatus, useAutosave } from "../saving";
import { useSavedField } from "./useSavedField";

/**
 * The start tab's total score (docs/decisions/051-instrument-scores.md): a switch that makes the survey add up
 * the scores of each case's chosen answers, and the total's title (ScoreTitle; off is no title). The switch
 * saves at once; the title while it is typed and when it is left, as the other fields do.
 */
export function ScoreTotalField({
  surveyId,
  initial,
  readOnly,
}: {
  surveyId: number;
  initial: string | null;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  // "" is off: the API takes a blank title as none.
  const title = useSavedField(surveyId, "ScoreTitle", initial ?? "");
  const saving = useAutosave("score-title", (v: string) => title.save(v, { keepTyped: true }));
  const on = title.value !== "";
  // The title as typed; turning the total on again brings it back.
  const [text, setText] = useState(title.value || t("startTab.scoreTitleDefault"));
  const blank = on && text.trim() === "";

  return (
    <fieldset className="choice-list start-tab__total">
      <legend className="field__label">{t("startTab.scoreTotal")}</legend>
      <Choice id="survey-score-total" label={t("startTab.scoreTotalOn")}>
        <input
          id="survey-score-total"
          type="checkbox"
          role="switch"
          checked={on}
          disabled={readOnly}
          aria-describedby="survey-score-total-hint"
          onChange={(event) => {
            saving.cancel();
            const next = event.target.checked ? text.trim() || t("startTab.scoreTitleDefault") : "";
            if (next) setText(next);
            void title.save(next);
          }}
        />
      </Choice>
      <p id="survey-score-total-hint" className="field__hint">
        {t("startTab.scoreTotalHint")}
      </p>
      {on ? (
        <Field
          id="survey-score-title"
          label={t("startTab.scoreTitle")}
          aside={<SaveStatus state={saving.state} testId="score-title-save-state" />}
          error={blank ? t("startTab.scoreTitleRequired") : null}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              value={text}
              maxLength={SCORE_TITLE_MAX}
              disabled={readOnly}
              onChange={(event) => {
                setText(event.target.value);
                const next = event.target.value.trim();
                // A blank title would turn the total off: it is not saved, the message asks for one.
                if (!next) return saving.cancel();
                title.setValue(next);
                saving.change(next);
              }}
              onBlur={() => void saving.flush()}
            />
          )}
        </Field>
      ) : null}
    </fieldset>
  );
}
