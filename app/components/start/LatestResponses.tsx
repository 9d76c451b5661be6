import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { fillPath } from "~/domain/start-state";

export interface LatestResponse {
  patientId: string;
  /** ISO timestamp of the last change. */
  modifiedIso: string;
  /** The same time as DD.MM.YYYY HH:mm:ss. */
  modified: string;
  /** The case's answers version (a device keeping the case reads it again only when this moved). */
  version: number;
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
            <li key={entry.patientId} data-testid="latest-response">
              <Link to={fillPath(surveyId, entry.patientId)} className="start-latest__link">
                <span className="start-latest__id">{entry.patientId}</span>
                <span className="visually-hidden">, {t("start.latestModified")}: </span>
                <time className="start-latest__time" dateTime={entry.modifiedIso}>
                  {entry.modified}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
