import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/texts";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { isLive } from "~/domain/patient-links";
import { languageName, type ContentLanguage } from "~/domain/languages";
import type { LinkRow } from "~/domain/patient-link-views";

/**
 * A case's links with their states (decision 057): revoke a live one (confirmed; focus comes back to its row)
 * and renew it (a new link in its place, shown once above).
 */
export function LinkList({
  surveyId,
  patientId,
  links,
  defaultDays,
}: {
  surveyId: number;
  patientId: string;
  links: LinkRow[];
  defaultDays: number;
}) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const here = `/survey/${surveyId}/links?patientId=${encodeURIComponent(patientId)}`;
  const asked = Number(new URLSearchParams(location.search).get("revoke"));
  const revoking = links.find((l) => l.id === asked && isLive(l.state));
  // Back from the confirmation (either way): focus on the link's row, once the dialog has given its own back.
  useEffect(() => {
    const id = location.hash.slice(1);
    if (!id.startsWith("link-")) return;
    const timer = setTimeout(() => document.getElementById(id)?.focus(), 0);
    return () => clearTimeout(timer);
  }, [location.hash, location.key]);
  return (
    <section aria-labelledby="link-list-title" className="link-list">
      <h2 id="link-list-title">{t("patientLinks.listTitle", { patientId })}</h2>
      {links.length === 0 ? (
        <p className="hint">{t("patientLinks.listEmpty")}</p>
      ) : (
        <ul className="link-list__items">
          {links.map((l) => (
            <li key={l.id} className="link-list__item" data-testid="link-row" data-state={l.state}>
              <h3 id={`link-${l.id}`} tabIndex={-1} className="link-list__title">
                {t("patientLinks.linkNumber", { id: l.id })}:{" "}
                <span data-testid="link-state">{t(`patientLinks.state.${l.state}`)}</span>
              </h3>
              <p className="hint">
                {t("patientLinks.rowFacts", {
                  language: languageName(l.language as ContentLanguage, i18n.language),
                  created: l.created,
                  expires: l.expires,
                })}
                {l.renewedFrom ? ` ${t("patientLinks.renewedFrom", { id: l.renewedFrom })}` : ""}
              </p>
              {isLive(l.state) ? (
                <div className="link-list__actions">
                  <Link
                    className="btn"
                    to={`${here}&revoke=${l.id}`}
                    preventScrollReset
                    aria-label={t("patientLinks.revokeNamed", { id: l.id })}
                  >
                    {t("patientLinks.revoke")}
                  </Link>
                  <Form method="post" className="link-list__renew">
                    <input type="hidden" name="intent" value="renew" />
                    <input type="hidden" name="patientId" value={patientId} />
                    <input type="hidden" name="linkId" value={l.id} />
                    <input type="hidden" name="days" value={defaultDays} />
                    <button
                      type="submit"
                      className="btn"
                      aria-label={t("patientLinks.renewNamed", { id: l.id, count: defaultDays })}
                    >
                      {t("patientLinks.renew")}
                    </button>
                  </Form>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={Boolean(revoking)}
        title={t("patientLinks.revokeTitle", { id: revoking?.id ?? "" })}
        confirmLabel={t("patientLinks.revoke")}
        cancelLabel={t("patientLinks.keep")}
        cancelHref={`${here}#link-${revoking?.id ?? ""}`}
        fields={{ intent: "revoke", patientId, linkId: String(revoking?.id ?? "") }}
        danger
      >
        <p>{t("patientLinks.revokeText")}</p>
      </ConfirmDialog>
    </section>
  );
}
