import { dashboardsApi } from "~/contracts/dashboards";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { parseForm } from "~/domain/forms";
import { badForm, refused } from "./refusals.server";
import type { ApiClient } from "./api-client.server";
import { IdSchema } from "~/domain/id-schema";

const id = IdSchema;

/** A move button's post from the Graphs tab (SortableList's fields plus the dashboard). */
export const ChartMoveFormSchema = z.object({
  intent: z.literal("move"),
  kind: z.literal("chart"),
  id,
  dashboardId: id,
  newPosition: z.number().int().min(0).max(10_000),
});

/**
 * The statistics page's action: moves a chart up or down without JavaScript (with it, the page calls the API
 * itself), then goes back to the same view (filters and benchmark in the query) on the Graphs tab.
 */
export async function statisticsAction(request: Request, api: ApiClient) {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}#graphs`;
  const submission = parseForm(await request.formData(), ChartMoveFormSchema);
  if (submission.status !== "success") return badForm(request, back);
  const move = submission.value;
  try {
    await api.call(dashboardsApi.reorderChart, {
      params: { id: move.dashboardId, chartId: move.id },
      query: { newPosition: move.newPosition },
    });
  } catch (error) {
    return refused(request, error, { back, notFound: back });
  }
  return redirect(back);
}
