import { respondentColumns, type Respondent } from "~/domain/respondents";
import type { DB } from "~/server/db/types.server";

/**
 * Who answered the statistics fixture's closed cases in the tests of decision 057 (docs/decisions/057-patient-links.md):
 * P1 the patient through link 7, P3 the patient on a device staff member 2 handed over, the others staff.
 * The columns are written as a link's or a hand-over's writes leave them.
 */
export const fixtureRespondents: Record<string, Respondent> = {
  P1: { kind: "link", linkId: 7 },
  P3: { kind: "handover", staffUserId: 2, staffName: "" },
};

/** Sets the fixture's respondents; the function returned sets every case back to staff. */
export async function setRespondents(db: DB, cases: Record<string, number>): Promise<() => Promise<void>> {
  for (const [patient, respondent] of Object.entries(fixtureRespondents)) {
    await db.updateTable("patient_data").set(respondentColumns(respondent)).where("id", "=", cases[patient]).execute();
  }
  return async () => {
    const ids = Object.keys(fixtureRespondents).map((p) => cases[p]);
    await db
      .updateTable("patient_data")
      .set(respondentColumns({ kind: "staff" }))
      .where("id", "in", ids)
      .execute();
  };
}
