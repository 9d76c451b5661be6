import { Link } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { fillPath } from "~/domain/start-state";

export interface LatestResponse {
  patientId: string;
  /** ISO timestamp of the last change. */
  modifiedIso: string;
  /** The same time as DD.MM.YYYY HH:mm:ss. */
  modified: string;
  /** The case's answers version (a device keeping the case reads it again only when this moved). */
  version: number;
  /** Submitted by the patient through their link, for staff to review and close (decision 057). */
  toReview?: boolean;
}

/** The latest open responses of the survey (online only), each opening its case. */
export function LatestResponses({ surveyId, latest }: { surveyId: number; latest: LatestResponse[] | null }) {
  const { t } = useTranslation();
  return (
    <section className="start-latest" aria-labelledby="start-latest-title">
      <h2 id="start-latest-title">{t("start.latestTitle")}</h2>
      {latest === null ? (
        <p className="hint" role="status">
          {t("start.latestUnavailable")}
        </p>
      ) : latest.length === 0 ? (
        <p className="hint">{t("start.latestEmpty")}</p>
      ) : (
        <ul className="start-latest__list">
          {latest.map((entry) => (
            <li key={entry.patientId} className="start-latest__entry">
              {/* The case itself; its patient's link beside it (decision 057). */}
              <div data-testid="latest-response">
                <Link to={fillPath(surveyId, entry.patientId)} className="start-latest__link">
                  <span className="start-latest__id">{entry.patientId}</span>
                  <span className="visually-hidden">, {t("start.latestModified")}: </span>
                  <time className="start-latest__time" dateTime={entry.modifiedIso}>
                    {entry.modified}
                  </time>
                  {entry.toReview ? (
                    <>
                      <span className="visually-hidden">, </span>
                      <span className="start-latest__review" data-testid="latest-to-review">
                        {t("start.toReview")}
                      </span>
                    </>
                  ) : null}
                </Link>
              </div>
              <Link
                to={`/survey/${surveyId}/links?patientId=${encodeURIComponent(entry.patientId)}`}
                className="start-latest__patient-link"
                aria-label={t("patientLinks.forCase", { patientId: entry.patientId })}
                data-testid="latest-patient-link"
              >
                {t("patientLinks.forPatient")}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
