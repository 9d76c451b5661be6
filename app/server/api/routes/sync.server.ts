import { syncApi } from "~/contracts/sync";
import { IDEMPOTENCY_HEADER } from "~/domain/offline-sync";
import { syncOfflineFill } from "~/server/services/sync/offline-sync.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const syncRoutes = [
  route(syncApi.sync, ({ deps, caller, params, headers, body }) =>
    syncOfflineFill(deps.db, surveyCaller(caller), {
      surveyId: params.surveyId,
      key: headers[IDEMPOTENCY_HEADER] ?? null,
      payload: body,
    }),
  ),
];
