import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { caseRow, json, startCase, useFillWorld, type FillWorld } from "./fill-support";
import { hashOf } from "./sync-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The language a case is filled in (docs/decisions/055-fill-languages.md), through the API. */
describe.each(dialects)("a case's language on %s", (kind) => {
  const world = useFillWorld(kind, () => idp);
  const q = (surveyId: number, patientId: string) => `patientId=${patientId}&surveyId=${surveyId}`;
  // The heart survey offers Turkish and Arabic besides German (as an editor sets them on a draft).
  const offer = (w: FillWorld) =>
    w.db.updateTable("surveys").set({ languages: '["tr","ar"]' }).where("id", "=", w.a.heart).execute();

  it("is chosen as a case starts, stored with it and read with its record; the source language by default", async () => {
    const w = world();
    await offer(w);
    expect((await w.call("user", "POST", `/patients/add?${q(w.a.heart, "LANG_AR")}&language=ar`)).status).toBe(201);
    expect((await caseRow(w.db, w.a.heart, "LANG_AR"))!.language).toBe("ar");
    const record = await json<{ Language: string }>(
      await w.call("user", "GET", `/patients?${q(w.a.heart, "LANG_AR")}`),
    );
    expect(record.Language).toBe("ar");
    await startCase(w, w.a.heart, "LANG_DEFAULT");
    expect((await caseRow(w.db, w.a.heart, "LANG_DEFAULT"))!.language).toBe("de");
    // A language the survey does not offer starts no case.
    const refused = await w.call("user", "POST", `/patients/add?${q(w.a.heart, "LANG_PL")}&language=pl`);
    expect(refused.status).toBe(400);
    expect((await json<{ Type: string }>(refused)).Type).toBe("VALIDATION_ERROR");
    expect(await caseRow(w.db, w.a.heart, "LANG_PL")).toBeUndefined();
  });

  it("is switched on an open case, its answers and their version untouched, with a trail entry", async () => {
    const w = world();
    await offer(w);
    const caseId = await startCase(w, w.a.heart, "LANG_SWITCH");
    const before = await caseRow(w.db, w.a.heart, "LANG_SWITCH");
    const to = (Language: string) =>
      w.call("user", "POST", `/patients/language?${q(w.a.heart, "LANG_SWITCH")}`, { Language });
    expect((await to("tr")).status).toBe(204);
    expect((await to("tr")).status).toBe(204);
    const after = await caseRow(w.db, w.a.heart, "LANG_SWITCH");
    expect(after!.language).toBe("tr");
    expect(after!.answers_version).toBe(before!.answers_version);
    const trail = await w.db
      .selectFrom("audit_log")
      .select(["action"])
      .where("patient_data_id", "=", caseId)
      .where("action", "=", "case.language")
      .execute();
    expect(trail).toHaveLength(1);
    for (const bad of ["pl", "xx"]) expect((await to(bad)).status).toBe(400);
    expect((await w.call("user", "POST", `/patients/close?${q(w.a.heart, "LANG_SWITCH")}`)).status).toBe(204);
    const closed = await to("ar");
    expect(closed.status).toBe(409);
    expect((await caseRow(w.db, w.a.heart, "LANG_SWITCH"))!.language).toBe("tr");
    expect(
      (await w.call("user", "POST", `/patients/language?${q(w.a.heart, "NOBODY")}`, { Language: "tr" })).status,
    ).toBe(404);
  });

  it("comes with an offline fill: a new case in it, an existing one switched to it", async () => {
    const w = world();
    await offer(w);
    const SurveyHash = await hashOf(w.db, w.a.heart);
    const sync = (PatientId: string, Language?: string) =>
      w.call("user", "POST", `/survey-offline-sync/${w.a.heart}`, {
        PatientId,
        SurveyHash,
        QuestionAnswers: [],
        PreliminaryQuestionAnswers: [],
        ...(Language ? { Language } : {}),
      });
    expect((await sync("LANG_SYNC_NEW", "ar")).status).toBe(200);
    expect((await caseRow(w.db, w.a.heart, "LANG_SYNC_NEW"))!.language).toBe("ar");
    await startCase(w, w.a.heart, "LANG_SYNC_OPEN");
    const version = (await caseRow(w.db, w.a.heart, "LANG_SYNC_OPEN"))!.answers_version;
    const continued = await w.call("user", "POST", `/survey-offline-sync/${w.a.heart}`, {
      PatientId: "LANG_SYNC_OPEN",
      SurveyHash,
      QuestionAnswers: [],
      PreliminaryQuestionAnswers: [],
      BaseVersion: Number(version),
      Language: "tr",
    });
    expect(continued.status).toBe(200);
    expect((await caseRow(w.db, w.a.heart, "LANG_SYNC_OPEN"))!.language).toBe("tr");
    // A fill that names no language leaves the case's; one the survey does not offer is refused.
    expect((await sync("LANG_SYNC_NONE")).status).toBe(200);
    expect((await caseRow(w.db, w.a.heart, "LANG_SYNC_NONE"))!.language).toBe("de");
    expect((await sync("LANG_SYNC_PL", "pl")).status).toBe(400);
  });
});
