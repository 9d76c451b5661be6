import { Link } from "@remix-run/react";
import { canFill } from "~/domain/start-state";
import { useTranslation } from "~/texts";
import type { SurveyListEntry } from "~/domain/survey";
import { Highlight } from "~/components/ui/Highlight";
import { Menu } from "~/components/ui/Menu";
import { useRovingRow } from "~/components/ui/useRovingRow";
import { useOnline } from "~/offline/connectivity";
import { Initial, StatusLabel } from "./StatusLabel";

export function SurveyDates({ start, end }: { start: string; end: string }) {
  const { t } = useTranslation();
  // A period open at one end says so in words, never with a dash that leads nowhere.
  const text =
    start && end
      ? t("surveys.dates", { start, end })
      : start
        ? t("surveys.datesFrom", { start })
        : end
          ? t("surveys.datesUntil", { end })
          : t("surveys.noDates");
  return <span className="row__dates">{text}</span>;
}

/** One survey in the list: first letter, highlighted title, period, status and the row menu of section 2. */
export function SurveyRow({
  survey,
  q,
  isEditor,
  confirmHref,
  offline,
}: {
  survey: SurveyListEntry;
  q: string;
  isEditor: boolean;
  confirmHref: (kind: string) => string;
  offline: { downloaded: boolean; downloading: boolean; download: () => void };
}) {
  const { t } = useTranslation();
  const online = useOnline();
  const analyst = survey.Rights.CanEdit || survey.Rights.CanApprove;
  const fillable = canFill(survey);
  const offlineProps = online
    ? {}
    : { "aria-disabled": true, tabIndex: -1, onClick: (e: { preventDefault(): void }) => e.preventDefault() };
  const unavailable = !online && !offline.downloaded;
  // One Tab stop per survey: its title, and the arrow keys to its menu.
  const row = useRovingRow<HTMLDivElement>(survey.Title, !unavailable);
  return (
    <li
      data-testid="survey-row"
      data-title={survey.Title}
      data-survey-id={survey.Id}
      data-downloaded={offline.downloaded}
      aria-disabled={unavailable || undefined}
      title={unavailable ? t("offline.notDownloaded") : undefined}
    >
      <div className={`row${unavailable ? " row--disabled" : ""}`} {...row}>
        <Initial title={survey.Title} />
        <div className="row__main">
          {unavailable ? (
            <span className="row__title">
              <Highlight text={survey.Title} query={q} />
            </span>
          ) : (
            <Link to={`/survey/${survey.Id}`} className="row__title row__title--link" data-testid="row-title">
              <Highlight text={survey.Title} query={q} />
            </Link>
          )}
          <SurveyDates start={survey.StartDate} end={survey.EndDate} />
        </div>
        <div className="row__state">
          {offline.downloading ? (
            <span
              className="spinner"
              role="status"
              aria-label={t("offline.downloading")}
              data-testid="row-downloading"
            />
          ) : offline.downloaded ? (
            <span className="row__ready" role="img" aria-label={t("offline.downloaded")} data-testid="row-ready">
              ✓
            </span>
          ) : null}
          <StatusLabel status={survey.Status} />
        </div>
        {unavailable ? (
          <span className="visually-hidden">{t("offline.notDownloaded")}</span>
        ) : (
          <Menu label={t("surveys.rowMenu", { title: survey.Title })}>
            {analyst ? (
              <Link to={`/survey/${survey.Id}/edit`} className="menu__item" {...offlineProps}>
                {t("surveys.edit")}
              </Link>
            ) : null}
            {fillable ? (
              <Link to={`/survey/${survey.Id}`} className="menu__item">
                {t("surveys.complete")}
              </Link>
            ) : (
              // Never an empty menu: the start page says why the survey cannot be filled in now.
              <Link to={`/survey/${survey.Id}`} className="menu__item">
                {t("surveys.openStart")}
              </Link>
            )}
            {fillable && online ? (
              <button
                type="button"
                className="menu__item"
                disabled={offline.downloading}
                onClick={offline.download}
                data-testid="row-download"
              >
                {t("offline.download")}
              </button>
            ) : null}
            {analyst ? (
              <Link to={`/survey/${survey.Id}/statistics`} className="menu__item" {...offlineProps}>
                {t("surveys.statistics")}
              </Link>
            ) : null}
            {isEditor ? (
              <Link to={confirmHref(`clone:${survey.Id}`)} className="menu__item" preventScrollReset {...offlineProps}>
                {t("surveys.clone")}
              </Link>
            ) : null}
            {isEditor && survey.Rights.CanEdit ? (
              <Link
                to={confirmHref(`archive:${survey.Id}`)}
                className="menu__item"
                preventScrollReset
                {...offlineProps}
              >
                {t("surveys.archiveAction")}
              </Link>
            ) : null}
          </Menu>
        )}
      </div>
    </li>
  );
}
