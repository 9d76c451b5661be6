import { sql } from "kysely";
import { caseLanguages, isCaseLanguage } from "~/domain/case-language";
import { asContentLanguage, type ContentLanguage } from "~/domain/content-languages";
import { AppError } from "~/domain/errors";
import type { PatientRecord } from "~/domain/fill-requests";
import { isUniqueViolation } from "~/server/db/db.server";
import type { DB } from "~/server/db/types.server";
import type { SurveyCaller } from "../surveys.server";
import { auditCase, requireCaseReader, requireFillableSurvey } from "./access.server";
import { closeStaleCases, findCase, requireOpen } from "./cases.server";
import { signaturesOf } from "./signatures.server";
import { HELD_FOR_REVIEW, patientSubmission, submitByPatient } from "../links/submit.server";

export const AUTOCOMPLETE_LIMIT = 10;

interface CaseRef {
  surveyId: number;
  patientId: string;
}

/**
 * The language a case of this survey may be filled in, checked against the survey as stored: its source
 * language or one it offers (docs/decisions/055-fill-languages.md); VALIDATION_ERROR names the others.
 */
export function requireCaseLanguage(
  row: { source_language: string; languages: string },
  language: ContentLanguage,
): ContentLanguage {
  const survey = {
    SourceLanguage: asContentLanguage(row.source_language) ?? "de",
    Languages: (JSON.parse(row.languages) as string[]).flatMap((l) => asContentLanguage(l) ?? []),
  };
  if (isCaseLanguage(survey, language)) return language;
  throw new AppError(
    "VALIDATION_ERROR",
    `The survey is filled in ${caseLanguages(survey).join(", ")}, not in ${language}`,
  );
}

/**
 * GET /patients/autocomplete: up to 10 Open cases whose id starts with the typed text (case-sensitive, as
 * ids are), and whether the exact id names a closed case.
 */
export async function autocompletePatients(db: DB, caller: SurveyCaller, ref: CaseRef) {
  await requireCaseReader(db, caller, ref.surveyId);
  await closeStaleCases(db, new Date(), ref.surveyId);
  const length = [...ref.patientId].length;
  let query = db
    .selectFrom("patient_data")
    .select("patient_id")
    .where("survey_id", "=", ref.surveyId)
    .where("state", "=", "Open");
  if (length > 0) query = query.where(sql<string>`substr(patient_id, 1, ${length})`, "=", ref.patientId);
  const open = await query.orderBy("patient_id").limit(AUTOCOMPLETE_LIMIT).execute();
  const exact = ref.patientId ? await findCase(db, ref.surveyId, ref.patientId) : undefined;
  return { OpenIds: open.map((r) => r.patient_id), IsClosed: exact?.state === "Closed" };
}

/** GET /patients/latest: the most recently changed Open cases. */
export async function latestPatients(db: DB, caller: SurveyCaller, surveyId: number, count: number) {
  await requireCaseReader(db, caller, surveyId);
  await closeStaleCases(db, new Date(), surveyId);
  const rows = await db
    .selectFrom("patient_data")
    .select(["patient_id", "modified_at", "answers_version", "held_until"])
    .where("survey_id", "=", surveyId)
    .where("state", "=", "Open")
    .orderBy("modified_at", "desc")
    .orderBy("id", "desc")
    .limit(count)
    .execute();
  return rows.map((r) => ({
    PatientId: r.patient_id,
    ModifiedDate: r.modified_at,
    Version: Number(r.answers_version),
    ...(r.held_until === HELD_FOR_REVIEW ? { ToReview: true } : {}),
  }));
}

/** GET /patients: whether the id names an Open, a Closed or no case. */
export async function patientRecord(db: DB, caller: SurveyCaller, ref: CaseRef): Promise<PatientRecord> {
  await requireCaseReader(db, caller, ref.surveyId);
  const kase = await findCase(db, ref.surveyId, ref.patientId);
  if (!kase) return { State: "Nonexistent" };
  const version = Number(kase.answers_version);
  const language = asContentLanguage(kase.language);
  const respondent = kase.respondent ? { Respondent: kase.respondent } : {};
  if (kase.state !== "Closed") {
    const submitted = kase.held_until === HELD_FOR_REVIEW ? await patientSubmission(db, kase.id) : null;
    return {
      State: kase.state,
      PatientDataId: kase.id,
      Version: version,
      Language: language,
      ...respondent,
      ...(submitted ? { SubmittedByPatient: submitted } : {}),
    };
  }
  // A closed case says when it closed and, where a signature closed it, who signed, when and as what.
  const signature = (await signaturesOf(db, [kase.id])).at(-1);
  return {
    State: kase.state,
    PatientDataId: kase.id,
    Version: version,
    ClosedAt: kase.closed_at,
    Language: language,
    ...respondent,
    Signature: signature
      ? { SignerName: signature.SignerName, Meaning: signature.Meaning, SignedAt: signature.SignedAt }
      : null,
  };
}

/**
 * POST /patients/add: a new Open case in an Active survey, owned by the caller's first team. 409
 * SURVEY_ALREADY_CLOSED when the id names a closed case, 409 SURVEY_PATIENTID_EXISTS when an open one.
 */
export async function addPatient(db: DB, caller: SurveyCaller, ref: CaseRef & { language?: ContentLanguage }) {
  try {
    return await db.transaction().execute(async (trx) => {
      const access = await requireFillableSurvey(trx, caller, ref.surveyId);
      // The case keeps its language as chosen, so that a later change of the survey's source leaves it as it is.
      const language = requireCaseLanguage(access.row, ref.language ?? (access.row.source_language as ContentLanguage));
      const existing = await findCase(trx, ref.surveyId, ref.patientId);
      if (existing) throw alreadyThere(existing.state, ref.patientId);
      const now = new Date().toISOString();
      const row = await trx
        .insertInto("patient_data")
        .values({
          survey_id: ref.surveyId,
          patient_id: ref.patientId,
          state: "Open",
          team_id: caller.teamIds[0] ?? null,
          created_by_user_id: caller.surveyUserDataId,
          created_at: now,
          modified_at: now,
          closed_at: null,
          language,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await auditCase(trx, caller, {
        action: "case.create",
        entity: "patient_data",
        entityId: row.id,
        surveyId: ref.surveyId,
        patientDataId: row.id,
        after: { PatientId: ref.patientId, Language: language },
      });
      return { PatientId: ref.patientId, PatientDataId: row.id };
    });
  } catch (error) {
    // Two people adding the same id at once: the second one finds it taken.
    if (isUniqueViolation(error)) {
      const existing = await findCase(db, ref.surveyId, ref.patientId);
      throw alreadyThere(existing?.state ?? "Open", ref.patientId);
    }
    throw error;
  }
}

/**
 * POST /patients/language: the language an Open case is filled in from now on. Its answers are kept by their
 * ids and as typed, so nothing else changes (the answers version stays: a device continuing the case is no
 * clash). One trail entry when the language changed.
 */
export async function setCaseLanguage(db: DB, caller: SurveyCaller, ref: CaseRef, language: ContentLanguage) {
  await db.transaction().execute(async (trx) => {
    const access = await requireFillableSurvey(trx, caller, ref.surveyId);
    const kase = requireOpen(await findCase(trx, ref.surveyId, ref.patientId, { lock: true }), ref.patientId);
    requireCaseLanguage(access.row, language);
    const before = kase.language ?? access.row.source_language;
    if (before === language) return;
    await trx.updateTable("patient_data").set({ language }).where("id", "=", kase.id).execute();
    await auditCase(trx, caller, {
      action: "case.language",
      entity: "patient_data",
      entityId: kase.id,
      surveyId: ref.surveyId,
      patientDataId: kase.id,
      before: { Language: before },
      after: { Language: language },
    });
  });
}

function alreadyThere(state: "Open" | "Closed", patientId: string) {
  return state === "Closed"
    ? new AppError("SURVEY_ALREADY_CLOSED", `The case ${patientId} is already closed`)
    : new AppError("SURVEY_PATIENTID_EXISTS", `A case ${patientId} already exists in this survey`);
}

/**
 * POST /patients/close: submits a case; it is Closed at once and can no longer be changed. A case of a survey
 * that requires a signature is submitted only by signing it (409 SIGNATURE_REQUIRED; decision 029).
 */
export async function closePatient(db: DB, caller: SurveyCaller, ref: CaseRef): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const access = await requireFillableSurvey(trx, caller, ref.surveyId);
    const kase = requireOpen(await findCase(trx, ref.surveyId, ref.patientId, { lock: true }), ref.patientId);
    if (caller.link) return submitByPatient(trx, caller, access, kase);
    if (access.row.requires_signature === 1) {
      throw new AppError("SIGNATURE_REQUIRED", `The case ${ref.patientId} is submitted by signing it`);
    }
    const now = new Date().toISOString();
    await trx
      .updateTable("patient_data")
      .set({ state: "Closed", closed_at: now, modified_at: now })
      .where("id", "=", kase.id)
      .execute();
    await auditCase(trx, caller, {
      action: "case.close",
      entity: "patient_data",
      entityId: kase.id,
      surveyId: ref.surveyId,
      patientDataId: kase.id,
      before: { State: "Open" },
      after: { State: "Closed", ClosedAt: now },
    });
  });
}
