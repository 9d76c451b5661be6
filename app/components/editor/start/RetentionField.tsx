import { useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { RETENTION_MONTHS_MAX } from "~/domain/survey";
import { Field } from "~/components/ui/Field";
import { SaveStatus, useAutosave, useUnsavedMark } from "../saving";
import {
  amountState,
  monthsOf,
  shortens,
  shownAs,
  shownIn,
  switchUnit,
  type Shown,
  type Unit,
} from "./retention-period";
import { useShorterPeriodCheck } from "./useShorterPeriodCheck";
import { useSavedField } from "./useSavedField";

/**
 * The start tab's retention period (docs/decisions/042-retention-and-erasure.md): none, or a number of months
 * or years after a case is closed, after which the case is erased. A longer period is saved as the other fields
 * are. Choosing a unit keeps the period (or asks for an amount where the unit cannot say it), and a shorter
 * period is saved only after the page has said how many closed cases the next daily round will erase with it.
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
  const check = useShorterPeriodCheck(surveyId, (months) => {
    saving.change(months);
    void saving.flush();
  });
  const [shown, setShown] = useState(() => shownAs(retention.value));
  // The months that stay saved while the chosen unit waits for an amount (18 months, now in years).
  const [notWhole, setNotWhole] = useState<number | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const unitRef = useRef<HTMLSelectElement>(null);
  const state = amountState(shown);
  const waiting = state === "needed" || check.pending || check.asked !== null;
  useUnsavedMark("retention-waiting", waiting);

  const change = (next: Shown) => {
    setShown(next);
    const months = monthsOf(next);
    if (months === null || months === retention.saved.current) {
      saving.cancel();
      check.drop();
    } else if (shortens(months, retention.saved.current)) {
      saving.cancel();
      check.ask(months);
    } else {
      check.drop();
      saving.change(months);
    }
  };
  /** Back to the saved period, focus on what is still there. */
  const keep = () => {
    check.drop();
    setNotWhole(null);
    const saved = shownIn(shown.unit, retention.saved.current);
    setShown(saved);
    (saved.unit === "none" ? unitRef : amountRef).current?.focus();
  };

  const hintId = "survey-retention-unit-hint";
  const amountNote =
    notWhole !== null && state === "needed"
      ? t("startTab.retentionNotWhole", { months: notWhole })
      : state === "needed"
        ? t("startTab.retentionAmountNeeded")
        : null;
  return (
    <fieldset className="choice-list start-tab__retention">
      <legend className="field__label">{t("startTab.retention")}</legend>
      <Field
        id="survey-retention-unit"
        label={t("startTab.retentionUnit")}
        aside={<SaveStatus state={waiting ? "unsaved" : saving.state} testId="retention-save-state" />}
        hint={state === "invalid" ? undefined : t("startTab.retentionHint")}
      >
        {(control) => (
          <select
            {...control}
            ref={unitRef}
            className="input"
            value={shown.unit}
            disabled={readOnly}
            onChange={(event) => {
              const next = switchUnit(shown, event.target.value as Unit);
              setNotWhole(next.notWhole ?? null);
              change(next.shown);
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
          error={state === "invalid" ? t("startTab.retentionInvalid", { max: RETENTION_MONTHS_MAX / 12 }) : undefined}
          status={amountNote ? { text: amountNote, tone: "note", testId: "retention-amount-note" } : undefined}
        >
          {(control) => (
            <input
              {...control}
              ref={amountRef}
              // What the period takes is said under the unit; the message, when there is one, says it here.
              aria-describedby={control["aria-describedby"] ?? hintId}
              className="input"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              required
              value={shown.amount}
              disabled={readOnly}
              onChange={(event) => change({ unit: shown.unit, amount: event.target.value })}
              onBlur={() => void saving.flush()}
            />
          )}
        </Field>
      )}
      <div aria-live="polite" data-testid="retention-ask-region">
        {check.asked ? (
          <div className="notice start-tab__retention-ask" data-testid="retention-ask">
            <p>
              {check.asked.cases === null
                ? t("startTab.retentionErasesUnknown")
                : t("startTab.retentionErases", { count: check.asked.cases, date: check.asked.before })}
            </p>
            <div className="start-tab__retention-actions">
              <button
                type="button"
                className="btn btn--small btn--danger"
                onClick={() => {
                  check.confirm();
                  amountRef.current?.focus();
                }}
              >
                {t("startTab.retentionShorten")}
              </button>
              <button type="button" className="btn btn--small" onClick={keep}>
                {t("startTab.retentionKeep")}
              </button>
            </div>
          </div>
        ) : null}
      </div>
    </fieldset>
  );
}
