import { useTranslation } from "react-i18next";
import { DataTable } from "~/components/ui/DataTable";
import { isScoreChart, type Chart } from "~/domain/dashboards";
import { chartModel, type ChartModel, type Table } from "./chart-model";
import { BarChart, BoxPlot, LineChart, RADAR_AREA_FROM, RadarChart } from "./Plots";

function Figures({ table, name }: { table: Table; name: string }) {
  const { t } = useTranslation();
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
            header: t(`statistics.graphs.${h}`),
            rowHeader: j === 0,
            sortValue: (row) => row[j],
          }))}
        />
      </div>
    </details>
  );
}

function Plot({ model, label }: { model: Exclude<ChartModel, { kind: "none" }>; label: string }) {
  if (model.kind === "radar") return <RadarChart axes={model.axes} label={label} />;
  if (model.kind === "box") return <BoxPlot boxes={model.boxes} label={label} />;
  if (model.kind === "line") return <LineChart points={model.points} label={label} />;
  return <BarChart points={model.points} label={label} />;
}

/**
 * A chart drawn as SVG with its figures table as the text alternative; a score chart of a survey without
 * scored questions says so, any other chart without figures "No data available yet".
 */
export function ChartView({
  chart,
  name,
  scored,
  unavailable,
}: {
  chart: Chart;
  name: string;
  /** Whether the chart's survey has scored questions (Dashboard.HasScoredQuestions). */
  scored: boolean;
  unavailable?: boolean;
}) {
  const { t } = useTranslation();
  if (!scored && isScoreChart(chart.ChartType))
    return <p className="graph__empty">{t("statistics.graphs.noScoredQuestions")}</p>;
  const model = unavailable ? ({ kind: "none" } as const) : chartModel(chart);
  if (model.kind === "none") return <p className="graph__empty">{t("statistics.graphs.noData")}</p>;
  const label = t("statistics.graphs.chartOf", {
    name,
    summary: t("statistics.graphs.summaryPoints", { count: model.table.rows.length }),
  });
  return (
    <figure className="graph__figure">
      <Plot model={model} label={label} />
      {model.kind === "radar" && model.axes.length < RADAR_AREA_FROM ? (
        <p className="graph__note">{t("statistics.graphs.radarAsLine", { count: model.axes.length })}</p>
      ) : null}
      <Figures table={model.table} name={name} />
    </figure>
  );
}
