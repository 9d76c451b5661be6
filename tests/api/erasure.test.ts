import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/types.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dropAppendOnly, type MigrationDb } from "~/server/db/migrations/helpers";
import { verifyStoredChain } from "~/server/services/audit-verify.server";
import { patientKey, erasureKey } from "~/server/services/erasure/keys.server";
import { readyExports } from "~/server/services/statistics/export-ready.server";
import { readBlob } from "~/server/storage/attachments.server";
import { storeSetups, useStoreEnv } from "../support/stores";
import { erase, everyCount, fullCase, json, leftOf } from "./erasure-support";
import { useFillWorld } from "./fill-support";

/**
 * Erasing a patient id's case (docs/decisions/042-retention-and-erasure.md) through the API, on both databases
 * and every attachment store: everything of the case goes, a tombstone stays, the chain still verifies and
 * still finds tampering; a missing, foreign or already erased case is refused and changes nothing.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface Preview {
  PatientId: string;
  Closed: boolean;
  Answers: number;
  PreliminaryAnswers: number;
  Attachments: number;
  Signatures: number;
}

describe.each(storeSetups)("erasure, $name", (setup) => {
  const stores = useStoreEnv(setup);
  const world = useFillWorld(setup.db, () => idp, undefined, stores.env);
  const auditCount = async () =>
    Number(
      (
        await world()
          .db.selectFrom("audit_log")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("names what goes, then erases all of it and keeps a tombstone without the patient id", async () => {
    const w = world();
    const survey = w.a.heart;
    const { caseId, storageKey } = await fullCase(w, survey, "ERASE_1");
    await fullCase(w, survey, "KEEP_1");
    await readyExports(w.db, w.api.ctx.env.CLINIC_TIME_ZONE);
    expect(everyCount(await leftOf(w.db, caseId))).toBeGreaterThan(4);
    expect((await leftOf(w.db, caseId)).case_export_rows).toBe(1);

    const preview = await w.call("approver", "GET", `/erasures/preview?surveyId=${survey}&patientId=ERASE_1`);
    expect(preview.status).toBe(200);
    expect(await json<Preview>(preview)).toMatchObject({
      PatientId: "ERASE_1",
      Closed: true,
      Answers: 1,
      PreliminaryAnswers: 1,
      Attachments: 1,
      Signatures: 0,
    });

    const counted = async () =>
      (await json<{ NumSurveyResponses: number }>(await w.call("editor", "POST", `/statistics/${survey}`, {})))
        .NumSurveyResponses;
    const countedBefore = await counted();
    expect(countedBefore).toBeGreaterThanOrEqual(2);
    // The heart survey adds up its complaints' points: the case's total is kept (decision 051).
    expect((await leftOf(w.db, caseId)).case_totals).toBe(1);

    const res = await erase(w, survey, "ERASE_1");
    expect(res.status).toBe(200);
    // Statistics no longer count it.
    expect(await counted()).toBe(countedBefore - 1);
    const done = await json<{ ErasureId: number; AuditRows: number; Answers: number; Attachments: number }>(res);
    expect(done).toMatchObject({ Answers: 1, Attachments: 1 });
    expect(done.AuditRows).toBeGreaterThan(3);
    expect(await leftOf(w.db, caseId)).toEqual({
      patient_data: 0,
      question_responses: 0,
      attribute_responses: 0,
      file_attachments: 0,
      response_words: 0,
      case_export_rows: 0,
      case_totals: 0,
      case_signatures: 0,
      signing_intents: 0,
      sync_requests: 0,
    });
    // The bytes are gone from the store, whichever it is.
    expect(await readBlob(w.api.ctx.attachments, storageKey)).toBeNull();
    expect(await w.db.selectFrom("erased_blobs").selectAll().execute()).toEqual([]);
    // The question's word totals no longer count its words.
    const words = await w.db.selectFrom("response_words").select("word").where("survey_id", "=", survey).execute();
    expect(words.map((r) => r.word)).not.toContain("erase_1");

    // The tombstone: when, who, why, and the patient id only as its keyed hash.
    const tombstone = await w.db
      .selectFrom("case_erasures")
      .selectAll()
      .where("id", "=", done.ErasureId)
      .executeTakeFirstOrThrow();
    expect(tombstone).toMatchObject({ survey_id: survey, patient_data_id: caseId, reason: "consent" });
    expect(tombstone.patient_key).toBe(patientKey(erasureKey(w.api.ctx.env), survey, "ERASE_1"));
    expect(JSON.stringify(tombstone)).not.toContain("ERASE_1");

    // No value of the case is left in the trail; its rows are there, erased, and the chain verifies.
    const rows = await w.db.selectFrom("audit_log").selectAll().where("survey_id", "=", survey).execute();
    expect(JSON.stringify(rows)).not.toContain("ERASE_1");
    expect(JSON.stringify(rows)).toContain("KEEP_1");
    const erased = rows.filter((r) => r.patient_data_id === caseId);
    expect(erased.length).toBe(done.AuditRows);
    for (const row of erased) expect(row).toMatchObject({ before: null, after: null, erased_at: expect.any(String) });
    const verdict = await verifyStoredChain(w.db, String(survey));
    expect(verdict).toMatchObject({ ok: true, erased: done.AuditRows });
    const api = await w.call("approver", "GET", `/audit-log/verify?surveyId=${survey}`);
    expect(await json(api)).toMatchObject({ Ok: true, Erased: done.AuditRows });
  });

  it("refuses a second erasure, a missing case and a foreign survey with a clear message, changing nothing", async () => {
    const w = world();
    await fullCase(w, w.a.heart, "ERASE_2");
    const before = await auditCount();
    const twice = await erase(w, w.a.heart, "ERASE_1");
    expect(twice.status).toBe(409);
    expect(await json(twice)).toMatchObject({ Type: "CASE_ALREADY_ERASED" });
    const preview = await w.call("approver", "GET", `/erasures/preview?surveyId=${w.a.heart}&patientId=ERASE_1`);
    expect(preview.status).toBe(409);
    const missing = await erase(w, w.a.heart, "NEVER_THERE");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toMatchObject({ Type: "SURVEY_PATIENTID_NOT_FOUND" });
    // Editors and participants may not; nobody who may not see the survey learns that it exists.
    for (const who of ["editor", "user"] as const) {
      const refused = await w.call(who, "POST", "/erasures", {
        SurveyId: w.a.heart,
        PatientId: "ERASE_2",
        Reason: "wrongPatient",
      });
      expect(refused.status).toBe(403);
    }
    const foreign = await erase(w, 999_999, "ERASE_2");
    expect(foreign.status).toBe(404);
    expect(await json(foreign)).toMatchObject({ Type: "SURVEY_NOT_FOUND" });
    const bad = await w.call("approver", "POST", "/erasures", { SurveyId: w.a.heart, PatientId: "ERASE_2" });
    expect(bad.status).toBe(400);
    expect(await auditCount()).toBe(before);
    expect((await leftOf(w.db, (await caseOf(w.db, w.a.heart, "ERASE_2"))!)).patient_data).toBe(1);
  });

  it("still finds tampering after an erasure, and the table lets nothing but an erasure through", async () => {
    const w = world();
    const key = String(w.a.heart);
    const rows = await w.db
      .selectFrom("audit_log")
      .select(["id", "erased_at", "patient_data_id"])
      .where("survey_id", "=", w.a.heart)
      .orderBy("id")
      .execute();
    const kept = rows.find((r) => !r.erased_at && r.patient_data_id !== null)!;
    const erasedRow = rows.find((r) => r.erased_at)!;
    // The triggers: no other change, no un-erasing, no deletion.
    await expect(
      w.db.updateTable("audit_log").set({ after: '{"Text":"x"}' }).where("id", "=", erasedRow.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      w.db.updateTable("audit_log").set({ action: "x" }).where("id", "=", kept.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(w.db.deleteFrom("audit_log").where("id", "=", erasedRow.id).execute()).rejects.toThrow(/append-only/);
    // Erasing a row by hand, with no erasure naming it, is a change.
    const byHand = await tampered(w, key, (trx) =>
      trx
        .updateTable("audit_log")
        .set({ before: null, after: null, erased_at: new Date().toISOString() })
        .where("id", "=", kept.id)
        .execute()
        .then(),
    );
    expect(byHand).toMatchObject({ ok: false, firstBad: { id: kept.id, kind: "changed" } });
    // A kept value changed after the erasure is found as before.
    const changed = await tampered(w, key, (trx) =>
      trx.updateTable("audit_log").set({ after: '{"Text":"anders"}' }).where("id", "=", kept.id).execute().then(),
    );
    expect(changed).toMatchObject({ ok: false, firstBad: { id: kept.id, kind: "changed" } });
    // An erased row's remaining fields are still covered by its hash.
    const moved = await tampered(w, key, (trx) =>
      trx.updateTable("audit_log").set({ actor_sub: "someone" }).where("id", "=", erasedRow.id).execute().then(),
    );
    expect(moved).toMatchObject({ ok: false, firstBad: { id: erasedRow.id, kind: "changed" } });
  });
});

async function caseOf(db: DB, surveyId: number, patientId: string) {
  const row = await db
    .selectFrom("patient_data")
    .select("id")
    .where("survey_id", "=", surveyId)
    .where("patient_id", "=", patientId)
    .executeTakeFirst();
  return row?.id;
}

class Rollback extends Error {}

/** Tampers as an administrator could (triggers dropped), verifies, and rolls everything back. */
async function tampered(
  w: ReturnType<ReturnType<typeof useFillWorld>>,
  key: string,
  tamper: (trx: DB) => Promise<void>,
) {
  let verdict: Awaited<ReturnType<typeof verifyStoredChain>> | undefined;
  await w.db
    .transaction()
    .execute(async (trx) => {
      await dropAppendOnly(trx as unknown as MigrationDb, "audit_log");
      await tamper(trx);
      verdict = await verifyStoredChain(trx, key);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return verdict!;
}
