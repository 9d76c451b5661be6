import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CaseHistory } from "~/domain/audit-reading";
import type { OfflineSyncResult } from "~/domain/offline-sync";
import type { Survey } from "~/domain/survey";
import { accessRolesOf } from "~/domain/user";
import { dropAppendOnly, makeAppendOnly, type MigrationDb } from "~/server/db/migrations/helpers";
import type { DB } from "~/server/db/types.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import {
  caseAnswersHash,
  recordSignature,
  startSigning,
  type SigningIntent,
} from "~/server/services/fill/signatures.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
import { dialects } from "../support/databases";
import { json, preliminaryOption, questionId, startCase, useFillWorld } from "./fill-support";
import { errorType, payload, sync } from "./sync-support";

/**
 * Signed close (docs/decisions/029-signed-close.md) through the API and the services the signing's callback
 * calls, on both databases: the plain close and the offline close refused, a signature recorded with its
 * close and chained, answers changed between the start of a signing and its end refused, a signed case
 * unchangeable, and a signed case's answer changed in the database found by the verifier. The sign-in at
 * the provider itself is tested in tests/server/signed-close.test.ts.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** A demo person as the services see them, read from the database. */
async function callerOf(db: DB, sub: string): Promise<SurveyCaller> {
  const user = await db.selectFrom("users").selectAll().where("sub", "=", sub).executeTakeFirstOrThrow();
  const teams = await db.selectFrom("user_teams").select("team_id").where("user_id", "=", user.id).execute();
  return {
    surveyUserDataId: user.id,
    sub: user.sub,
    roles: accessRolesOf(JSON.parse(user.roles) as string[]),
    teamIds: teams.map((t) => t.team_id),
    culture: user.culture,
  };
}

async function caseOf(db: DB, surveyId: number, patientId: string) {
  return db
    .selectFrom("patient_data")
    .selectAll()
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .executeTakeFirstOrThrow();
}

describe.each(dialects)("signed close on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  let survey: number;
  let notes: number;
  let female: { attributeId: number; optionId: number };

  beforeAll(async () => {
    const w = world();
    survey = w.a.heart;
    notes = await questionId(w.db, survey, "Weitere Beschwerden");
    female = await preliminaryOption(w.db, survey, "weiblich");
    // The survey is Active; its setting is changed in the database as an editor would have done in Draft.
    await w.db.updateTable("surveys").set({ requires_signature: 1 }).where("id", "=", survey).execute();
  });

  /** A case with a preliminary answer and a free text, filled online by the participant. */
  async function filled(patientId: string, text = "Schwindel") {
    const w = world();
    await startCase(w, survey, patientId);
    const chosen = await w.call("user", "POST", "/attribute-responses", {
      PatientId: patientId,
      SurveyId: survey,
      PatientFormAttributeId: female.attributeId,
      PatientFormAnswerOptionId: female.optionId,
    });
    expect(chosen.status).toBe(200);
    const answered = await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: patientId,
      SurveyId: survey,
      QuestionId: notes,
      TextResponse: text,
    });
    expect(answered.status).toBe(200);
  }

  async function sign(patientId: string, meaning: "author" | "reviewer" | "approval" = "author") {
    const w = world();
    const caller = await callerOf(w.db, "user");
    const intent = await startSigning(w.db, caller, { surveyId: survey, patientId, meaning, sessionId: "s-1" });
    const signer = { surveyUserDataId: caller.surveyUserDataId, sub: caller.sub, name: "Test Person" };
    return { intent, result: await recordSignature(w.db, intent, signer, new Date()) };
  }

  it("shows and changes the setting through the survey API, audited like other settings", async () => {
    const w = world();
    const draft = w.a.draft;
    const before = await json<Survey>(await w.call("editor", "GET", `/surveys/${draft}`));
    expect(before.RequiresSignature).toBe(false);
    const put = await w.call("editor", "PUT", `/surveys/${draft}`, { RequiresSignature: true });
    expect(put.status).toBe(200);
    expect((await json<Survey>(put)).RequiresSignature).toBe(true);
    const row = await w.db
      .selectFrom("audit_log")
      .select(["before", "after"])
      .where("survey_id", "=", draft)
      .where("action", "=", "survey.update")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.before!)).toEqual({ RequiresSignature: 0 });
    expect(JSON.parse(row.after!)).toEqual({ RequiresSignature: 1 });
    // A copy of the survey keeps the setting.
    const copy = await w.call("editor", "POST", `/surveys/${draft}/clone`);
    expect(copy.status).toBe(201);
    const { Id } = await json<Survey>(copy);
    expect((await json<Survey>(await w.call("editor", "GET", `/surveys/${Id}`))).RequiresSignature).toBe(true);
  });

  it("refuses the plain close with 409 SIGNATURE_REQUIRED and leaves the case open", async () => {
    const w = world();
    await filled("SIG_PLAIN");
    const res = await w.call("user", "POST", `/patients/close?patientId=SIG_PLAIN&surveyId=${survey}`);
    expect(res.status).toBe(409);
    expect(await errorType(res)).toBe("SIGNATURE_REQUIRED");
    expect((await caseOf(w.db, survey, "SIG_PLAIN")).state).toBe("Open");
  });

  it("saves an offline fill that asks to close, leaves the case open and says a signature is needed", async () => {
    const w = world();
    const body = await payload(w.db, survey, "SIG_SYNC", {
      Close: true,
      QuestionAnswers: [{ QuestionId: notes, TextResponse: "offline" }],
      PreliminaryQuestionAnswers: [{ QuestionId: female.attributeId, AnswerOptionId: female.optionId }],
    });
    const res = await sync(w, survey, body, { key: "sig-sync-1" });
    expect(res.status).toBe(200);
    const result = await json<OfflineSyncResult>(res);
    expect(result.SignatureRequired).toBe(true);
    const kase = await caseOf(w.db, survey, "SIG_SYNC");
    expect(result.Data).toBe(kase.id);
    expect(kase.state).toBe("Open");
    const answers = await w.db
      .selectFrom("question_responses")
      .select("text_response")
      .where("patient_data_id", "=", kase.id)
      .execute();
    expect(answers.map((a) => a.text_response)).toEqual(["offline"]);
    // A retry answers the same, and the case stays open until it is signed.
    const again = await sync(w, survey, body, { key: "sig-sync-1" });
    expect(await json<OfflineSyncResult>(again)).toEqual(result);
    const closes = await w.db
      .selectFrom("audit_log")
      .select("id")
      .where("patient_data_id", "=", kase.id)
      .where("action", "=", "case.close")
      .execute();
    expect(closes).toHaveLength(0);
    // Signed online afterwards, the case closes.
    const { result: signed } = await sign("SIG_SYNC");
    expect(signed.ok).toBe(true);
    expect((await caseOf(w.db, survey, "SIG_SYNC")).state).toBe("Closed");
  });

  it("records a signature with its close in one go, chained with the answers' hash and meaning", async () => {
    const w = world();
    await filled("SIG_OK");
    const kase = await caseOf(w.db, survey, "SIG_OK");
    const hash = await caseAnswersHash(w.db, kase.id);
    const { intent, result } = await sign("SIG_OK", "reviewer");
    expect(result.ok).toBe(true);
    expect(intent.answers_hash).toBe(hash);
    const closed = await caseOf(w.db, survey, "SIG_OK");
    expect(closed.state).toBe("Closed");
    const signatures = await w.db
      .selectFrom("case_signatures")
      .selectAll()
      .where("patient_data_id", "=", kase.id)
      .execute();
    expect(signatures).toHaveLength(1);
    expect(signatures[0]).toMatchObject({ meaning: "reviewer", answers_hash: hash, signer_sub: "user" });
    const rows = await w.db
      .selectFrom("audit_log")
      .select(["action", "after", "actor_sub"])
      .where("patient_data_id", "=", kase.id)
      .where("action", "in", ["case.sign", "case.close"])
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.action)).toEqual(["case.sign", "case.close"]);
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ Meaning: "reviewer", AnswersHash: hash, PatientId: "SIG_OK" });
    expect(rows[0]!.actor_sub).toBe("user");
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true });
    // The case's history shows the signature.
    const history = await json<CaseHistory>(
      await w.call("approver", "GET", `/audit-log/case-history?surveyId=${survey}&patientId=SIG_OK`),
    );
    expect(history.Signatures).toEqual([
      expect.objectContaining({ Meaning: "reviewer", SignerName: "Test Person", AnswersHash: hash }),
    ]);
    // The person who filled it reads who signed, when and as what (the confirmation page says so).
    const record = await json<{ State: string; Signature: unknown }>(
      await w.call("user", "GET", `/patients?patientId=SIG_OK&surveyId=${survey}`),
    );
    expect(record).toMatchObject({
      State: "Closed",
      Signature: { SignerName: "Test Person", Meaning: "reviewer", SignedAt: signatures[0]!.signed_at },
    });
  });

  it("refuses a signing whose case's answers changed after it began, and writes nothing", async () => {
    const w = world();
    await filled("SIG_CHANGED");
    const caller = await callerOf(w.db, "user");
    const intent: SigningIntent = await startSigning(w.db, caller, {
      surveyId: survey,
      patientId: "SIG_CHANGED",
      meaning: "author",
      sessionId: "s-2",
    });
    const changed = await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "SIG_CHANGED",
      SurveyId: survey,
      QuestionId: notes,
      TextResponse: "anders",
    });
    expect(changed.status).toBe(200);
    const signer = { surveyUserDataId: caller.surveyUserDataId, sub: caller.sub, name: "Test Person" };
    expect(await recordSignature(w.db, intent, signer, new Date())).toEqual({ ok: false, refusal: "changed" });
    const kase = await caseOf(w.db, survey, "SIG_CHANGED");
    expect(kase.state).toBe("Open");
    expect(
      await w.db.selectFrom("case_signatures").select("id").where("patient_data_id", "=", kase.id).execute(),
    ).toHaveLength(0);
    const signs = await w.db
      .selectFrom("audit_log")
      .select("id")
      .where("patient_data_id", "=", kase.id)
      .where("action", "=", "case.sign")
      .execute();
    expect(signs).toHaveLength(0);
  });

  it("refuses a signing whose survey stopped taking responses meanwhile", async () => {
    const w = world();
    await filled("SIG_ENDED");
    const caller = await callerOf(w.db, "user");
    const intent = await startSigning(w.db, caller, {
      surveyId: survey,
      patientId: "SIG_ENDED",
      meaning: "author",
      sessionId: "s-3",
    });
    const signer = { surveyUserDataId: caller.surveyUserDataId, sub: caller.sub, name: "Test Person" };
    await w.db.updateTable("surveys").set({ status: 3 }).where("id", "=", survey).execute();
    try {
      expect(await recordSignature(w.db, intent, signer, new Date())).toEqual({ ok: false, refusal: "inactive" });
    } finally {
      await w.db.updateTable("surveys").set({ status: 2 }).where("id", "=", survey).execute();
    }
    expect((await caseOf(w.db, survey, "SIG_ENDED")).state).toBe("Open");
  });

  it("lets no path change a signed case", async () => {
    const w = world();
    await filled("SIG_LOCKED");
    expect((await sign("SIG_LOCKED")).result.ok).toBe(true);
    const answer = await w.call("user", "POST", "/question-responses/free-text", {
      PatientId: "SIG_LOCKED",
      SurveyId: survey,
      QuestionId: notes,
      TextResponse: "danach",
    });
    expect(answer.status).toBe(409);
    expect(await errorType(answer)).toBe("SURVEY_ALREADY_CLOSED");
    const preliminary = await w.call("user", "POST", "/attribute-responses", {
      PatientId: "SIG_LOCKED",
      SurveyId: survey,
      PatientFormAttributeId: female.attributeId,
      PatientFormAnswerOptionId: female.optionId,
    });
    expect(preliminary.status).toBe(409);
    const body = await payload(w.db, survey, "SIG_LOCKED", {
      Overwrite: true,
      QuestionAnswers: [{ QuestionId: notes, TextResponse: "offline danach" }],
      PreliminaryQuestionAnswers: [{ QuestionId: female.attributeId, AnswerOptionId: female.optionId }],
    });
    const synced = await sync(w, survey, body, { key: "sig-locked-1" });
    expect(synced.status).toBe(409);
    expect(await errorType(synced)).toBe("SYNC_SURVEY_ALREADY_CLOSED");
    // A second signing cannot even begin.
    const caller = await callerOf(w.db, "user");
    await expect(
      startSigning(w.db, caller, { surveyId: survey, patientId: "SIG_LOCKED", meaning: "approval", sessionId: "s" }),
    ).rejects.toMatchObject({ type: "SURVEY_ALREADY_CLOSED" });
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true });
  });

  it("finds a signed case's answer changed in the database, through the command's check and the API", async () => {
    const w = world();
    await filled("SIG_TAMPER", "echt");
    expect((await sign("SIG_TAMPER")).result.ok).toBe(true);
    const kase = await caseOf(w.db, survey, "SIG_TAMPER");
    const signRow = await w.db
      .selectFrom("audit_log")
      .select("id")
      .where("patient_data_id", "=", kase.id)
      .where("action", "=", "case.sign")
      .executeTakeFirstOrThrow();
    // What an administrator could do past the application: change the stored answer.
    await w.db
      .updateTable("question_responses")
      .set({ text_response: "gefälscht" })
      .where("patient_data_id", "=", kase.id)
      .where("question_id", "=", notes)
      .execute();
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({
      ok: false,
      firstBad: { id: signRow.id, kind: "signature", patientDataId: kase.id, patientId: "SIG_TAMPER" },
    });
    const res = await w.call("approver", "GET", `/audit-log/verify?surveyId=${survey}`);
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({
      Ok: false,
      FirstBad: { Id: signRow.id, Kind: "signature", PatientId: "SIG_TAMPER" },
    });
    // Put back as it was, the chain verifies again.
    await w.db
      .updateTable("question_responses")
      .set({ text_response: "echt" })
      .where("patient_data_id", "=", kase.id)
      .where("question_id", "=", notes)
      .execute();
    expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({ ok: true });
    // Rewriting the hash in the signature row instead breaks the chain itself.
    await dropAppendOnly(w.db as unknown as MigrationDb, "audit_log");
    await sql`update audit_log set after = replace(after, 'AnswersHash', 'AnswersHash_') where id = ${signRow.id}`.execute(
      w.db,
    );
    try {
      expect(await verifyStoredChain(w.db, String(survey))).toMatchObject({
        ok: false,
        firstBad: { id: signRow.id, kind: "changed" },
      });
    } finally {
      await makeAppendOnly(w.db as unknown as MigrationDb, "audit_log");
    }
  });
});
