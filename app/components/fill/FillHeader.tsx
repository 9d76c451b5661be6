import { useTranslation } from "react-i18next";
import { Hyphenated } from "~/components/ui/Hyphenated";

/** Title, patient id, "page x of y" and a progress bar (section 2, Fill flow). */
export function FillHeader({
  title,
  patientId,
  index,
  total,
  preview,
}: {
  title: string;
  patientId: string;
  index: number;
  total: number;
  preview?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="fill-head">
      <div className="fill-head__row">
        <h1 className="fill-head__title" aria-describedby="fill-page-of">
          <Hyphenated text={title} />
        </h1>
        <span className="fill-head__patient" data-testid="fill-patient">
          {preview ? t("fill.preview") : t("fill.patient", { id: patientId })}
        </span>
      </div>
      <div className="fill-head__progress">
        <span id="fill-page-of">{t("fill.pageOf", { index, total })}</span>
        <progress max={total} value={index} aria-label={t("fill.progress")} />
      </div>
    </div>
  );
}
