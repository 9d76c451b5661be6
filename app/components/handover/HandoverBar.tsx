import { useEffect, useRef, useState } from "react";
import { TextsProvider, useTranslation } from "~/texts";
import { fillTexts } from "~/components/fill/fill-texts";
import { isRightToLeft, type ContentLanguage } from "~/domain/languages";
import { callApi } from "~/api-client";
import { handoverApi } from "~/contracts/handover";
import { patientsApi } from "~/contracts/patients";
import { HANDOVER_RETURN_PATH, handoverPath, type HandoverCase } from "~/domain/handover";
import {
  deviceHandover,
  endDeviceHandover,
  returnOffline,
  setHandoverTextSize,
  tryPin,
} from "~/offline/handover-device";
import { requireHolder } from "~/offline/vault";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";

const SIZES = ["A", "A+", "A++"] as const;

/** Ends the mode on the server with the token, then on the device; the staff's page comes back. */
async function returnToStaff(
  kase: HandoverCase,
  token: string,
  offline = false,
): Promise<"done" | "offline" | "refused"> {
  const holder = await requireHolder();
  const ended = await callApi(handoverApi.end, { body: { ReturnToken: token, ...(offline ? { Offline: true } : {}) } });
  if (!ended.ok && ended.type !== "NETWORK") return "refused";
  if (ended.ok) await endDeviceHandover(holder);
  else await returnOffline(holder, token);
  // A case the patient closed opens on its closing page: its address alone leads a closed case to the start
  // page, with a refusal staff did nothing to earn.
  const record = ended.ok ? await callApi(patientsApi.record, { query: kase }) : null;
  const closed = record?.ok && record.data.State === "Closed";
  window.location.replace(closed ? `${handoverPath(kase)}?page=done` : handoverPath(kase));
  return ended.ok ? "done" : "offline";
}

/**
 * The patient's bar while the device is handed over (docs/decisions/058-hand-over.md): the text size, kept
 * for the hand-over, and the way back to staff by the PIN (or by signing in again). Loaded on demand. The text
 * size is the patient's: named in the case's language (`language`, where its words are not the page's own);
 * the way back is staff's, in staff's language.
 */
export default function HandoverBar({ kase, language }: { kase: HandoverCase; language?: ContentLanguage | null }) {
  const { t } = useTranslation();
  const [size, setSize] = useState(0);
  const [asking, setAsking] = useState(false);
  // A size chosen before the kept one is read stays: the kept one is only where the page starts.
  const chosen = useRef(false);
  useEffect(() => {
    void (async () => {
      const holder = await requireHolder();
      const mode = await deviceHandover(holder);
      if (mode && !chosen.current) setSize(mode.textSize);
      // The right PIN typed offline: now the server's mode ends too.
      if (mode?.returned) await returnToStaff(kase, mode.returned, true);
    })().catch(() => undefined);
  }, [kase]);
  useEffect(() => {
    const main = document.getElementById("main");
    if (main) main.dataset.textSize = String(size);
  }, [size]);
  const choose = (next: number) => {
    chosen.current = true;
    setSize(next);
    void requireHolder()
      .then((holder) => setHandoverTextSize(holder, next))
      .catch(() => undefined);
  };
  const patientWords = language ? fillTexts(language) : null;
  const sizes = <TextSizes size={size} onChoose={choose} />;
  return (
    <div className="handover-bar" data-testid="handover-bar">
      {patientWords && language ? (
        <TextsProvider texts={patientWords}>
          <div className="handover-bar__patient" lang={language} dir={isRightToLeft(language) ? "rtl" : "ltr"}>
            {sizes}
          </div>
        </TextsProvider>
      ) : (
        sizes
      )}
      <button
        type="button"
        className="btn handover-bar__return"
        onClick={() => setAsking(true)}
        data-testid="handover-return"
      >
        {t("handover.return")}
      </button>
      {asking ? <ReturnDialog kase={kase} onClose={() => setAsking(false)} /> : null}
    </div>
  );
}

/** The patient's three text sizes, named in the words around them. */
function TextSizes({ size, onChoose }: { size: number; onChoose: (size: number) => void }) {
  const { t } = useTranslation();
  return (
    <div className="handover-bar__sizes" role="group" aria-label={t("fill.textSize")}>
      {SIZES.map((label, i) => (
        <button
          key={label}
          type="button"
          className={`btn handover-bar__size handover-bar__size--${i}`}
          aria-pressed={size === i}
          // The name starts with the visible "A+", so that speech input reaches the button by what it shows.
          aria-label={`${label}: ${t(`fill.textSize${i}`)}`}
          onClick={() => onChoose(i)}
        >
          {/* "A+" as written, also in a right-to-left language (where it would read "+A"). */}
          <bdi dir="ltr">{label}</bdi>
        </button>
      ))}
    </div>
  );
}

function ReturnDialog({ kase, onClose }: { kase: HandoverCase; onClose: () => void }) {
  const { t } = useTranslation();
  const [pin, setPin] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function check(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const outcome = await tryPin(await requireHolder(), pin);
      setPin("");
      if (!outcome.ok) {
        setProblem(
          outcome.waitMs > 0
            ? t("handover.wait", { seconds: Math.ceil(outcome.waitMs / 1000) })
            : t("handover.wrongPin"),
        );
        return;
      }
      if ((await returnToStaff(kase, outcome.returnToken)) === "refused") setProblem(t("handover.refused"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal open title={t("handover.returnTitle")} size="s" onClose={onClose}>
      <form className="handover-form" onSubmit={(e) => void check(e)} noValidate>
        <Field id="handover-return-pin" label={t("handover.pin")}>
          <input
            id="handover-return-pin"
            className="input"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={8}
            value={pin}
            onChange={(e) => setPin(e.target.value)}
            data-autofocus=""
            aria-describedby="handover-return-problem"
          />
        </Field>
        <p id="handover-return-problem" className="field__error" role="alert" data-testid="handover-pin-problem">
          {problem}
        </p>
        <div className="handover-form__actions">
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="handover-pin-submit">
            {t("handover.returnSubmit")}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            {t("handover.cancel")}
          </button>
        </div>
      </form>
      {/* The PIN forgotten: the staff member's fresh sign-in at the provider ends the hand-over. */}
      <form
        method="post"
        action={HANDOVER_RETURN_PATH}
        className="handover-form__forgot"
        onSubmit={(e) => {
          if (navigator.onLine) return;
          e.preventDefault();
          setProblem(t("handover.signInOffline"));
        }}
      >
        <button type="submit" className="btn btn--ghost" data-testid="handover-forgot">
          {t("handover.forgotPin")}
        </button>
      </form>
    </Modal>
  );
}
