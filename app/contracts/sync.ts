import { z } from "~/domain/zod";
import {
  IDEMPOTENCY_HEADER,
  IdempotencyKeySchema,
  OfflineSyncRequestSchema,
  OfflineSyncResultSchema,
} from "~/domain/offline-sync";
import { idParam } from "./params";
import { contract } from "./contract";

export const syncApi = {
  sync: contract({
    method: "post",
    path: "/survey-offline-sync/:surveyId",
    errors: [
      "SURVEY_NOT_FOUND",
      "SYNC_SURVEY_INVALID_STATUS",
      "SYNC_SURVEY_OUTDATED_HASH",
      "SYNC_SURVEY_ALREADY_CLOSED",
      "SYNC_SURVEY_PATIENTID_CLASH",
      "SYNC_IDEMPOTENCY_KEY_REUSED",
      "SYNC_FILL_OTHER_AUTHOR",
    ],
    tag: "Offline sync",
    summary:
      "Apply one offline fill to its case in one transaction; answers the case's PatientDataId. " +
      "409 SYNC_SURVEY_INVALID_STATUS (survey not Active), SYNC_SURVEY_OUTDATED_HASH (survey changed), " +
      "SYNC_SURVEY_ALREADY_CLOSED, SYNC_SURVEY_PATIENTID_CLASH (an Open case and Overwrite false); " +
      "Overwrite replaces the Open case's answers; Close submits it, except in a survey that requires an " +
      "electronic signature: then the answers are saved, the case stays Open and the answer says " +
      "SignatureRequired. A repeated request with the same " +
      "Idempotency-Key answers the first one's result and changes nothing (422 SYNC_IDEMPOTENCY_KEY_REUSED " +
      "when the key was used for another fill). A fill whose AuthorId names another person than the caller is " +
      "refused (403 SYNC_FILL_OTHER_AUTHOR)",
    params: z.object({ surveyId: idParam }),
    headers: z.object({
      [IDEMPOTENCY_HEADER]: IdempotencyKeySchema.optional().describe(
        "A client-made id of the fill, the same on every retry of it",
      ),
    }),
    body: OfflineSyncRequestSchema,
    response: OfflineSyncResultSchema,
  }),
};
