import { callApi, type ApiResult } from "~/api-client";
import { dashboardsApi } from "~/contracts/dashboards";
import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { SortableList } from "~/components/editor/SortableList";
import { useToast } from "~/components/ui/Toaster";
import { useHydrated } from "~/components/ui/useHydrated";
import { useRefusal } from "~/components/ui/useRefusal";
import type { Chart, ChartType, Dashboard } from "~/domain/dashboards";
import type { StatisticsFilters } from "~/domain/statistics";
import { AddChartModal } from "./AddChartModal";
import { ChartCard, chartName } from "./ChartCard";
import type { ChartChoice } from "./ChartEditor";
import { DeleteChartDialog } from "./DeleteChartDialog";

/**
 * The Graphs tab: the survey's dashboard of charts. Add is off while benchmarking or loading; reorder, edit
 * and delete are off while benchmarking (section 2). Changes go to the API and the page reloads its data.
 * Deleting asks first; once done, the focus goes to the chart that takes the deleted one's place.
 */
export function GraphsTab({
  dashboard,
  benchmark,
  filters,
}: {
  dashboard: Dashboard;
  benchmark: Dashboard | null;
  filters: StatisticsFilters;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const toast = useToast();
  const refuse = useRefusal();
  const revalidator = useRevalidator();
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<Chart | null>(null);
  /** Where the focus goes once a chart is deleted: the title of the chart in its place, or Add. */
  const [focusTo, setFocusTo] = useState<number | "add" | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const locked = benchmark !== null;
  const loading = !hydrated || busy || revalidator.state !== "idle";
  const id = dashboard.Id;

  const run = async (call: () => Promise<ApiResult<unknown>>) => {
    setBusy(true);
    const result = await call();
    setBusy(false);
    if (!result.ok) {
      refuse(result, { key: "statistics.graphs.failed" });
      return false;
    }
    revalidator.revalidate();
    return true;
  };
  const add = async (types: ChartType[]) => {
    setAdding(false);
    const body = { ChartAddRequests: types.map((ChartType) => ({ ChartType })), Filters: filters };
    await run(() => callApi(dashboardsApi.addCharts, { params: { id }, body }));
  };
  const save = (chartId: number, choice: ChartChoice) =>
    run(() => callApi(dashboardsApi.updateChart, { params: { id, chartId }, body: { ...choice, Filters: filters } }));
  const remove = async (chart: Chart) => {
    setDeleting(null);
    const at = dashboard.Charts.findIndex((c) => c.Id === chart.Id);
    const next = dashboard.Charts[at + 1] ?? dashboard.Charts[at - 1];
    if (!(await run(() => callApi(dashboardsApi.removeChart, { params: { id, chartId: chart.Id } })))) return;
    toast("success", t("statistics.graphs.deleted", { name: chartName(t, chart) }));
    setFocusTo(next ? next.Id : "add");
  };
  useEffect(() => {
    if (focusTo === null) return;
    // Add is off while the page reloads its data: focused once it is back.
    if (focusTo === "add" && loading) return;
    const target = focusTo === "add" ? addButton.current : document.getElementById(`chart-title-${focusTo}`);
    target?.focus();
    setFocusTo(null);
  }, [focusTo, loading]);

  return (
    <div className="graphs" aria-busy={loading}>
      <div className="graphs__toolbar">
        <button
          ref={addButton}
          type="button"
          className="btn btn--primary"
          disabled={locked || loading}
          onClick={() => setAdding(true)}
        >
          {t("statistics.graphs.add")}
        </button>
      </div>
      {dashboard.Charts.length === 0 ? (
        // While benchmarking nothing can be added, so the empty dashboard does not invite to add one.
        <p className="empty">{t(locked ? "statistics.graphs.empty" : "statistics.graphs.noCharts")}</p>
      ) : null}
      <SortableList
        items={dashboard.Charts}
        getId={(c) => c.Id}
        getLabel={(c) => chartName(t, c)}
        kind="chart"
        label={t("statistics.graphs.reorderHint")}
        disabled={locked}
        className="graphs__list"
        formFields={{ dashboardId: dashboard.Id }}
        onMove={({ id: chartId, newPosition }) =>
          run(() => callApi(dashboardsApi.reorderChart, { params: { id, chartId }, query: { newPosition } }))
        }
        renderItem={(chart, handle) => (
          <ChartCard
            chart={chart}
            benchmark={benchmark?.Charts.find((c) => c.Id === chart.Id) ?? null}
            choices={dashboard.Choices}
            scored={dashboard.HasScoredQuestions}
            benchmarkScored={benchmark?.HasScoredQuestions ?? false}
            handle={handle}
            locked={locked}
            onSave={(choice) => save(chart.Id, choice)}
            onDelete={() => setDeleting(chart)}
          />
        )}
      />
      {adding ? <AddChartModal onClose={() => setAdding(false)} onAdd={(types) => void add(types)} /> : null}
      {deleting ? (
        <DeleteChartDialog
          name={chartName(t, deleting)}
          onCancel={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        />
      ) : null}
    </div>
  );
}
