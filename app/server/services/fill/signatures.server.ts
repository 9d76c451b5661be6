import crypto from "node:crypto";
import { AppError } from "~/domain/errors";
import type { CaseSignature, SignatureMeaningName, SigningRefusal } from "~/domain/signatures";
import type { Executor, Row } from "~/server/db/types.server";
import { auditAll } from "../audit.server";
import { statusOf } from "../survey-access.server";
import type { SurveyCaller } from "../surveys.server";
import { requireFillableSurvey } from "./access.server";
import { findCase, requireOpen } from "./cases.server";
import { inTransaction } from "~/server/db/transaction.server";

/**
 * Signed close (docs/decisions/029-signed-close.md): a survey may require an electronic signature to submit
 * a case. The person signs in afresh at the provider and states what the signature means; the signature is
 * bound to the case's answers by their hash, which the audit chain carries.
 */

/** How long a signing started on the signing page may take at the provider. */
export const SIGNING_INTENT_TTL_MS = 10 * 60 * 1000;
/**
 * How much earlier than the signing's start the provider's auth_time may be: the clocks of the app and an
 * external provider differ a little. A provider that ignored prompt=login / max_age=0 answers the time of
 * the earlier sign-in, minutes or hours before.
 */
export const SIGNING_CLOCK_SKEW_MS = 10 * 1000;

/** The content of a case that a signature covers: its answers, preliminary answers and attached files. */
export interface CaseAnswersContent {
  caseId: number;
  surveyId: number;
  patientId: string;
  answers: readonly {
    question_id: number;
    answer_option_id: number | null;
    text_response: string | null;
    numerical_response: number | null;
    date_time_response: string | null;
  }[];
  preliminary: readonly { attribute_id: number; answer_option_id: number }[];
  files: readonly { question_id: number; file_name: string; size: number; storage_key: string }[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The canonical text of a case's answers: a JSON array `[1, surveyId, caseId, patientId, answers,
 * preliminary, files]`, each list of tuples sorted by its JSON text, so that the same answers give the same
 * text on both databases whatever order the rows come in.
 */
export function canonicalCaseAnswers(content: CaseAnswersContent): string {
  const sorted = (tuples: unknown[][]) =>
    tuples
      .map((t) => JSON.stringify(t))
      .sort(byText)
      .map((t) => JSON.parse(t) as unknown);
  return JSON.stringify([
    1,
    content.surveyId,
    content.caseId,
    content.patientId,
    sorted(
      content.answers.map((a) => [
        a.question_id,
        a.answer_option_id,
        a.text_response,
        a.numerical_response === null ? null : Number(a.numerical_response),
        a.date_time_response,
      ]),
    ),
    sorted(content.preliminary.map((p) => [p.attribute_id, p.answer_option_id])),
    sorted(content.files.map((f) => [f.question_id, f.file_name, Number(f.size), f.storage_key])),
  ]);
}

/** sha256 (lowercase hex) of the canonical text of a case's answers. */
export function answersHashOf(content: CaseAnswersContent): string {
  return crypto.createHash("sha256").update(canonicalCaseAnswers(content), "utf8").digest("hex");
}

/** The hash of a case's answers as they are stored now; undefined when the case is gone. */
export async function caseAnswersHash(db: Executor, caseId: number): Promise<string | undefined> {
  const kase = await db
    .selectFrom("patient_data")
    .select(["id", "survey_id", "patient_id"])
    .where("id", "=", caseId)
    .executeTakeFirst();
  if (!kase) return undefined;
  const [answers, preliminary, files] = await Promise.all([
    db
      .selectFrom("question_responses")
      .select(["question_id", "answer_option_id", "text_response", "numerical_response", "date_time_response"])
      .where("patient_data_id", "=", caseId)
      .execute(),
    db
      .selectFrom("attribute_responses")
      .select(["attribute_id", "answer_option_id"])
      .where("patient_data_id", "=", caseId)
      .execute(),
    db
      .selectFrom("file_attachments")
      .select(["question_id", "file_name", "size", "storage_key"])
      .where("patient_data_id", "=", caseId)
      .execute(),
  ]);
  return answersHashOf({
    caseId: kase.id,
    surveyId: kase.survey_id,
    patientId: kase.patient_id,
    answers,
    preliminary,
    files,
  });
}

/** sha256 (hex) of an app session's id: what a signing intent keeps of the session that started it. */
export function sessionHashOf(sessionId: string): string {
  return crypto.createHash("sha256").update(sessionId, "utf8").digest("hex");
}

const randomToken = () => crypto.randomBytes(32).toString("base64url");

export type SigningIntent = Row<"signing_intents">;

/**
 * Starts a signing on the signing page: the case must be Open in an Active survey that requires signatures,
 * and the caller must be allowed to fill it. Keeps the intent (with the hash of the answers now) and answers
 * what the sign-in at the provider needs: the state, the nonce and the PKCE verifier.
 */
export async function startSigning(
  db: Executor,
  caller: SurveyCaller,
  input: { surveyId: number; patientId: string; meaning: SignatureMeaningName; sessionId: string; now?: Date },
): Promise<SigningIntent> {
  return inTransaction(db, async (trx) => {
    const access = await requireFillableSurvey(trx, caller, input.surveyId);
    if (access.row.requires_signature !== 1) {
      throw new AppError("VALIDATION_ERROR", "This survey's cases are submitted without a signature");
    }
    const kase = requireOpen(await findCase(trx, input.surveyId, input.patientId), input.patientId);
    const intent: SigningIntent = {
      id: randomToken(),
      user_id: caller.surveyUserDataId,
      session_hash: sessionHashOf(input.sessionId),
      survey_id: input.surveyId,
      patient_data_id: kase.id,
      meaning: input.meaning,
      answers_hash: (await caseAnswersHash(trx, kase.id))!,
      nonce: randomToken(),
      code_verifier: randomToken(),
      created_at: (input.now ?? new Date()).toISOString(),
      used_at: null,
    };
    await trx.insertInto("signing_intents").values(intent).execute();
    return intent;
  });
}

/** The intent a signing's callback names by its state, if there is one. */
export function findSigningIntent(db: Executor, state: string): Promise<SigningIntent | undefined> {
  return db.selectFrom("signing_intents").selectAll().where("id", "=", state).executeTakeFirst();
}

/**
 * Marks an intent used, once: true for the one callback that claimed it. A signing is tried once, whether it
 * succeeds or is refused; the person starts again from the signing page.
 */
export async function claimSigningIntent(db: Executor, id: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("signing_intents")
    .set({ used_at: now.toISOString() })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What the callback knows of the fresh sign-in and of the app session it came back to. */
export interface SigningEvidence {
  /** The ID token's claims, verified (signature, issuer, audience, nonce). */
  sub: string;
  /** The ID token's auth_time, in seconds since the epoch; undefined when the provider sent none. */
  authTime: number | undefined;
  /** The app session the callback came to: its id and the person signed in there. */
  session: { id: string; sub: string; surveyUserDataId: number } | null;
}

/**
 * The checks of a signing's callback, in order; null when the signing may be recorded (the answers are
 * checked again in the transaction that records it):
 * - `expired`: the intent is older than SIGNING_INTENT_TTL_MS, or was started by another session or person;
 * - `stale`: the provider did not authenticate the person afresh (no auth_time, or one before the intent);
 * - `otherAccount`: someone else signed in at the provider than the person of the app session.
 */
export function checkSigning(intent: SigningIntent, evidence: SigningEvidence, now: Date): SigningRefusal | null {
  const started = Date.parse(intent.created_at);
  if (now.getTime() - started > SIGNING_INTENT_TTL_MS) return "expired";
  const { session } = evidence;
  if (!session || sessionHashOf(session.id) !== intent.session_hash || session.surveyUserDataId !== intent.user_id) {
    return "expired";
  }
  if (evidence.authTime === undefined || evidence.authTime * 1000 < started - SIGNING_CLOCK_SKEW_MS) return "stale";
  if (evidence.sub !== session.sub) return "otherAccount";
  return null;
}

export interface Signer {
  surveyUserDataId: number;
  sub: string;
  name: string;
}

/**
 * Records a signature and submits its case, in one transaction: the case must still be Open and its answers
 * must still hash to what the intent saw (else `changed`, and nothing is written). Writes the signature, a
 * "case.sign" audit row carrying the answers hash and the meaning into the survey's chain, and closes the
 * case ("case.close", as POST /patients/close writes it, marked Signed).
 */
export async function recordSignature(
  db: Executor,
  intent: Pick<SigningIntent, "survey_id" | "patient_data_id" | "meaning" | "answers_hash">,
  signer: Signer,
  authTime: Date,
  now = new Date(),
): Promise<{ ok: true; signatureId: number } | { ok: false; refusal: SigningRefusal }> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("patient_data")
      .select(["patient_id"])
      .where("id", "=", intent.patient_data_id)
      .executeTakeFirst();
    const kase = row ? await findCase(trx, intent.survey_id, row.patient_id, { lock: true, now }) : undefined;
    if (!kase || kase.id !== intent.patient_data_id || kase.state !== "Open") return { ok: false, refusal: "closed" };
    // The survey may have ended or been closed while the person was at the provider: no more submissions.
    const survey = await trx
      .selectFrom("surveys")
      .select(["status", "start_date", "end_date"])
      .where("id", "=", intent.survey_id)
      .executeTakeFirst();
    if (!survey || statusOf(survey) !== "Active") return { ok: false, refusal: "inactive" };
    if ((await caseAnswersHash(trx, kase.id)) !== intent.answers_hash) return { ok: false, refusal: "changed" };
    const at = now.toISOString();
    const signature = await trx
      .insertInto("case_signatures")
      .values({
        survey_id: intent.survey_id,
        patient_data_id: kase.id,
        user_id: signer.surveyUserDataId,
        signer_sub: signer.sub,
        signer_name: signer.name,
        meaning: intent.meaning,
        answers_hash: intent.answers_hash,
        signed_at: at,
        auth_time: authTime.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("patient_data")
      .set({ state: "Closed", closed_at: at, modified_at: at })
      .where("id", "=", kase.id)
      .execute();
    const target = { entity: "patient_data", entityId: kase.id, surveyId: intent.survey_id, patientDataId: kase.id };
    await auditAll(trx, { surveyUserDataId: signer.surveyUserDataId, sub: signer.sub }, [
      {
        ...target,
        action: "case.sign",
        after: {
          PatientId: kase.patient_id,
          SignatureId: signature.id,
          Meaning: intent.meaning,
          AnswersHash: intent.answers_hash,
          SignerName: signer.name,
          SignedAt: at,
          AuthTime: authTime.toISOString(),
        },
      },
      {
        ...target,
        action: "case.close",
        before: { State: "Open" },
        after: { State: "Closed", ClosedAt: at, Signed: true },
      },
    ]);
    return { ok: true, signatureId: signature.id };
  });
}

/** The signatures of cases, oldest first. */
export async function signaturesOf(db: Executor, caseIds: readonly number[]): Promise<CaseSignature[]> {
  if (caseIds.length === 0) return [];
  const rows = await db
    .selectFrom("case_signatures")
    .selectAll()
    .where("patient_data_id", "in", [...caseIds])
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    Id: r.id,
    PatientDataId: r.patient_data_id,
    UserId: r.user_id,
    SignerName: r.signer_name,
    Meaning: r.meaning,
    SignedAt: r.signed_at,
    AuthTime: r.auth_time,
    AnswersHash: r.answers_hash,
  }));
}

/** Removes intents older than a day (used or not); run with the hourly purge. */
export async function purgeSigningIntents(db: Executor, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  const result = await db.deleteFrom("signing_intents").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A signed case whose answers no longer hash to what its "case.sign" row says. */
export interface SignatureBreak {
  /** The id of the "case.sign" audit row. */
  id: number;
  patientDataId: number;
  patientId: string | null;
}

function parseSigned(text: string | null): { AnswersHash?: unknown; PatientId?: unknown } | null {
  try {
    return JSON.parse(text ?? "null") as { AnswersHash?: unknown; PatientId?: unknown } | null;
  } catch {
    return null;
  }
}

/**
 * Checks every "case.sign" row of a chain against its case's answers now: the hash the chain carries must
 * still be the hash of the stored answers. A case that is gone counts as changed, unless the chain records
 * the survey's deletion after the signature. Answers the first such signature, or null.
 */
export async function signatureBreakOf(
  db: Executor,
  rows: readonly {
    id: number;
    action: string;
    patient_data_id: number | null;
    after: string | null;
    erased_at?: string | null;
  }[],
): Promise<SignatureBreak | null> {
  const deletedAt = rows.find((r) => r.action === "survey.delete")?.id ?? Number.POSITIVE_INFINITY;
  for (const row of rows) {
    // An erased case's signature went with it (docs/decisions/042-retention-and-erasure.md).
    if (row.action !== "case.sign" || row.patient_data_id === null || row.erased_at) continue;
    const signed = parseSigned(row.after);
    const patientId = typeof signed?.PatientId === "string" ? signed.PatientId : null;
    const now = await caseAnswersHash(db, row.patient_data_id);
    if (now === undefined && deletedAt > row.id) return { id: row.id, patientDataId: row.patient_data_id, patientId };
    if (now !== undefined && now !== signed?.AnswersHash) {
      return { id: row.id, patientDataId: row.patient_data_id, patientId };
    }
  }
  return null;
}
