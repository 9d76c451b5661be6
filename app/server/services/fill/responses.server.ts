import { AppError } from "~/domain/errors";
import type { AnswerWriteResult, AttributeResponseRequest, QuestionResponse } from "~/domain/fill-requests";
import { hiddenAnsweredQuestionIds } from "~/domain/visibility";
import type { DB } from "~/server/db/types.server";
import type { SurveyAccess } from "../survey-access.server";
import type { SurveyCaller } from "../surveys.server";
import { auditCase, requireCaseReader, requireFillableSurvey } from "./access.server";
import { deleteAnswersOf } from "./answer-write.server";
import { answerRowsOf, preliminaryOf, toAnswers, wireAnswers } from "./case-answers.server";
import { caseVersion, findCase, openCaseForWrite, requireOpen, touchCase, type CaseRow } from "./cases.server";
import { surveyStructure } from "./structure.server";

interface CaseRef {
  surveyId: number;
  patientId: string;
}

async function readableCase(db: DB, caller: SurveyCaller, ref: CaseRef) {
  const access = await requireCaseReader(db, caller, ref.surveyId);
  const kase: CaseRow | undefined = await findCase(db, ref.surveyId, ref.patientId);
  // A patient's link reads its own case only (decision 057).
  if (!kase || (caller.link && caller.link.patientDataId !== kase.id))
    throw new AppError("SURVEY_PATIENTID_NOT_FOUND", `There is no case ${ref.patientId} in this survey`);
  return { access, kase };
}

/** GET /question-responses: every recorded answer of a case. */
export async function listQuestionResponses(db: DB, caller: SurveyCaller, ref: CaseRef): Promise<QuestionResponse[]> {
  const { access, kase } = await readableCase(db, caller, ref);
  const [structure, rows] = await Promise.all([surveyStructure(db, access), answerRowsOf(db, kase.id)]);
  return wireAnswers(rows, structure);
}

/**
 * The patient answers preliminary questions (by link or on a handed-over device) only where the survey says so
 * (`PreliminaryByPatient`, docs/decisions/058-hand-over.md); else they stay with staff: 403 PRELIMINARY_BY_STAFF.
 */
function requirePreliminaryByPatient(caller: SurveyCaller, access: SurveyAccess) {
  if ((caller.link || caller.handover) && access.row.preliminary_by_patient !== 1) {
    throw new AppError("PRELIMINARY_BY_STAFF", `Survey ${access.row.id}'s preliminary questions stay with staff`);
  }
}

/** GET /attribute-responses: the preliminary answers of a case (a link's caller: only where it answers them). */
export async function listAttributeResponses(db: DB, caller: SurveyCaller, ref: CaseRef) {
  const { access, kase } = await readableCase(db, caller, ref);
  if (caller.link) requirePreliminaryByPatient(caller, access);
  const preliminary = await preliminaryOf(db, kase.id);
  return Object.entries(preliminary).map(([attribute, option]) => ({
    PatientFormAttributeId: Number(attribute),
    PatientFormAnswerOptionId: option,
  }));
}

/**
 * POST /attribute-responses: sets (or, with null, deletes) the answer to one preliminary question of an
 * Open case. Answers of questions that the new preliminary answers hide are deleted in the same
 * transaction, with the answers of their sub-questions.
 */
export async function writeAttributeResponse(
  db: DB,
  caller: SurveyCaller,
  input: AttributeResponseRequest,
): Promise<AnswerWriteResult> {
  return db.transaction().execute(async (trx) => {
    const access = await requireFillableSurvey(trx, caller, input.SurveyId);
    requirePreliminaryByPatient(caller, access);
    const kase = await openCaseForWrite(trx, input.SurveyId, input.PatientId);
    // A patient's link writes to its own case only (decision 057).
    if (caller.link && caller.link.patientDataId !== kase.id) requireOpen(undefined, input.PatientId);
    const structure = await surveyStructure(trx, access);
    const attribute = structure.attributes.get(input.PatientFormAttributeId);
    if (!attribute) {
      throw new AppError(
        "VALIDATION_ERROR",
        `Preliminary question ${input.PatientFormAttributeId} is not part of survey ${input.SurveyId}`,
      );
    }
    const optionId = input.PatientFormAnswerOptionId;
    if (optionId !== null && !attribute.AnswerOptions.some((o) => o.Id === optionId)) {
      throw new AppError(
        "VALIDATION_ERROR",
        `Answer ${optionId} is not an answer of preliminary question ${attribute.Id}`,
      );
    }

    const [preliminary, rows] = await Promise.all([preliminaryOf(trx, kase.id), answerRowsOf(trx, kase.id)]);
    const before = preliminary[attribute.Id] ?? null;
    if (before === optionId) return { RemovedQuestionIds: [], Version: Number(kase.answers_version) };

    await trx
      .deleteFrom("attribute_responses")
      .where("patient_data_id", "=", kase.id)
      .where("attribute_id", "=", attribute.Id)
      .execute();
    const next = { ...preliminary };
    delete next[attribute.Id];
    if (optionId !== null) {
      next[attribute.Id] = optionId;
      await trx
        .insertInto("attribute_responses")
        .values({
          survey_id: input.SurveyId,
          patient_data_id: kase.id,
          attribute_id: attribute.Id,
          answer_option_id: optionId,
          created_at: new Date().toISOString(),
        })
        .execute();
    }
    const removed = hiddenAnsweredQuestionIds(structure.topLevel, next, toAnswers(rows));
    await deleteAnswersOf(trx, kase.id, removed);
    await touchCase(trx, kase.id);
    await auditCase(trx, caller, {
      action: optionId === null ? "attributeResponse.delete" : "attributeResponse.record",
      entity: "attribute_response",
      entityId: attribute.Id,
      surveyId: input.SurveyId,
      patientDataId: kase.id,
      before: { PatientFormAnswerOptionId: before },
      after: { PatientFormAnswerOptionId: optionId, removedQuestionIds: removed },
    });
    return { RemovedQuestionIds: removed, Version: await caseVersion(trx, kase.id) };
  });
}
