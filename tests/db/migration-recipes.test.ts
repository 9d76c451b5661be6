import { describe, expect, it } from "vitest";
import * as m0011 from "~/server/db/migrations/0011_audit_chain";
import * as m0017 from "~/server/db/migrations/0017_erasure";
import { audit, auditAll, type Actor } from "~/server/services/audit.server";
import * as live from "~/server/services/audit-chain.server";
import { describeEachDialect, useTestDb } from "../support/databases";

/**
 * Migrations 0011 and 0017 keep the hash recipes they chained the rows with (docs/decisions/027-audit-chain.md,
 * 042-retention-and-erasure.md) instead of importing the live ones: their results are pinned here, and the
 * live recipes must still agree with them for the rows the server writes today. A change of the live recipe
 * fails this test; it then needs its own migration and a verifier that still knows the rows hashed before it,
 * and the migrations' copies stay as they are.
 */

/** The example row of decision 027, "The hash recipe". */
const example = {
  at: "2026-11-25T01:00:00.000Z",
  actor_user_id: 7,
  actor_sub: "idp|erika",
  action: "response.save",
  entity: "question_response",
  entity_id: "42",
  survey_id: 3,
  patient_data_id: 9,
  before: null,
  after: '{"Text":"Übelkeit"}',
};

/** Rows as stored, with what JSON text may hold: nulls, escapes, control characters, text beyond the BMP. */
const rows: m0011.AuditRowContent[] = [
  example,
  { ...example, actor_user_id: null, actor_sub: null, entity_id: null, survey_id: null, patient_data_id: null },
  { ...example, before: '{"Text":"a\\"b\\\\c"}', after: '{"Text":"Zeile 1\\nZeile 2\\t\\u0001"}' },
  { ...example, action: "case.erase", after: '{"ErasedRows":[1,2,3]}', entity_id: "Straße 7 – ½ 😷" },
  { ...example, at: "2027-01-01T00:00:00.000Z", actor_user_id: 2_147_483_647, before: "null", after: "[]" },
];
const prevs = [null, "ab12", "0".repeat(64)];

describe("the migrations' own hash recipes", () => {
  it("still compute what they computed when they ran", () => {
    expect(m0011.auditRowHash(example, "ab12")).toBe(
      "b6b6ed8a3271fa8b40ccea222c727757ad232bae30ef52ce9eceaad778b5145f",
    );
    const digest = m0017.valuesDigest(example.before, example.after);
    expect(digest).toBe("d1e5c937948242e8830788f3da002b856ebe8ab05526e43fae58f2b7768d523b");
    expect(m0017.chainedRowHash(example, digest, "ab12")).toBe(
      "f93bd238fa36964b017f2ce5554d91a4e05c6829f2b6eacfb7107079af2a47a7",
    );
    expect([m0011.chainKeyOf(null), m0011.chainKeyOf(12), m0017.chainKeyOf(undefined), m0017.chainKeyOf(3)]).toEqual([
      "global",
      "12",
      "global",
      "3",
    ]);
  });

  it("agree with the live recipes", () => {
    for (const row of rows) {
      expect(live.valuesDigest(row.before, row.after)).toBe(m0017.valuesDigest(row.before, row.after));
      expect(live.chainKeyOf(row.survey_id)).toBe(m0011.chainKeyOf(row.survey_id));
      expect(live.chainKeyOf(row.survey_id)).toBe(m0017.chainKeyOf(row.survey_id));
      for (const prev of prevs) {
        expect(live.auditRowHash(row, prev)).toBe(m0011.auditRowHash(row, prev));
        const digest = m0017.valuesDigest(row.before, row.after);
        expect(live.chainedRowHash(row, digest, prev)).toBe(m0017.chainedRowHash(row, digest, prev));
      }
    }
  });
});

describeEachDialect("the migrations' own hash recipes on the rows written today", (kind) => {
  const db = useTestDb(kind);
  const actor: Actor = { surveyUserDataId: 3, sub: "idp|erika" };

  it("hash them as the writer did", async () => {
    await audit(db(), actor, {
      action: "survey.update",
      entity: "survey",
      entityId: 5,
      surveyId: 5,
      after: { T: "Ä" },
    });
    await audit(db(), { surveyUserDataId: null, sub: null }, { action: "login", entity: "user" });
    await auditAll(db(), actor, [
      { action: "response.save", entity: "question_response", surveyId: 5, patientDataId: 8, before: { Text: "a" } },
      { action: "response.save", entity: "question_response", surveyId: 5, after: { Text: "Zeile\n😷" } },
    ]);
    const stored = await db().selectFrom("audit_log").selectAll().orderBy("id").execute();
    expect(stored).toHaveLength(4);
    for (const row of stored) {
      expect(row.values_hash).toBe(m0017.valuesDigest(row.before, row.after));
      expect(row.hash).toBe(m0017.chainedRowHash(row, row.values_hash!, row.prev_hash));
      expect(live.auditRowHash(row, row.prev_hash)).toBe(m0011.auditRowHash(row, row.prev_hash));
    }
  });
});
