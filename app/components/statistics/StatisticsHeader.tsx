import { Link } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { StatusLabel } from "~/components/surveys/StatusLabel";
import { SurveyDates } from "~/components/surveys/SurveyRow";
import { Hyphenated } from "~/components/ui/Hyphenated";
import { useTabHash } from "~/components/ui/HashTabs";
import type { SurveyStatus } from "~/domain/survey-status";
import { useLabelLanguage } from "./LanguageChoice";

interface HeaderProps {
  survey: { Title: string; StartDate: string; EndDate: string; Status: SurveyStatus; TargetNumberOfResponses: number };
  completed: number;
  benchmarkTitle: string | null;
  /** Opens the benchmark modal, or (while benchmarking) resets the benchmark; on the tab it is pressed on. */
  benchmarkHref: string;
}

/** Title, period, coloured status, the benchmark button and the completed count against the target. */
export function StatisticsHeader({ survey, completed, benchmarkTitle, benchmarkHref }: HeaderProps) {
  const { t } = useTranslation();
  const label = useLabelLanguage();
  const hash = useTabHash();
  return (
    <header className="stats-head">
      <div className="stats-head__title">
        <h1 {...label}>
          <Hyphenated text={survey.Title} />
        </h1>
        <StatusLabel status={survey.Status} />
      </div>
      <p className="stats-head__meta">
        {survey.StartDate || survey.EndDate ? <SurveyDates start={survey.StartDate} end={survey.EndDate} /> : null}
        <span className="stats-head__count">
          {t("statistics.completed", { count: completed, target: survey.TargetNumberOfResponses })}
        </span>
      </p>
      <Link to={`${benchmarkHref}${hash}`} preventScrollReset className={`btn${benchmarkTitle ? " btn--primary" : ""}`}>
        {benchmarkTitle
          ? t("statistics.benchmark.active", { title: benchmarkTitle })
          : t("statistics.benchmark.button")}
      </Link>
    </header>
  );
}
