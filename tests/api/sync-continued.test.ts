import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { caseRow, json, optionId, preliminaryOption, questionId, startCase, useFillWorld } from "./fill-support";
import { countsOf, errorType, payload, sync } from "./sync-support";

// A case open on the server continued on a device that has its answers (docs/decisions/038-typed-work-kept.md):
// every answer write names the case's answers version; a sync that continues that version sends only its
// changes and meets no clash; one whose case changed meanwhile is a clash as before.

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface Written {
  RemovedQuestionIds: number[];
  Version: number;
}

describe.each(dialects)("a case continued from its version on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  let survey: number;
  const q = { notes: 0, weight: 0, breath: 0 };
  beforeAll(async () => {
    const w = world();
    survey = w.a.heart;
    q.notes = await questionId(w.db, survey, "Weitere Beschwerden");
    q.weight = await questionId(w.db, survey, "Körpergewicht");
    q.breath = await questionId(w.db, survey, "Wie stark ist die Atemnot bei Belastung?");
  });

  const text = (patientId: string, TextResponse: string) =>
    world().call("user", "POST", "/question-responses/free-text", {
      PatientId: patientId,
      SurveyId: survey,
      QuestionId: q.notes,
      TextResponse,
    });
  const versionOf = async (patientId: string) =>
    (
      await json<{ Version: number }>(
        await world().call("user", "GET", `/patients?surveyId=${survey}&patientId=${patientId}`),
      )
    ).Version;

  it("names the answers version with every write; the same value again writes nothing and keeps it", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "V_WRITE");
    const start = await versionOf("V_WRITE");
    expect(start).toEqual(expect.any(Number));

    const first = await json<Written>(await text("V_WRITE", "Schmerz beim"));
    expect(first.Version).toBeGreaterThan(start);
    expect(await versionOf("V_WRITE")).toBe(first.Version);
    const second = await json<Written>(await text("V_WRITE", "Schmerz beim Gehen"));
    expect(second.Version).toBeGreaterThan(first.Version);

    // A save sent twice (a browser repeating it, a page delivering a value again) is one save.
    const before = await countsOf(w.db, caseId, "response.record");
    const again = await json<Written>(await text("V_WRITE", "Schmerz beim Gehen"));
    expect(again).toEqual({ RemovedQuestionIds: [], Version: second.Version });
    expect(await countsOf(w.db, caseId, "response.record")).toEqual(before);

    const male = await preliminaryOption(w.db, survey, "männlich");
    const prelim = await w.call("user", "POST", "/attribute-responses", {
      PatientId: "V_WRITE",
      SurveyId: survey,
      PatientFormAttributeId: male.attributeId,
      PatientFormAnswerOptionId: male.optionId,
    });
    expect((await json<Written>(prelim)).Version).toBeGreaterThan(second.Version);

    const latest = await json<{ PatientId: string; Version: number }[]>(
      await w.call("user", "GET", `/patients/latest?count=10&surveyId=${survey}`),
    );
    expect(latest.find((l) => l.PatientId === "V_WRITE")?.Version).toBe(await versionOf("V_WRITE"));
  });

  it("applies only the changes of a fill that continues the case's version: no clash", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "V_CONT");
    await text("V_CONT", "Schmerz beim Gehen");
    const mild = await optionId(w.db, q.breath, "leicht");
    const chosen = await w.call("user", "POST", "/question-responses/single-selection", {
      PatientId: "V_CONT",
      SurveyId: survey,
      QuestionId: q.breath,
      AnswerOptionId: mild,
    });
    const base = (await json<Written>(chosen)).Version;

    // Offline, the device changed the text, added a weight and removed the choice.
    const body = await payload(w.db, survey, "V_CONT", {
      BaseVersion: base,
      QuestionAnswers: [
        { QuestionId: q.notes, TextResponse: "Schmerz beim Gehen, nachts" },
        { QuestionId: q.weight, NumericalResponse: 81.5 },
      ],
      RemovedQuestionIds: [q.breath],
    });
    const res = await sync(w, survey, body, { key: "key-continued-1" });
    expect(res.status).toBe(200);
    const result = await json<{ Data: number; Version: number }>(res);
    expect(result.Data).toBe(caseId);
    expect(result.Version).toBe(await versionOf("V_CONT"));
    expect(result.Version).toBeGreaterThan(base);
    const answers = await json<{ QuestionId: number; TextResponse?: string; NumericalResponse?: number }[]>(
      await w.call("user", "GET", `/question-responses/?surveyId=${survey}&patientId=V_CONT`),
    );
    expect(answers.sort((a, b) => a.QuestionId - b.QuestionId)).toEqual(
      [
        { QuestionId: q.notes, TextResponse: "Schmerz beim Gehen, nachts" },
        { QuestionId: q.weight, NumericalResponse: 81.5 },
      ].sort((a, b) => a.QuestionId - b.QuestionId),
    );
    expect((await caseRow(w.db, survey, "V_CONT"))?.state).toBe("Open");

    // The same sync again (its answer was lost) answers the same, and changes nothing.
    const replay = await sync(w, survey, body, { key: "key-continued-1" });
    expect(await json(replay)).toEqual(result);
    expect(await countsOf(w.db, caseId)).toMatchObject({ audits: 1 });
  });

  it("keeps the answers the fill did not touch, and the preliminary answers it did not change", async () => {
    const w = world();
    await startCase(w, survey, "V_KEEP");
    await text("V_KEEP", "bleibt");
    const male = await preliminaryOption(w.db, survey, "männlich");
    const prelim = await w.call("user", "POST", "/attribute-responses", {
      PatientId: "V_KEEP",
      SurveyId: survey,
      PatientFormAttributeId: male.attributeId,
      PatientFormAnswerOptionId: male.optionId,
    });
    const base = (await json<Written>(prelim)).Version;
    const res = await sync(
      w,
      survey,
      await payload(w.db, survey, "V_KEEP", {
        BaseVersion: base,
        QuestionAnswers: [{ QuestionId: q.weight, NumericalResponse: 70 }],
        Close: true,
      }),
    );
    expect(res.status).toBe(200);
    const answers = await json<{ QuestionId: number }[]>(
      await w.call("user", "GET", `/question-responses/?surveyId=${survey}&patientId=V_KEEP`),
    );
    expect(answers.map((a) => a.QuestionId).sort()).toEqual([q.notes, q.weight].sort());
    const kept = await json<unknown[]>(
      await w.call("user", "GET", `/attribute-responses/?surveyId=${survey}&patientId=V_KEEP`),
    );
    expect(kept).toEqual([{ PatientFormAttributeId: male.attributeId, PatientFormAnswerOptionId: male.optionId }]);
    expect((await caseRow(w.db, survey, "V_KEEP"))?.state).toBe("Closed");
  });

  it("is a clash when the case changed after the version the fill continues", async () => {
    const w = world();
    const caseId = await startCase(w, survey, "V_CLASH");
    const base = (await json<Written>(await text("V_CLASH", "vom Gerät geladen"))).Version;
    // Another device changes the case meanwhile.
    await text("V_CLASH", "anderswo geändert");
    const body = await payload(w.db, survey, "V_CLASH", {
      BaseVersion: base,
      QuestionAnswers: [{ QuestionId: q.weight, NumericalResponse: 90 }],
    });
    const res = await sync(w, survey, body);
    expect(res.status).toBe(409);
    expect(await errorType(res)).toBe("SYNC_SURVEY_PATIENTID_CLASH");
    expect(await countsOf(w.db, caseId)).toMatchObject({ answerRows: 1, audits: 0 });
  });

  it("refuses changes without the version they continue, and a version with Overwrite", async () => {
    const w = world();
    await startCase(w, survey, "V_BAD");
    const version = await versionOf("V_BAD");
    const removedAlone = await sync(w, survey, await payload(w.db, survey, "V_BAD", { RemovedQuestionIds: [q.notes] }));
    expect(removedAlone.status).toBe(400);
    const both = await sync(w, survey, await payload(w.db, survey, "V_BAD", { BaseVersion: version, Overwrite: true }));
    expect(both.status).toBe(400);
    const foreign = await sync(
      w,
      survey,
      await payload(w.db, survey, "V_BAD", { BaseVersion: version, RemovedQuestionIds: [999_999] }),
    );
    expect(foreign.status).toBe(400);
  });
});
