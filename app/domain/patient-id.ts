/**
 * Patient ids (section 5): letters, digits and underscore only; empty means "not typed yet". An id is
 * mandatory unless the survey generates one, which is then 12 random digits. Pure and free of zod.
 */

export const PATIENT_ID_MAX_LENGTH = 64;
export const GENERATED_PATIENT_ID_LENGTH = 12;

const PATTERN = /^[\p{L}\p{Nd}_]*$/u;

/** Letters, digits and underscore only, at most 64 characters; "" is valid (nothing typed yet). */
export function isValidPatientId(value: string): boolean {
  return [...value].length <= PATIENT_ID_MAX_LENGTH && PATTERN.test(value);
}

/** An id must be typed unless the survey generates one. */
export function isPatientIdRequired(autoGenerationEnabled: boolean): boolean {
  return !autoGenerationEnabled;
}

export type PatientIdProblem = "invalid" | "required";

/** What is wrong with a typed id before a fill can start, or null when it can start. */
export function patientIdProblem(value: string, autoGenerationEnabled: boolean): PatientIdProblem | null {
  if (!isValidPatientId(value)) return "invalid";
  if (value === "" && isPatientIdRequired(autoGenerationEnabled)) return "required";
  return null;
}

/** A random id of 12 decimal digits (leading zeros possible), from the platform's secure random source. */
export function generatePatientId(): string {
  const digits: string[] = [];
  const bytes = new Uint8Array(24);
  while (digits.length < GENERATED_PATIENT_ID_LENGTH) {
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      // 250 = 25 × 10: rejecting 250..255 keeps every digit equally likely.
      if (b < 250 && digits.length < GENERATED_PATIENT_ID_LENGTH) digits.push(String(b % 10));
    }
  }
  return digits.join("");
}
