import { useTranslation } from "react-i18next";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import type { CaseClosed } from "~/offline/fill-local";

/**
 * What the confirmation page says happened to the case: closed at once when it was submitted (decision 006),
 * by whose electronic signature where one closed it (decision 029), or, filled on this device, closed when it
 * is synced.
 */
export function ClosedNote({
  patientId,
  closed,
  local,
}: {
  patientId: string;
  closed?: CaseClosed | null;
  local: boolean;
}) {
  const { t } = useTranslation();
  if (local) return <p className="hint">{t("fill.closedOnSync", { id: patientId })}</p>;
  if (!closed) return null;
  const at = (iso: string) => formatDateTime(iso, false, DISPLAY_TIME_ZONE);
  return (
    <div className="closed-note" data-testid="closed-note">
      <p className="hint">
        {closed.at ? t("fill.closedAt", { id: patientId, at: at(closed.at) }) : t("fill.closed", { id: patientId })}
      </p>
      {closed.signature ? (
        <p className="hint" data-testid="signed-note">
          {t("fill.signedBy", {
            name: closed.signature.SignerName,
            at: at(closed.signature.SignedAt),
            meaning: t(`fill.signedMeaning.${closed.signature.Meaning}`),
          })}
        </p>
      ) : null}
    </div>
  );
}
