import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { syncPayload } from "./sync-payload";
import { getEntry, recordAnswer, recordPreliminary } from "./fill-store";
import { beginDeviceHandover, endDeviceHandover, returnOffline } from "./handover-device";
import { ctx, freshDatabases, question, survey, testHolder } from "./test-support";

beforeEach(freshDatabases);

const kase = { surveyId: survey.Id, patientId: "P-H1" };

/** Answers kept offline while the device is handed over are the patient's (docs/decisions/058-hand-over.md). */
describe("a fill kept on a handed-over device", () => {
  it("is marked as the patient's and the sync says so", async () => {
    // Staff answered the preliminary page before handing over: the case is not marked yet.
    const before = await recordPreliminary(ctx("P-H1"), 50, 501);
    expect(before.respondent).toBeUndefined();
    expect(syncPayload(before)).not.toHaveProperty("Respondent");
    await beginDeviceHandover(await testHolder(), kase, "2468", "token", 1000);
    const entry = await recordAnswer(ctx("P-H1"), question(1, "SingleSelection"), { AnswerOptionIds: [11] });
    expect(entry.respondent).toBe("handover");
    expect(syncPayload(entry)).toMatchObject({ PatientId: "P-H1", Respondent: "handover" });
    // Back with staff: the case stays the patient's.
    await endDeviceHandover(await testHolder());
    const after = await recordAnswer(ctx("P-H1"), question(2, "FreeText"), { TextResponse: "müde" });
    expect(syncPayload(after).Respondent).toBe("handover");
    expect((await getEntry(survey.Id, "P-H1"))?.respondent).toBe("handover");
  });

  it("leaves other cases, and cases after the PIN returned the device offline, with staff", async () => {
    await beginDeviceHandover(await testHolder(), kase, "2468", "token", 1000);
    const other = await recordAnswer(ctx("P-OTHER"), question(1, "SingleSelection"), { AnswerOptionIds: [11] });
    expect(other.respondent).toBeUndefined();
    await returnOffline(await testHolder(), "token");
    const returned = await recordAnswer(ctx("P-H1"), question(1, "SingleSelection"), { AnswerOptionIds: [12] });
    expect(returned.respondent).toBeUndefined();
    expect(syncPayload(returned)).not.toHaveProperty("Respondent");
  });
});
