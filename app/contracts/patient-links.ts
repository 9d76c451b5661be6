import { z } from "~/domain/zod";
import { PatientIdSchema } from "~/domain/fill-requests";
import { CreateLinkSchema, MadeLinkSchema, PatientLinkSchema, RenewLinkSchema } from "~/domain/patient-link-requests";
import { contract } from "./contract";
import { IdParams, idParam } from "./params";

const tag = "Patient links";

/**
 * One-time links through which a patient answers a case on their own device (decision 057), for those who
 * may fill the survey. The link's own caller reaches the case's answer endpoints under /l/api.
 */
export const patientLinksApi = {
  create: contract({
    method: "post",
    path: "/patient-links",
    errors: ["SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ALREADY_CLOSED", "SURVEY_PATIENTID_EXISTS"],
    // Not kept under an Idempotency-Key: its answer holds the token and the code, which are stored nowhere in
    // plain, and a kept answer would be such a place. A second link made by a repeated request is harmless
    // (staff see both and revoke one); staff's page sends its form once (its form key).
    tag,
    summary:
      "A link for the patient id's Open case (a new case when it names none) in an Active survey; the token and code are answered once",
    body: CreateLinkSchema,
    response: MadeLinkSchema,
    status: 201,
  }),
  list: contract({
    method: "get",
    path: "/patient-links",
    errors: ["SURVEY_NOT_FOUND"],
    tag,
    summary: "The links of a survey's case (or of all its cases), newest first, with their states",
    query: z.object({ surveyId: idParam, patientId: PatientIdSchema.optional() }),
    response: z.array(PatientLinkSchema),
  }),
  revoke: contract({
    method: "post",
    path: "/patient-links/:id/revoke",
    errors: ["NOT_FOUND", "SURVEY_NOT_FOUND", "LINK_NOT_LIVE"],
    tag,
    summary: "Revokes a live link: its address, code and cookie stop working at once",
    params: IdParams,
    response: PatientLinkSchema,
  }),
  renew: contract({
    method: "post",
    path: "/patient-links/:id/renew",
    errors: ["NOT_FOUND", "SURVEY_NOT_FOUND", "SURVEY_INVALID_STATUS", "SURVEY_ALREADY_CLOSED", "LINK_NOT_LIVE"],
    tag,
    summary:
      "A new link for the same case in place of this one (which is revoked): new token, code and expiry, answered once",
    params: IdParams,
    body: RenewLinkSchema,
    response: MadeLinkSchema,
    status: 201,
  }),
};
