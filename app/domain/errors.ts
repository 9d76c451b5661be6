/**
 * The error types the API answers with (section 8 of the specification), one HTTP status each.
 * The wire envelope is always { Type, Error }.
 */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TOS_NOT_ACCEPTED: 403,
  /**
   * A preliminary answer from a patient's link or a handed-over device, for a survey whose preliminary questions
   * stay with staff (`PreliminaryByPatient` off; docs/decisions/058-hand-over.md).
   */
  PRELIMINARY_BY_STAFF: 403,
  NOT_FOUND: 404,
  SURVEY_NOT_FOUND: 404,
  SURVEY_PATIENTID_NOT_FOUND: 404,
  /** POST /patients/add for an id that already names an open case. */
  SURVEY_PATIENTID_EXISTS: 409,
  SURVEY_INVALID_STATUS: 409,
  /** An erasure of a patient id whose case of this survey was erased already (matched by its tombstone). */
  CASE_ALREADY_ERASED: 409,
  SURVEY_EXISTING_QUESTION_RESPONSE: 409,
  SURVEY_ALREADY_CLOSED: 409,
  /** An answer option whose text another answer of the same question has already. */
  SURVEY_ANSWER_OPTION_EXISTS: 409,
  /** POST /patients/close for a case of a survey whose cases are submitted with an electronic signature. */
  SIGNATURE_REQUIRED: 409,
  /** A patient's link revoked, renewed or submitted already, or expired: it cannot be revoked or renewed. */
  LINK_NOT_LIVE: 409,
  SYNC_SURVEY_PATIENTID_CLASH: 409,
  SYNC_SURVEY_ALREADY_CLOSED: 409,
  SYNC_SURVEY_OUTDATED_HASH: 409,
  SYNC_SURVEY_INVALID_STATUS: 409,
  /** An offline sync of a fill another person made (its AuthorId is not the caller): it is theirs to sync. */
  SYNC_FILL_OTHER_AUTHOR: 403,
  /** An offline sync whose Idempotency-Key this person already used for a different fill. */
  SYNC_IDEMPOTENCY_KEY_REUSED: 422,
  /** A write whose Idempotency-Key this person already used for a different request. */
  IDEMPOTENCY_KEY_REUSED: 422,
  SURVEY_ATTACHMENTS_TOO_MANY: 406,
  SURVEY_ATTACHMENTS_NOT_ALLOWED: 406,
  SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED: 406,
  /** A file whose bytes are not what its (allowed) extension says, e.g. a text file named .pdf. */
  SURVEY_ATTACHMENTS_CONTENT_MISMATCH: 406,
  SURVEY_ATTACHMENTS_TOO_LARGE: 406,
  SURVEY_ATTACHMENTS_DUPLICATED_FILENAME: 406,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorType = keyof typeof errorStatus;

/**
 * What a refusal may say besides its type, for the page to explain it: CASE_ALREADY_ERASED when and why; a
 * FHIR import's VALIDATION_ERROR why the Questionnaire makes no survey ("empty", "tooMany").
 */
export interface EnvelopeFacts {
  ErasedAt?: string;
  Reason?: string;
}

export interface ErrorEnvelope extends EnvelopeFacts {
  Type: ErrorType | string;
  Error: string;
}

/** The one error class of the product: a type from the catalogue and a developer-facing message. */
export class AppError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly details?: unknown;
  /** Sent with the envelope. */
  readonly facts?: EnvelopeFacts;

  constructor(type: ErrorType, message?: string, details?: unknown, facts?: EnvelopeFacts) {
    super(message ?? type);
    this.name = "AppError";
    this.type = type;
    this.status = errorStatus[type];
    this.details = details;
    this.facts = facts;
  }

  toEnvelope(): ErrorEnvelope {
    return { Type: this.type, Error: this.message, ...this.facts };
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { Type?: unknown }).Type === "string" &&
    typeof (value as { Error?: unknown }).Error === "string"
  );
}
