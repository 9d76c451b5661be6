import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { RETENTION_MONTHS_MAX } from "~/domain/survey";
import { Field } from "~/components/ui/Field";
import { SaveStatus, useAutosave } from "../saving";
import { useSavedField } from "./useSavedField";

type Unit = "none" | "months" | "years";

/** How a stored period shows: whole years as years, else months; 0 as none. */
function shownAs(months: number): { unit: Unit; amount: string } {
  if (months <= 0) return { unit: "none", amount: "" };
  return months % 12 === 0
    ? { unit: "years", amount: String(months / 12) }
    : { unit: "months", amount: String(months) };
}

/** The period in months, or null when the amount is no whole number in range. */
function monthsOf(unit: Unit, amount: string): number | null {
  if (unit === "none") return 0;
  if (!/^\d{1,4}$/.test(amount.trim())) return null;
  const months = Number(amount) * (unit === "years" ? 12 : 1);
  return months >= 1 && months <= RETENTION_MONTHS_MAX ? months : null;
}

/**
 * The start tab's retention period (docs/decisions/042-retention-and-erasure.md): none, or a number of months
 * or years after a case is closed, after which the case is erased. Saved as the other fields are.
 */
export function RetentionField({
  surveyId,
  initial,
  readOnly,
}: {
  surveyId: number;
  initial: number;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const retention = useSavedField(surveyId, "RetentionMonths", initial);
  const saving = useAutosave("retention", (v: number) => retention.save(v, { keepTyped: true }));
  const [shown, setShown] = useState(() => shownAs(retention.value));
  useEffect(() => setShown(shownAs(retention.value)), [retention.value]);
  const months = monthsOf(shown.unit, shown.amount);
  const invalid = months === null;

  const change = (next: { unit: Unit; amount: string }) => {
    setShown(next);
    const value = monthsOf(next.unit, next.amount);
    if (value !== null) saving.change(value);
    else saving.cancel();
  };

  const hintId = "survey-retention-unit-hint";
  return (
    <fieldset className="choice-list start-tab__retention">
      <legend className="field__label">{t("startTab.retention")}</legend>
      <Field
        id="survey-retention-unit"
        label={t("startTab.retentionUnit")}
        aside={<SaveStatus state={saving.state} testId="retention-save-state" />}
        hint={invalid ? undefined : t("startTab.retentionHint")}
      >
        {(control) => (
          <select
            {...control}
            className="input"
            value={shown.unit}
            disabled={readOnly}
            onChange={(event) => {
              const unit = event.target.value as Unit;
              change({ unit, amount: unit === "none" ? "" : shown.amount || "10" });
            }}
            onBlur={() => void saving.flush()}
          >
            <option value="none">{t("startTab.retentionNone")}</option>
            <option value="months">{t("startTab.retentionMonths")}</option>
            <option value="years">{t("startTab.retentionYears")}</option>
          </select>
        )}
      </Field>
      {shown.unit === "none" ? null : (
        <Field
          id="survey-retention-amount"
          label={t("startTab.retentionAmount")}
          error={invalid ? t("startTab.retentionInvalid", { max: RETENTION_MONTHS_MAX / 12 }) : undefined}
        >
          {(control) => (
            <input
              {...control}
              // What the period takes is said under the unit; the message, when there is one, says it here.
              aria-describedby={control["aria-describedby"] ?? hintId}
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={shown.amount}
              disabled={readOnly}
              onChange={(event) => change({ unit: shown.unit, amount: event.target.value })}
              onBlur={() => void saving.flush()}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}
