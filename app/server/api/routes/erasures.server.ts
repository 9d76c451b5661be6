import { erasurePreview, eraseOnRequest } from "~/server/services/erasure/erasure-requests.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { patientDataOf } from "~/server/services/erasure/patient-data.server";
import { retentionPreview } from "~/server/services/erasure/retention.server";
import { erasuresApi } from "~/contracts/erasures";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

/** Erasing a patient id's case, for the survey's approvers (docs/decisions/042-retention-and-erasure.md). */
export const erasureRoutes: AnyRoute[] = [
  route(erasuresApi.preview, ({ deps, caller, query }) =>
    erasurePreview(deps.db, erasureKey(deps.env), surveyCaller(caller), query.surveyId, query.patientId),
  ),
  route(erasuresApi.erase, ({ deps, caller, body }) =>
    eraseOnRequest(deps.db, deps.attachments, erasureKey(deps.env), surveyCaller(caller), body),
  ),
  route(erasuresApi.retentionPreview, ({ deps, caller, query }) =>
    retentionPreview(deps.db, surveyCaller(caller), query.surveyId, query.months),
  ),
  route(erasuresApi.patientData, ({ deps, caller, query }) =>
    patientDataOf(deps.db, erasureKey(deps.env), surveyCaller(caller), query.surveyId, query.patientId),
  ),
];
