import { useTranslation } from "~/texts";
import type { AuditActor } from "~/domain/audit-reading";
import { respondentName } from "~/domain/respondents";

/**
 * Who wrote an audit row, in words: the patient where they did (through a link, or on a staff member's device
 * handed over to them: docs/decisions/057-patient-links.md), else the person's name, their id, or the system.
 */
export function ActorName({ actor }: { actor: AuditActor }) {
  const { t } = useTranslation();
  const r = actor.Respondent;
  if (r?.Kind === "link") return <>{respondentName({ kind: "link", linkId: r.Id }, t)}</>;
  if (r?.Kind === "handover") {
    const staffName = actor.Name ?? t("audit.userId", { id: r.Id });
    return <>{respondentName({ kind: "handover", staffUserId: r.Id, staffName }, t)}</>;
  }
  if (actor.Name) return <>{actor.Name}</>;
  return <>{actor.UserId === null ? t("audit.nobody") : t("audit.userId", { id: actor.UserId })}</>;
}
