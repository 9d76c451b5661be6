import { redirect } from "@remix-run/node";
import { z } from "zod";
import { refused } from "./refusals.server";
import type { ApiClient } from "./api-client.server";
import { setFlash } from "./flash.server";

const id = z.coerce.number().int().positive();

/** A move button's post from the Graphs tab (SortableList's fields plus the dashboard). */
export const ChartMoveFormSchema = z.object({
  intent: z.literal("move"),
  kind: z.literal("chart"),
  id,
  dashboardId: id,
  newPosition: z.coerce.number().int().min(0).max(10_000),
});

/**
 * The statistics page's action: moves a chart up or down without JavaScript (with it, the page calls the API
 * itself), then goes back to the same view (filters and benchmark in the query) on the Graphs tab.
 */
export async function statisticsAction(request: Request, api: ApiClient) {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}#graphs`;
  const parsed = ChartMoveFormSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return redirect(back, {
      headers: { "Set-Cookie": await setFlash(request, { kind: "error", key: "errors.validation" }) },
    });
  const move = parsed.data;
  try {
    await api.post(`/statistics-dashboards/${move.dashboardId}/charts/reorder/${move.id}`, {
      query: { newPosition: move.newPosition },
    });
  } catch (error) {
    return refused(request, error, { back });
  }
  return redirect(back);
}
