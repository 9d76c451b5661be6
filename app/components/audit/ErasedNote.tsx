import { useTranslation } from "~/texts";
import type { ErasedCase } from "~/domain/erasure";

/**
 * A patient id whose case was erased, said on the page in place of the case (the data page, the case history):
 * when and why (docs/decisions/042-retention-and-erasure.md).
 */
export function ErasedNote({ patientId, erased }: { patientId: string; erased: ErasedCase }) {
  const { t } = useTranslation();
  const when = erased.at
    ? t("dataProtection.erasedOn", { patientId, at: erased.at })
    : t("dataProtection.erased", { patientId });
  const why = erased.reason
    ? t("dataProtection.erasedReason", { reason: t(`dataProtection.reasons.${erased.reason}`) })
    : "";
  return (
    <p className="notice" data-testid="erased-note">
      {why ? `${when} ${why}` : when}
    </p>
  );
}
