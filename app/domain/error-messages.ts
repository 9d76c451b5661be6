import type { ErrorType } from "./errors";

/**
 * The one map from the API's error type (section 8) to the locale key of its message, used by the pages
 * on the server and in the browser alike. Every type of the catalogue has its own entry.
 */
export const errorMessageKeys: Record<ErrorType, string> = {
  VALIDATION_ERROR: "errors.validation",
  UNAUTHORIZED: "errors.unauthorized",
  FORBIDDEN: "errors.forbidden",
  TOS_NOT_ACCEPTED: "errors.tosNotAccepted",
  PRELIMINARY_BY_STAFF: "errors.preliminaryByStaff",
  NOT_FOUND: "errors.notFound",
  SURVEY_NOT_FOUND: "errors.surveyNotFound",
  SURVEY_PATIENTID_NOT_FOUND: "fill.patientNotFound",
  SURVEY_PATIENTID_EXISTS: "errors.patientIdExists",
  SURVEY_INVALID_STATUS: "errors.invalidStatus",
  CASE_ALREADY_ERASED: "errors.caseAlreadyErased",
  SURVEY_EXISTING_QUESTION_RESPONSE: "errors.existingResponses",
  SURVEY_ALREADY_CLOSED: "fill.surveyCantBeFilledAlreadyClosed",
  SURVEY_ANSWER_OPTION_EXISTS: "errors.answerOptionExists",
  SIGNATURE_REQUIRED: "fill.signatureRequired",
  LINK_NOT_LIVE: "links.errors.notLive",
  SYNC_SURVEY_PATIENTID_CLASH: "offline.errors.SYNC_SURVEY_PATIENTID_CLASH",
  SYNC_SURVEY_ALREADY_CLOSED: "offline.errors.SYNC_SURVEY_ALREADY_CLOSED",
  SYNC_SURVEY_OUTDATED_HASH: "offline.errors.SYNC_SURVEY_OUTDATED_HASH",
  SYNC_SURVEY_INVALID_STATUS: "offline.errors.SYNC_SURVEY_INVALID_STATUS",
  SYNC_IDEMPOTENCY_KEY_REUSED: "errors.keyReused",
  SYNC_FILL_OTHER_AUTHOR: "offline.errors.SYNC_FILL_OTHER_AUTHOR",
  IDEMPOTENCY_KEY_REUSED: "errors.keyReused",
  SURVEY_ATTACHMENTS_TOO_MANY: "uploadErrors.SURVEY_ATTACHMENTS_TOO_MANY",
  SURVEY_ATTACHMENTS_NOT_ALLOWED: "uploadErrors.SURVEY_ATTACHMENTS_NOT_ALLOWED",
  SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED: "uploadErrors.SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED",
  SURVEY_ATTACHMENTS_CONTENT_MISMATCH: "uploadErrors.SURVEY_ATTACHMENTS_CONTENT_MISMATCH",
  SURVEY_ATTACHMENTS_TOO_LARGE: "uploadErrors.SURVEY_ATTACHMENTS_TOO_LARGE",
  SURVEY_ATTACHMENTS_DUPLICATED_FILENAME: "uploadErrors.SURVEY_ATTACHMENTS_DUPLICATED_FILENAME",
  PAYLOAD_TOO_LARGE: "errors.payloadTooLarge",
  UNSUPPORTED_MEDIA_TYPE: "errors.unsupportedMediaType",
  SERVICE_UNAVAILABLE: "errors.unavailable",
  INTERNAL_ERROR: "errors.server",
};

/** The message of a refusal: its type's, or for a type outside the catalogue the one of its status. */
export function errorMessageKey(refusal: { status: number; type: string }): string {
  if (Object.hasOwn(errorMessageKeys, refusal.type)) return errorMessageKeys[refusal.type as ErrorType];
  return refusal.status >= 500 ? "errors.server" : "errors.validation";
}
