import { Choice, Field } from "~/components/ui/Field";
import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { useHydrated } from "~/components/ui/useHydrated";
import type { EditorTabProps } from "../types";
import { ChoiceList } from "./ChoiceList";
import { TARGET_MAX, TARGET_MIN, parseTarget, sameIds } from "./fields";
import { RetentionField } from "./RetentionField";
import { ScoreTotalField } from "./ScoreTotalField";
import { useSavedField } from "./useSavedField";
import { SaveStatus, useAutosave } from "../saving";
import { DraftCheck } from "../PublishCheck";

const teamRights = [
  { field: "UserTeamPermissions", key: "participation" },
  { field: "EditorTeamPermissions", key: "editing" },
  { field: "ApproverTeamPermissions", key: "approval" },
] as const;

/**
 * The start tab (section 2): description, targeted results, ask-for-identity, hashtags and team rights.
 * Each field saves on its own: a checkbox when it changes, a typed field while it is typed and when it is left
 * (saving.tsx), showing whether it is saved.
 */
export function StartTab({ survey, editable, teams, tags }: EditorTabProps & { field?: "IntroText" | "OutroText" }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const readOnly = !editable || !hydrated;
  const id = survey.Id;

  const description = useSavedField(id, "Description", survey.Description);
  const target = useSavedField(id, "TargetNumberOfResponses", survey.TargetNumberOfResponses);
  const autoId = useSavedField(id, "IsPatientIdAutoGenerationEnabled", survey.IsPatientIdAutoGenerationEnabled);
  const signature = useSavedField(id, "RequiresSignature", survey.RequiresSignature);
  const review = useSavedField(id, "PatientSubmitReview", survey.PatientSubmitReview);
  const byPatient = useSavedField(id, "PreliminaryByPatient", survey.PreliminaryByPatient);
  const tagIds = useSavedField(id, "TagIds", survey.TagIds, sameIds);
  const rights = {
    UserTeamPermissions: useSavedField(id, "UserTeamPermissions", survey.UserTeamPermissions, sameIds),
    EditorTeamPermissions: useSavedField(id, "EditorTeamPermissions", survey.EditorTeamPermissions, sameIds),
    ApproverTeamPermissions: useSavedField(id, "ApproverTeamPermissions", survey.ApproverTeamPermissions, sameIds),
  };

  const descriptionSaving = useAutosave("description", (v: string) => description.save(v, { keepTyped: true }));
  const targetSaving = useAutosave("target", (v: number) => target.save(v, { keepTyped: true }));

  const [targetText, setTargetText] = useState(String(target.value));
  useEffect(() => setTargetText(String(target.value)), [target.value]);
  const targetInvalid = parseTarget(targetText) === null;

  return (
    <div className="start-tab">
      {/* Only where scripts do not run: a page whose scripts are still on their way says nothing yet. */}
      {editable && !hydrated ? (
        <noscript>
          <p className="notice">{t("startTab.needsScript")}</p>
        </noscript>
      ) : null}
      {survey.Status === "Draft" && editable ? <DraftCheck survey={survey} /> : null}

      <Field
        id="survey-description"
        label={t("startTab.description")}
        aside={<SaveStatus state={descriptionSaving.state} testId="description-save-state" />}
      >
        {(control) => (
          <textarea
            {...control}
            className="input start-tab__description"
            rows={4}
            maxLength={5000}
            value={description.value}
            disabled={readOnly}
            onChange={(event) => {
              description.setValue(event.target.value);
              descriptionSaving.change(event.target.value);
            }}
            onBlur={() => void descriptionSaving.flush()}
          />
        )}
      </Field>

      <Field
        id="survey-target"
        className="start-tab__target"
        label={t("startTab.target")}
        aside={<SaveStatus state={targetSaving.state} testId="target-save-state" />}
        // The range is said until a value outside it is typed; then the message says it instead.
        hint={targetInvalid ? null : t("startTab.targetHint", { min: TARGET_MIN, max: TARGET_MAX })}
        error={targetInvalid ? t("startTab.targetInvalid", { min: TARGET_MIN, max: TARGET_MAX }) : null}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="number"
            inputMode="numeric"
            min={TARGET_MIN}
            max={TARGET_MAX}
            step={1}
            value={targetText}
            disabled={readOnly}
            onChange={(event) => {
              setTargetText(event.target.value);
              const next = parseTarget(event.target.value);
              if (next !== null) targetSaving.change(next);
              else targetSaving.cancel();
            }}
            onBlur={() => void targetSaving.flush()}
          />
        )}
      </Field>

      <fieldset className="choice-list">
        <legend className="field__label">{t("startTab.identity")}</legend>
        <Choice id="survey-auto-id" label={t("startTab.autoId")}>
          <input
            id="survey-auto-id"
            type="checkbox"
            checked={autoId.value}
            disabled={readOnly}
            aria-describedby="survey-auto-id-hint"
            onChange={(event) => void autoId.save(event.target.checked)}
          />
        </Choice>
        <p id="survey-auto-id-hint" className="field__hint">
          {t("startTab.autoIdHint")}
        </p>
      </fieldset>

      <fieldset className="choice-list">
        <legend className="field__label">{t("startTab.submitting")}</legend>
        <Choice id="survey-signature" label={t("startTab.requiresSignature")}>
          <input
            id="survey-signature"
            type="checkbox"
            checked={signature.value}
            disabled={readOnly}
            aria-describedby="survey-signature-hint"
            onChange={(event) => void signature.save(event.target.checked)}
          />
        </Choice>
        <p id="survey-signature-hint" className="field__hint">
          {t("startTab.requiresSignatureHint")}
        </p>
        <Choice id="survey-patient-review" label={t("startTab.patientSubmitReview")}>
          <input
            id="survey-patient-review"
            type="checkbox"
            checked={review.value}
            disabled={readOnly}
            aria-describedby="survey-patient-review-hint"
            onChange={(event) => void review.save(event.target.checked)}
          />
        </Choice>
        <p id="survey-patient-review-hint" className="field__hint">
          {t("startTab.patientSubmitReviewHint")}
        </p>
        <Choice id="survey-preliminary-by-patient" label={t("startTab.preliminaryByPatient")}>
          <input
            id="survey-preliminary-by-patient"
            type="checkbox"
            checked={byPatient.value}
            disabled={readOnly}
            aria-describedby="survey-preliminary-by-patient-hint"
            onChange={(event) => void byPatient.save(event.target.checked)}
          />
        </Choice>
        <p id="survey-preliminary-by-patient-hint" className="field__hint">
          {t("startTab.preliminaryByPatientHint")}
        </p>
      </fieldset>

      <ScoreTotalField surveyId={id} initial={survey.ScoreTitle} readOnly={readOnly} />

      <RetentionField surveyId={id} initial={survey.RetentionMonths} readOnly={readOnly} />

      {tags.length > 0 ? (
        <ChoiceList
          legend={t("startTab.tags")}
          hint={t("startTab.tagsHint")}
          choices={tags}
          chosen={tagIds.value}
          readOnly={readOnly}
          onChange={(next) => void tagIds.save(next)}
        />
      ) : null}

      {teams.length > 0 ? (
        <fieldset className="team-rights">
          <legend className="field__label">{t("startTab.teamRights")}</legend>
          {teamRights.map(({ field, key }) => (
            <ChoiceList
              key={field}
              legend={t(`startTab.${key}`)}
              hint={t(`startTab.${key}Hint`)}
              choices={teams}
              chosen={rights[field].value}
              readOnly={readOnly}
              onChange={(next) => void rights[field].save(next)}
            />
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
