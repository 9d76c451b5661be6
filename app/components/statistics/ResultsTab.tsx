import { Form, Link } from "@remix-run/react";
import { useContext } from "react";
import { useTranslation } from "~/texts";
import type { BenchmarkStatistics, CategoryStatistics, QuestionStatistics, Statistics } from "~/domain/statistics";
import { QuestionStats } from "./QuestionStats";
import { ScoreBadge } from "./ScoreBadge";
import { ScoreTotalBlock } from "./ScoreTotalBlock";
import { LabelLanguage, useLabelLanguage } from "./LanguageChoice";
import { downloadPath, viewHref, writeView, type StatisticsView } from "~/domain/statistics-view";

/** The benchmark survey's top-level questions by the id of the question they pair with. */
function pairedQuestions(benchmark: BenchmarkStatistics | null): Map<number, QuestionStatistics> {
  const map = new Map<number, QuestionStatistics>();
  for (const c of benchmark?.CategoryStatistics ?? []) {
    for (const q of c.QuestionStatistics) if (q.PairedId) map.set(q.PairedId, q);
  }
  return map;
}

/**
 * A display switch: a button with role="switch" that sends the view with its setting flipped as a GET form,
 * so the address keeps the state (a bookmark opens the same view) and it works without JavaScript; Space and
 * Enter press it as any button. With JavaScript the page's router makes the request and focus stays here.
 */
function Toggle({
  on,
  view,
  change,
  label,
}: {
  on: boolean;
  view: StatisticsView;
  change: Partial<StatisticsView>;
  label: string;
}) {
  const next = [...writeView({ ...view, ...change }).entries()];
  return (
    <Form method="get" className="toggle-form" preventScrollReset replace>
      {next.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" role="switch" aria-checked={on} className={`toggle${on ? " toggle--on" : ""}`}>
        <span className="toggle__track" aria-hidden="true" />
        {label}
      </button>
    </Form>
  );
}

/** The results tab: export, display toggles, the category sidebar with score flags, each question's figures. */
export function ResultsTab({
  statistics,
  view,
  several,
}: {
  statistics: Statistics;
  view: StatisticsView;
  /** Ids of the questions that take several answers. */
  several: number[];
}) {
  const { t } = useTranslation();
  const label = useLabelLanguage();
  const language = useContext(LabelLanguage);
  const takesSeveral = new Set(several);
  const categories = statistics.CategoryStatistics;
  const current: CategoryStatistics | undefined =
    categories.find((c) => c.CategoryId === view.category) ?? categories[0];
  const benchmark = statistics.Benchmark;
  const others = pairedQuestions(benchmark);
  const otherCategory = benchmark?.CategoryStatistics.find((c) => c.PairedId === current?.CategoryId) ?? null;
  const hasFreeText = categories.some((c) => c.QuestionStatistics.some((q) => q.Type === 5));
  return (
    <div className="results">
      <div className="results__toolbar">
        <Form method="post" action={downloadPath(statistics.SurveyId, view)} reloadDocument>
          <input type="hidden" name="intent" value="export" />
          {language ? <input type="hidden" name="language" value={language} /> : null}
          <button type="submit" className="btn">
            {t("statistics.export")}
          </button>
        </Form>
        <Form method="post" action={downloadPath(statistics.SurveyId, view)} reloadDocument>
          <input type="hidden" name="intent" value="fhir" />
          <button type="submit" className="btn">
            {t("statistics.exportFhir")}
          </button>
        </Form>
        <Toggle
          on={view.percent}
          view={view}
          change={{ percent: !view.percent }}
          label={t("statistics.toggle.percent")}
        />
        <Toggle on={view.pie} view={view} change={{ pie: !view.pie }} label={t("statistics.toggle.pie")} />
        {hasFreeText ? (
          <Toggle on={view.cloud} view={view} change={{ cloud: !view.cloud }} label={t("statistics.toggle.cloud")} />
        ) : null}
      </div>
      {statistics.ScoreTotal ? (
        <ScoreTotalBlock total={statistics.ScoreTotal} other={benchmark?.ScoreTotal ?? null} />
      ) : null}
      {categories.length === 0 ? (
        <p className="empty">{t("statistics.noQuestions")}</p>
      ) : (
        <div className="results__body">
          <nav className="results__nav" aria-label={t("statistics.categories")}>
            <ul>
              {categories.map((c) => (
                <li key={c.CategoryId}>
                  <Link
                    to={viewHref(view, { category: c.CategoryId }) + "#results"}
                    preventScrollReset
                    aria-current={c.CategoryId === current?.CategoryId ? "page" : undefined}
                    className="results__cat"
                  >
                    <span {...label}>{c.CategoryText}</span>
                    {c.IsScoredCategory ? (
                      <ScoreBadge
                        flag={c.ScoreFlag}
                        percentage={c.ScorePercentage}
                        result={c.ScoreResult}
                        max={c.ScoreMax}
                        percent={view.percent}
                      />
                    ) : null}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {current ? (
            <section className="results__category" aria-labelledby="results-category">
              <header className="results__category-head">
                <h2 id="results-category" {...label}>
                  {current.CategoryText}
                </h2>
                {current.IsScoredCategory ? (
                  <ScoreBadge
                    flag={current.ScoreFlag}
                    percentage={current.ScorePercentage}
                    result={current.ScoreResult}
                    max={current.ScoreMax}
                    percent={view.percent}
                  />
                ) : null}
                {benchmark && otherCategory?.IsScoredCategory ? (
                  <span className="qstat__bench">
                    {t("statistics.benchmark.short")}:{" "}
                    <ScoreBadge
                      flag={otherCategory.ScoreFlag}
                      percentage={otherCategory.ScorePercentage}
                      result={otherCategory.ScoreResult}
                      max={otherCategory.ScoreMax}
                      percent={view.percent}
                    />
                  </span>
                ) : null}
              </header>
              {current.QuestionStatistics.map((q) => (
                <QuestionStats
                  key={q.QuestionId}
                  q={q}
                  other={others.get(q.QuestionId) ?? null}
                  benchmarking={benchmark !== null}
                  view={view}
                  several={takesSeveral}
                />
              ))}
            </section>
          ) : null}
        </div>
      )}
    </div>
  );
}
