import { useTranslation } from "~/texts";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import type { CaseClosed } from "~/offline/fill-local";
import { LtrValues } from "./FillLanguage";

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
  if (local)
    return (
      <p className="hint">
        <LtrValues text={(ltr) => t("fill.closedOnSync", { id: ltr(patientId) })} />
      </p>
    );
  if (!closed) return null;
  const at = (iso: string) => formatDateTime(iso, false, DISPLAY_TIME_ZONE);
  return (
    <div className="closed-note" data-testid="closed-note">
      <p className="hint">
        <LtrValues
          text={(ltr) =>
            closed.at
              ? t("fill.closedAt", { id: ltr(patientId), at: ltr(at(closed.at)) })
              : t("fill.closed", { id: ltr(patientId) })
          }
        />
      </p>
      {closed.signature ? (
        <p className="hint" data-testid="signed-note">
          <LtrValues
            text={(ltr) =>
              t("fill.signedBy", {
                name: closed.signature!.SignerName,
                at: ltr(at(closed.signature!.SignedAt)),
                meaning: t(`fill.signedMeaning.${closed.signature!.Meaning}`),
              })
            }
          />
        </p>
      ) : null}
    </div>
  );
}
