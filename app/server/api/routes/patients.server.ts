import { patientsApi } from "~/contracts/patients";
import {
  addPatient,
  autocompletePatients,
  closePatient,
  latestPatients,
  patientRecord,
  setCaseLanguage,
} from "~/server/services/fill/patients.server";
import { route } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const patientRoutes = [
  route(patientsApi.autocomplete, ({ deps, caller, query }) =>
    autocompletePatients(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  ),
  route(patientsApi.latest, ({ deps, caller, query }) =>
    latestPatients(deps.db, surveyCaller(caller), query.surveyId, query.count),
  ),
  route(patientsApi.record, ({ deps, caller, query }) =>
    patientRecord(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  ),
  route(patientsApi.add, ({ deps, caller, query }) =>
    addPatient(deps.db, surveyCaller(caller), {
      surveyId: query.surveyId,
      patientId: query.patientId,
      language: query.language,
    }),
  ),
  route(patientsApi.language, async ({ deps, caller, query, body }) =>
    setCaseLanguage(
      deps.db,
      surveyCaller(caller),
      { surveyId: query.surveyId, patientId: query.patientId },
      body.Language,
    ),
  ),
  route(patientsApi.close, async ({ deps, caller, query }) =>
    closePatient(deps.db, surveyCaller(caller), { surveyId: query.surveyId, patientId: query.patientId }),
  ),
];
