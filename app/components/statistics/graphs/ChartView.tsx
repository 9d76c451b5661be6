import type { TFunction } from "~/i18n";
import { useTranslation } from "~/texts";
import { DataTable } from "~/components/ui/DataTable";
import { isScoreChart, type Chart } from "~/domain/dashboards";
import {
  axesOf,
  chartModel,
  figureText,
  type AxisKey,
  type ChartModel,
  type ChartNames,
  type Table,
} from "./chart-model";
import type { AxisTitles } from "./plot-frame";
import { BarChart, BoxPlot, LineChart, RADAR_AREA_FROM, RadarChart, ScatterPlot } from "./Plots";

/** An axis's title with its unit: a count, points, a day, or the chosen (preliminary) question's name. */
function axisTitle(t: TFunction, chart: Chart, names: ChartNames, key: AxisKey): string {
  if (key === "preQuestion") return names.preQuestion ?? t("statistics.graphs.preQuestion");
  if (key === "question1" || key === "question2") {
    const q = names[key];
    if (!q) return t(`statistics.graphs.${key}`);
    if (chart.ChartType === "DateTimeRange") return t("statistics.graphs.axis.dateOf", { title: q.Title });
    return q.Unit ? t("statistics.graphs.axis.withUnit", { title: q.Title, unit: q.Unit }) : q.Title;
  }
  return t(`statistics.graphs.axis.${key}`);
}

/** Both axes' titles of a chart, or null for a radar. */
export function axisTitles(t: TFunction, chart: Chart, names: ChartNames): AxisTitles | null {
  const axes = axesOf(chart.ChartType);
  return axes && { x: axisTitle(t, chart, names, axes.x), y: axisTitle(t, chart, names, axes.y) };
}

/** What a chart was set to, said under its title: its preliminary question, or its two questions. */
export function chartAbout(t: TFunction, chart: Chart, names: ChartNames): string | null {
  if (names.preQuestion) return t("statistics.graphs.preQuestionOf", { title: names.preQuestion });
  if (names.question1 && names.question2) {
    const axes = axisTitles(t, chart, names)!;
    return t("statistics.graphs.rangeOf", { first: axes.x, second: axes.y });
  }
  return null;
}

function Figures({ table, name, header }: { table: Table; name: string; header: (key: string) => string }) {
  const { t, i18n } = useTranslation();
  return (
    <details className="graph__figures">
      <summary>{t("statistics.graphs.figures")}</summary>
      {/* Wider than a phone with many columns: it scrolls in its own box, which takes the keyboard focus. */}
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t("statistics.graphs.figuresOf", { name })}>
        <DataTable<Table["rows"][number]>
          caption={t("statistics.graphs.figuresOf", { name })}
          rows={table.rows}
          rowId={(_, i) => String(i)}
          columns={table.headers.map((h, j) => ({
            id: h,
            header: header(h),
            rowHeader: j === 0,
            numeric: typeof table.rows[0]?.[j] === "number",
            sortValue: (row) => row[j],
            cell: (row) => figureText(row[j], i18n.language),
          }))}
        />
      </div>
    </details>
  );
}

function Plot({
  model,
  label,
  axes,
  locale,
}: {
  model: Exclude<ChartModel, { kind: "none" }>;
  label: string;
  axes?: AxisTitles;
  locale: string;
}) {
  if (model.kind === "radar") return <RadarChart axes={model.axes} label={label} />;
  if (model.kind === "scatter")
    return <ScatterPlot points={model.points} dates={model.dates} label={label} axes={axes} locale={locale} />;
  // Days under the drawing as the page writes them.
  const shown = (text: string) => figureText(text, locale);
  if (model.kind === "box")
    return (
      <BoxPlot
        boxes={model.boxes.map((b) => ({ ...b, label: shown(b.label) }))}
        label={label}
        axes={axes}
        locale={locale}
      />
    );
  const points = model.points.map((p) => ({ ...p, label: shown(p.label) }));
  if (model.kind === "line") return <LineChart points={points} label={label} axes={axes} locale={locale} />;
  return <BarChart points={points} label={label} axes={axes} locale={locale} />;
}

/**
 * A chart drawn as SVG with its axes' titles and its figures table as the text alternative; a score chart of
 * a survey without scored questions says so, any other chart without figures "No data available yet".
 */
export function ChartView({
  chart,
  name,
  scored,
  names = {},
  unavailable,
}: {
  chart: Chart;
  name: string;
  /** Whether the chart's survey has scored questions (Dashboard.HasScoredQuestions). */
  scored: boolean;
  /** What the chart was set to (its preliminary question, its questions), for its axes and figures. */
  names?: ChartNames;
  unavailable?: boolean;
}) {
  const { t, i18n } = useTranslation();
  if (!scored && isScoreChart(chart.ChartType))
    return <p className="graph__empty">{t("statistics.graphs.noScoredQuestions")}</p>;
  const model = unavailable ? ({ kind: "none" } as const) : chartModel(chart);
  if (model.kind === "none") return <p className="graph__empty">{t("statistics.graphs.noData")}</p>;
  const axes = axisTitles(t, chart, names) ?? undefined;
  const about = chartAbout(t, chart, names);
  const points = t("statistics.graphs.summaryPoints", { count: model.table.rows.length });
  const label = t("statistics.graphs.chartOf", {
    name: about ? `${name}, ${about}` : name,
    summary: axes ? t("statistics.graphs.summaryAxes", { points, x: axes.x, y: axes.y }) : points,
  });
  const header = (key: string) =>
    key === "question1" || key === "question2"
      ? axisTitle(t, chart, names, key)
      : key === "option" && names.preQuestion
        ? names.preQuestion
        : t(`statistics.graphs.${key}`);
  return (
    <figure className="graph__figure">
      <Plot model={model} label={label} axes={axes} locale={i18n.language} />
      {model.kind === "radar" && model.axes.length < RADAR_AREA_FROM ? (
        <p className="graph__note">{t("statistics.graphs.radarAsLine", { count: model.axes.length })}</p>
      ) : null}
      <Figures table={model.table} name={name} header={header} />
    </figure>
  );
}
