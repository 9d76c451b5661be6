import { patientsApi } from "~/contracts/patients";
import crypto from "node:crypto";
import { fillPath, resolveStartId, type StartProblem, type StartTarget } from "~/domain/start-state";
import { AppError } from "~/domain/errors";
import type { ContentLanguage } from "~/domain/languages";
import { keyForWrite } from "~/domain/idempotency";
import { GENERATED_PATIENT_ID_LENGTH, generatePatientId } from "~/domain/patient-id";
import { ApiError, type ApiClient } from "./api-client.server";

/** Tries to find a generated id that is not taken yet (12 random digits: a clash is already rare). */
const GENERATE_ATTEMPTS = 5;

/** Goes on with the typed (or a generated) id: what the API says about it decides open, create or closed. */
export type StartOutcome = { to: string } | { problem: StartProblem["problem"] };

/**
 * A patient id of 12 digits made from a seed: the same start form sent twice (its key is the seed) names
 * the same new case instead of a second one. The seed is random per drawn page, so the ids stay random.
 */
export function patientIdFromSeed(seed: string): string {
  const digits: string[] = [];
  for (let round = 0; digits.length < GENERATED_PATIENT_ID_LENGTH; round++) {
    for (const b of crypto.createHash("sha256").update(`${seed}:${round}`).digest()) {
      // 250 = 25 × 10: rejecting 250..255 keeps every digit equally likely.
      if (b < 250 && digits.length < GENERATED_PATIENT_ID_LENGTH) digits.push(String(b % 10));
    }
  }
  return digits.join("");
}

/**
 * Starts (or reopens) the case the start form asks for. With the form's key, each attempt's write carries
 * its own Idempotency-Key and a generated id comes from that key: a form sent again lands on the case the
 * first one made.
 */
export async function startCase(
  api: ApiClient,
  surveyId: number,
  typed: string,
  autoGeneration: boolean,
  formKey: unknown,
  /** The language a new case is filled in (an open case keeps its own). */
  language?: ContentLanguage,
): Promise<StartOutcome> {
  for (let attempt = 0; attempt < GENERATE_ATTEMPTS; attempt++) {
    const idempotencyKey = keyForWrite(formKey, "start", attempt);
    const generate = idempotencyKey ? () => patientIdFromSeed(idempotencyKey) : generatePatientId;
    const target: StartTarget = resolveStartId(typed, autoGeneration, generate);
    if (!target.ok) return { problem: target.problem };
    const query = { patientId: target.patientId, surveyId };
    // A generated id from the form's key is added straight away: a repeat of the form gets the first answer.
    const known = target.generated && idempotencyKey ? null : await api.call(patientsApi.record, { query });
    if (known) {
      if (known.State !== "Nonexistent" && target.generated) continue;
      if (known.State === "Closed") return { problem: "closed" };
      if (known.State === "Open") return { to: fillPath(surveyId, target.patientId) };
    }
    try {
      const added = await api.call(patientsApi.add, { query: { ...query, language } }, { idempotencyKey });
      return { to: fillPath(surveyId, added.PatientId) };
    } catch (error) {
      // Someone else took the id in the meantime: go on as if it had been there already.
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      if (target.generated) continue;
      if (error.type === "SURVEY_ALREADY_CLOSED") return { problem: "closed" };
      if (error.type === "SURVEY_PATIENTID_EXISTS") return { to: fillPath(surveyId, target.patientId) };
      throw error;
    }
  }
  throw new AppError("INTERNAL_ERROR", "No free patient id was found");
}
