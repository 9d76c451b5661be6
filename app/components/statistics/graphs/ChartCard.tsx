import { useState, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { isRangeChart, isScoreChart, type Chart, type Dashboard } from "~/domain/dashboards";
import { ChartEditor, type ChartChoice } from "./ChartEditor";
import { chartAbout, ChartView } from "./ChartView";
import { choicesFor, namesOf, needsChoice } from "./chart-model";

export const chartName = (t: (k: string) => string, chart: Chart) =>
  t(`statistics.graphs.types.${chart.ChartType}.name`);

/**
 * One chart of the dashboard: its title, edit and delete (both off while benchmarking), the reorder handle,
 * the drawing with its figures, and beside it the benchmark survey's drawing of the same chart.
 */
export function ChartCard({
  chart,
  benchmark,
  choices,
  scored,
  benchmarkScored,
  handle,
  locked,
  onSave,
  onDelete,
}: {
  chart: Chart;
  benchmark: Chart | null;
  choices: Dashboard["Choices"];
  /** Whether this survey and the benchmark survey have scored questions. */
  scored: boolean;
  benchmarkScored: boolean;
  handle: ReactNode;
  locked: boolean;
  onSave: (choice: ChartChoice) => Promise<boolean>;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const name = chartName(t, chart);
  const options = choicesFor(chart, choices);
  // The benchmark survey's chart is the same chart over its questions at the same places: the same names.
  const names = namesOf(chart, choices);
  const about = chartAbout(t, chart, names);
  const editable = isRangeChart(chart.ChartType) || chart.ChartType.endsWith("PreQuestion");
  // Section 5: a range chart needs at least two questions of its kind; otherwise there is nothing to draw.
  // A score chart of a survey without scored questions has nothing to choose for either.
  const unavailable =
    (isRangeChart(chart.ChartType) ? options.length < 2 : editable && options.length === 0) ||
    (!scored && isScoreChart(chart.ChartType));
  const [editing, setEditing] = useState(false);
  const open = editable && !unavailable && !locked && (editing || needsChoice(chart));
  return (
    <article className="graph" aria-label={name}>
      <header className="graph__head">
        {handle}
        {/* Focused when the chart before it is deleted. */}
        <h3 id={`chart-title-${chart.Id}`} tabIndex={-1}>
          {name}
        </h3>
        <div className="graph__actions">
          {editable ? (
            <button
              type="button"
              className="btn btn--small"
              disabled={locked || unavailable || open}
              aria-label={t("statistics.graphs.editOf", { name })}
              onClick={() => setEditing(true)}
            >
              {t("statistics.graphs.edit")}
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn--small"
            disabled={locked}
            aria-label={t("statistics.graphs.deleteOf", { name })}
            onClick={onDelete}
          >
            {t("statistics.graphs.delete")}
          </button>
        </div>
      </header>
      {about ? <p className="graph__about">{about}</p> : null}
      {open ? (
        <ChartEditor
          key={`${chart.QuestionId1}-${chart.QuestionId2}-${chart.AttributeId}`}
          chart={chart}
          options={options}
          onCancel={needsChoice(chart) ? null : () => setEditing(false)}
          onSave={(choice) => void onSave(choice).then((ok) => ok && setEditing(false))}
        />
      ) : null}
      <div className={benchmark ? "graph__pair" : undefined}>
        <section aria-label={benchmark ? t("statistics.graphs.main") : undefined}>
          {benchmark ? <h4>{t("statistics.graphs.main")}</h4> : null}
          <ChartView
            chart={chart}
            name={name}
            scored={scored}
            names={names}
            unavailable={unavailable || needsChoice(chart)}
          />
        </section>
        {benchmark ? (
          <section aria-label={t("statistics.graphs.benchmark")}>
            <h4>{t("statistics.graphs.benchmark")}</h4>
            <ChartView
              chart={benchmark}
              name={`${name} (${t("statistics.graphs.benchmark")})`}
              scored={benchmarkScored}
              names={names}
            />
          </section>
        ) : null}
      </div>
    </article>
  );
}
