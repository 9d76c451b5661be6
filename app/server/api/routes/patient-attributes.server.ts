import {
  createPatientAttribute,
  deletePatientAttribute,
  reorderPatientAttribute,
  reorderPatientAttributeAnswer,
  updatePatientAttribute,
} from "~/server/services/editing/patient-form.server";
import { patientAttributesApi } from "~/contracts/patient-attributes";
import { alias, route } from "../route.server";
import { surveyCaller } from "../schemas.server";

const create = route(patientAttributesApi.create, ({ deps, caller, body }) =>
  createPatientAttribute(deps.db, surveyCaller(caller), body),
);

export const patientAttributeRoutes = [
  create,
  alias(create, "/patient-attributes", "The same as POST /patient-attributes/"),
  route(patientAttributesApi.update, ({ deps, caller, params, body }) =>
    updatePatientAttribute(deps.db, surveyCaller(caller), params.id, body),
  ),
  route(patientAttributesApi.remove, ({ deps, caller, params, query }) =>
    deletePatientAttribute(deps.db, surveyCaller(caller), query.surveyId, params.id),
  ),
  route(patientAttributesApi.reorder, ({ deps, caller, params, query }) =>
    reorderPatientAttribute(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  ),
  route(patientAttributesApi.reorderOption, ({ deps, caller, params, query }) =>
    reorderPatientAttributeAnswer(deps.db, surveyCaller(caller), query.surveyId, params.id, query.newPosition),
  ),
];
