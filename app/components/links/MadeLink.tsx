import { Form } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { languageName, type ContentLanguage } from "~/domain/languages";
import type { MadeView } from "~/domain/patient-link-views";

/**
 * A link just made or renewed (decision 057), shown once: its address with a copy button, its QR code (an SVG
 * drawn on the server), the short code, the expiry, and the printable letter, made from what this page holds.
 */
export function MadeLink({ made, surveyId }: { made: MadeView; surveyId: number }) {
  const { t, i18n } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const urlId = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => heading.current?.focus(), [made.id]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(made.url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="made-link" aria-labelledby="made-link-title" data-testid="made-link">
      <h2 id="made-link-title" ref={heading} tabIndex={-1}>
        {t("patientLinks.madeTitle", { id: made.id })}
      </h2>
      <p className="hint">{t("patientLinks.madeOnce")}</p>
      <div className="made-link__body">
        <div
          className="made-link__qr"
          role="img"
          aria-label={t("patientLinks.qrLabel")}
          data-testid="made-link-qr"
          // Drawn on the server by the qrcode package from the link's own address: no text of anyone's in it.
          dangerouslySetInnerHTML={{ __html: made.qr }}
        />
        <dl className="made-link__facts">
          <div>
            <dt>{t("patientLinks.patientId")}</dt>
            <dd data-testid="made-link-patient">{made.patientId}</dd>
          </div>
          <div>
            {/* A term of the list, not a form field: the address is read-only, named by its term. */}
            <dt id={`${urlId}-term`}>{t("patientLinks.address")}</dt>
            <dd className="made-link__url">
              <input
                id={urlId}
                className="input"
                readOnly
                value={made.url}
                aria-labelledby={`${urlId}-term`}
                data-testid="made-link-url"
              />
              <button type="button" className="btn" onClick={() => void copy()}>
                {t("patientLinks.copy")}
              </button>
              <span role="status" className="hint">
                {copied === null ? "" : t(copied ? "patientLinks.copied" : "patientLinks.copyFailed")}
              </span>
            </dd>
          </div>
          <div>
            <dt>{t("patientLinks.code")}</dt>
            <dd className="made-link__code" data-testid="made-link-code">
              {made.code}
            </dd>
          </div>
          <div>
            <dt>{t("patientLinks.expires")}</dt>
            <dd>{made.expires}</dd>
          </div>
          <div>
            <dt>{t("patientLinks.language")}</dt>
            <dd>{languageName(made.language as ContentLanguage, i18n.language)}</dd>
          </div>
        </dl>
      </div>
      <Form method="post" action={`/survey/${surveyId}/links/${made.id}/letter`} target="_blank" reloadDocument>
        <input type="hidden" name="token" value={made.token} />
        <input type="hidden" name="code" value={made.code} />
        <button type="submit" className="btn btn--primary" data-testid="made-link-letter">
          {t("patientLinks.letter")}
        </button>
      </Form>
    </section>
  );
}
