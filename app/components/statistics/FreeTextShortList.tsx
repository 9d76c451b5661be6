import { Link } from "@remix-run/react";
import { useTranslation } from "~/texts";
import type { QuestionStatistics } from "~/domain/statistics";

/** The short list has 12 slots and shows 11 answers; the 12th is the way to the rest (section 9). */
export const SHORT_LIST_SHOWN = 11;
/** From this many answers on, the short list is dimmed towards its end: there is more to read. */
export const SHORT_LIST_DIM_AT = 17;

/** The latest free-text answers of a question, and the way to all of them. */
export function FreeTextShortList({ q, detailsHref }: { q: QuestionStatistics; detailsHref: string }) {
  const { t } = useTranslation();
  const shown = q.Responses.slice(0, SHORT_LIST_SHOWN);
  const dimmed = q.TotalQuestionResponses >= SHORT_LIST_DIM_AT;
  return (
    <div className={`freetext${dimmed ? " freetext--dimmed" : ""}`}>
      {shown.length === 0 ? (
        <p className="freetext__empty">{t("statistics.freeText.none")}</p>
      ) : (
        <ul className="freetext__list">
          {shown.map((r, i) => (
            <li key={`${r.PatientId}-${i}`} className="freetext__item">
              {r.Response}
            </li>
          ))}
        </ul>
      )}
      {q.TotalQuestionResponses > 0 ? (
        <Link className="freetext__more btn btn--small" to={detailsHref} preventScrollReset>
          {t("statistics.freeText.details", { count: q.TotalQuestionResponses })}
        </Link>
      ) : null}
    </div>
  );
}
