import { useState } from "react";
import { useTranslation } from "~/texts";
import { callApi } from "~/api-client";
import { handoverApi } from "~/contracts/handover";
import { handoverPath, pinProblem, type HandoverCase } from "~/domain/handover";
import { beginDeviceHandover, endDeviceHandover } from "~/offline/handover-device";
import { newReturnToken, returnTokenHash } from "~/offline/handover-pin";
import { requireHolder } from "~/offline/vault";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";

/**
 * "Hand to the patient" (docs/decisions/058-hand-over.md): staff set a PIN twice; the device keeps it hashed
 * with the return token sealed under it, the server's session is bound to the case, and the page comes back
 * as the patient's. Loaded on demand: the fill page carries only its button.
 */
export default function HandOverDialog({ kase, onClose }: { kase: HandoverCase; onClose: () => void }) {
  const { t } = useTranslation();
  const [pin, setPin] = useState("");
  const [repeated, setRepeated] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function start(event: React.FormEvent) {
    event.preventDefault();
    const wrong = pinProblem(pin, repeated);
    if (wrong) return setProblem(t(wrong === "format" ? "handover.pinFormat" : "handover.pinMismatch"));
    setBusy(true);
    setProblem(null);
    try {
      const holder = await requireHolder();
      const token = newReturnToken();
      await beginDeviceHandover(holder, kase, pin, token);
      const started = await callApi(handoverApi.start, {
        body: { SurveyId: kase.surveyId, PatientId: kase.patientId, ReturnHash: await returnTokenHash(token) },
      });
      if (!started.ok) {
        await endDeviceHandover(holder);
        setBusy(false);
        return setProblem(t(started.type === "NETWORK" ? "handover.offline" : "handover.refused"));
      }
      // The patient's page from the server: no staff's header, menu or list from here on.
      window.location.replace(handoverPath(kase));
    } catch {
      setBusy(false);
      setProblem(t("handover.refused"));
    }
  }

  return (
    <Modal open title={t("handover.title")} size="s" onClose={onClose}>
      <form className="handover-form" onSubmit={(e) => void start(e)} noValidate>
        <p id="handover-explain">{t("handover.explain")}</p>
        <Field id="handover-pin" label={t("handover.pin")} hint={t("handover.pinHint")}>
          <input
            id="handover-pin"
            className="input"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            pattern="[0-9]*"
            maxLength={8}
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            data-autofocus=""
            aria-describedby="handover-pin-hint handover-problem"
          />
        </Field>
        <Field id="handover-pin-again" label={t("handover.pinAgain")}>
          <input
            id="handover-pin-again"
            className="input"
            type="password"
            inputMode="numeric"
            autoComplete="new-password"
            pattern="[0-9]*"
            maxLength={8}
            value={repeated}
            onChange={(e) => setRepeated(e.target.value)}
            aria-describedby="handover-problem"
          />
        </Field>
        <p id="handover-problem" className="field__error" role="alert">
          {problem}
        </p>
        <div className="handover-form__actions">
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="handover-start">
            {t("handover.start")}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t("handover.cancel")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
