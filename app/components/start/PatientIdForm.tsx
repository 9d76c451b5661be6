import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { Field } from "~/components/ui/Field";
import { useHydrated } from "~/components/ui/useHydrated";
import { useGivenBeforeStart } from "~/components/ui/useGivenBeforeStart";
import { PATIENT_ID_MAX_LENGTH } from "~/domain/patient-id";
import { useOnline } from "~/offline/connectivity";
import {
  normalizePatientId,
  startState,
  suggestionsFor,
  type StartProblem,
  type StartState,
} from "~/domain/start-state";
import { useDeviceLookup } from "./useDeviceLookup";
import { CaseLanguageField, type CaseLanguageChoice } from "./CaseLanguageField";
import { usePatientLookup } from "./usePatientLookup";

const buttonKey = { start: "start.startNew", open: "start.openSurvey", clear: "start.clear" } as const;

function messageKey(state: StartState, problem: StartProblem | null): string | null {
  if (state.message === "invalid") return "start.surveyPatientIdInputError";
  if (state.message === "closed") return "start.userSurveyClosed";
  if (problem?.problem === "required" && state.validity === "empty") return "start.patientIdRequired";
  if (state.message === "open") return "start.patientIdOpen";
  if (state.message === "openOnDevice") return "start.patientIdOpenOnDevice";
  if (state.message === "unknown") return "start.patientIdUnknownOffline";
  if (state.validity === "valid") return "start.patientIdValid";
  return null;
}

/**
 * The patient-id field with suggestions, a tick or cross, helper text and the main button (section 2).
 * It is a plain form post, so it works before and without JavaScript; with it, the button follows the id.
 */
export function PatientIdForm({
  surveyId,
  autoGeneration,
  result,
  formKey,
  language,
}: {
  /** The language a new case is filled in, where the survey has more than one. */
  language?: CaseLanguageChoice;
  surveyId: number;
  autoGeneration: boolean;
  result: StartProblem | null;
  /** Made when the page was drawn: the same form sent twice starts one case. */
  formKey?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const online = useOnline();
  const navigation = useNavigation();
  const input = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState(result?.patientId ?? "");
  // An id typed before the page's script ran is in the field, not in the state it was drawn with.
  useGivenBeforeStart(input, (field) => setTyped(field.value));
  const serverLookup = usePatientLookup(surveyId, typed, hydrated && online);
  // Offline, only what this device keeps is known (decision 038).
  const deviceOnly = hydrated && !online;
  const deviceLookup = useDeviceLookup(surveyId, typed, deviceOnly);
  const lookup = deviceOnly ? deviceLookup : serverLookup;
  const closedId = result?.problem === "closed" ? result.patientId : null;
  const state = startState({ typed, autoGeneration, lookup, closedId, deviceOnly });
  const problem = result && normalizePatientId(typed) === result.patientId ? result : null;
  const suggestions = online ? suggestionsFor(typed, serverLookup) : [];
  const message = messageKey(state, problem);
  const required = problem?.problem === "required" && state.validity === "empty";
  const cross = state.validity === "invalid" || state.validity === "closed" || required;
  const mark = state.validity === "valid" ? "ok" : cross ? "bad" : "none";
  const submitting = navigation.state === "submitting";

  return (
    <Form method="post" className="start-form" noValidate>
      {formKey ? <input type="hidden" name="formKey" value={formKey} /> : null}
      <Field
        id="patient-id"
        label={t("start.patientIdLabel")}
        hint={t(state.helper === "optional" ? "start.optional" : "start.mandatory")}
        hintId="patient-id-helper"
        status={{
          text: message ? t(message) : "",
          tone: cross ? "error" : state.message && state.message !== "invalid" ? "note" : "silent",
          className: "start-form__status",
          testId: "patient-id-status",
        }}
      >
        {(control) => (
          <>
            <div className="start-form__row">
              <input
                {...control}
                ref={input}
                name="patientId"
                className="input start-form__input"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                list="patient-id-suggestions"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                maxLength={PATIENT_ID_MAX_LENGTH}
                aria-required={!autoGeneration}
              />
              <span
                className={`start-form__mark start-form__mark--${mark}`}
                data-testid="patient-id-mark"
                data-state={mark}
                aria-hidden="true"
              >
                {mark === "ok" ? "✓" : mark === "bad" ? "✗" : ""}
              </span>
            </div>
            <datalist id="patient-id-suggestions" data-testid="patient-id-suggestions">
              {suggestions.map((id) => (
                <option key={id} value={id} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      {language ? <CaseLanguageField {...language} /> : null}
      <input type="hidden" name="closedId" value={state.validity === "closed" ? state.patientId : ""} />
      <div className="start-form__actions">
        <button
          type="submit"
          name="intent"
          value={state.button}
          className="btn btn--primary"
          data-testid="start-button"
          disabled={hydrated && (state.disabled || submitting)}
          onClick={(event) => {
            if (state.button !== "clear") return;
            event.preventDefault();
            setTyped("");
            input.current?.focus();
          }}
        >
          {t(buttonKey[state.button])}
        </button>
        <Link to="/surveys" className="btn">
          {t("start.backToList")}
        </Link>
      </div>
    </Form>
  );
}
