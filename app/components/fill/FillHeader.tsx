import { useTranslation } from "~/texts";
import { DISPLAY_TIME_ZONE, formatDateTime } from "~/domain/dates";
import { Hyphenated } from "~/components/ui/Hyphenated";
import { lazyPart } from "~/components/ui/lazy-part";
import { LtrValues } from "./FillLanguage";
import type { LanguageChoice } from "./LanguageSwitch";

/** The case's language to switch: loaded only for a survey in several languages (drawn by the server all the same). */
const LanguageSwitch = lazyPart(() => import("./LanguageSwitch").then((m) => m.LanguageSwitch));

/** Title, patient id, the case's language, "page x of y" and a progress bar (section 2, Fill flow). */
export function FillHeader({
  title,
  patientId,
  index,
  total,
  preview,
  language,
  toReview,
}: {
  title: string;
  /** null: not shown (the patient's own page, decision 057). */
  patientId: string | null;
  index: number;
  total: number;
  preview?: boolean;
  /** The case's language and its switch (not in the editor's preview). */
  language?: { choice: LanguageChoice; formId?: string; action: string };
  /** Submitted by the patient, for staff to review and close (decision 057): when. */
  toReview?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="fill-head">
      <div className="fill-head__row">
        <h1 className="fill-head__title" aria-describedby="fill-page-of">
          <Hyphenated text={title} />
        </h1>
        {preview ? (
          <span className="fill-head__patient" data-testid="fill-patient">
            {t("fill.preview")}
          </span>
        ) : patientId !== null ? (
          <span className="fill-head__patient" data-testid="fill-patient">
            <LtrValues text={(ltr) => t("fill.patient", { id: ltr(patientId) })} />
          </span>
        ) : null}
      </div>
      {toReview ? (
        <p className="fill-head__review" data-testid="fill-to-review">
          {t("start.toReview")} <time dateTime={toReview}>{formatDateTime(toReview, true, DISPLAY_TIME_ZONE)}</time>
        </p>
      ) : null}
      {language ? <LanguageSwitch {...language} /> : null}
      <div className="fill-head__progress">
        <span id="fill-page-of">{t("fill.pageOf", { index, total })}</span>
        <progress max={total} value={index} aria-label={t("fill.progress")} />
      </div>
    </div>
  );
}
