import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { demoSurveys } from "~/server/services/demo-data.server";
import { accessRolesOf } from "~/domain/user";
import { recordSignature, startSigning } from "~/server/services/fill/signatures.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { answersOf, fillCase, read, useStatisticsWorld, type Body } from "./statistics-support";
import { items } from "./fhir-items";

/**
 * FHIR R4 out (docs/decisions/040-fhir.md): the Questionnaire of the test survey and of every demo survey,
 * each case's QuestionnaireResponse and the bulk export, all valid R4 by the validator.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("FHIR out on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const questionnaireOf = async (id: number, who: "editor" | "approver" = "editor") =>
    read(await world().call(who, "GET", `/surveys/${id}/fhir/questionnaire`));

  it("the test survey's Questionnaire: valid R4, groups, codes, units, sub-questions and rules", async () => {
    const f = fixture();
    const res = await world().call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire`);
    expect(res.headers.get("content-type")).toContain("application/fhir+json");
    const q = await read(res);
    expectValidR4(q);
    expect(q.resourceType).toBe("Questionnaire");
    expect(q.status).toBe("active");
    expect(q.url).toMatch(new RegExp(`/api/surveys/${f.survey}/fhir/questionnaire$`));
    const top = q.item.map((i: Body) => i.linkId);
    expect(top).toEqual(["preliminary", `C${f.categories.befinden}`, `C${f.categories.wissen}`]);
    expect(q.item[0].item.map((i: Body) => i.linkId)).toEqual([`P${f.smoker.id}`, `P${f.sex.id}`]);
    const byId = new Map(items(q).map((i) => [i.linkId, i]));
    const feeling = byId.get(`Q${f.q.feeling}`);
    expect(feeling.type).toBe("choice");
    expect(feeling.answerOption.map((o: Body) => o.valueCoding.code)).toEqual(["G1", "G2", "G3"]);
    // The sub-question under "gut", shown when "gut" is the answer.
    const since = feeling.item.find((i: Body) => i.linkId === `Q${f.q.since}`);
    expect(since.enableWhen).toEqual([
      { question: `Q${f.q.feeling}`, operator: "=", answerCoding: { code: "G1", display: "gut" } },
    ]);
    expect(byId.get(`Q${f.q.complaints}`).repeats).toBe(true);
    const weight = byId.get(`Q${f.q.weight}`);
    expect(weight.type).toBe("decimal");
    expect(weight.extension).toEqual([
      { url: "http://hl7.org/fhir/StructureDefinition/questionnaire-unit", valueCoding: { display: "kg" } },
    ]);
    expect(byId.get(`Q${f.q.measured}`).type).toBe("dateTime");
    expect(byId.get(`Q${f.q.notes}`).type).toBe("text");
    expect(byId.get(`Q${f.q.daily}`).enableWhen).toEqual([
      { question: `P${f.smoker.id}`, operator: "=", answerCoding: { code: String(f.smoker.yes), display: "ja" } },
    ]);
    // A test weight is no score: the product's own test-weight beside its weighting state, on the option;
    // nothing on the coding, and no ordinalValue, which SDC forms would add up.
    const pulse = byId.get(`Q${f.q.pulse}`);
    const own = (name: string) => new URL(`/fhir/StructureDefinition/${name}`, q.url).href;
    expect(pulse.extension).toEqual([{ url: own("test-question"), valueBoolean: true }]);
    expect(pulse.answerOption.map((o: Body) => [o.valueCoding, o.extension])).toEqual([
      [
        { code: String(f.o.p60), display: "60 bis 100" },
        [
          { url: own("weighting-state"), valueInteger: 1 },
          { url: own("test-weight"), valueInteger: 2 },
        ],
      ],
      [{ code: String(f.o.p120), display: "120 bis 160" }, [{ url: own("weighting-state"), valueInteger: 0 }]],
      [{ code: String(f.o.pUnknown), display: "weiß nicht" }, undefined],
    ]);
    // The same linkIds and codes on a second export.
    expect(await questionnaireOf(f.survey, "approver")).toEqual(q);
  });

  it("every demo survey's Questionnaire is valid R4, in any status", async () => {
    const w = world();
    const demos = await w.db
      .selectFrom("surveys")
      .select("id")
      .where(
        "title",
        "in",
        demoSurveys().map((d) => d.title),
      )
      .execute();
    expect(demos.length).toBeGreaterThan(Object.values(w.a).length);
    for (const { id } of demos) {
      const q = await questionnaireOf(id);
      expectValidR4(q);
      expect(items(q).length).toBeGreaterThan(0);
    }
  });

  it("each case's QuestionnaireResponse: valid, its answers' value[x], completed or in-progress", async () => {
    const f = fixture();
    const w = world();
    for (const patientId of ["P1", "P2", "P3", "P4", "P5", "P6", "OPEN"]) {
      const qr = await read(
        await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`),
      );
      expectValidR4(qr);
      expect(qr.status).toBe(patientId === "OPEN" ? "in-progress" : "completed");
      expect(qr.subject.identifier.value).toBe(patientId);
    }
    const p1 = await read(
      await w.call("approver", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=P1`),
    );
    const byId = new Map(items(p1).map((i) => [i.linkId, i]));
    expect(byId.get(`Q${f.q.weight}`).answer).toEqual([{ valueDecimal: 70.5 }]);
    // The typed wall-clock time in the clinic's zone (Europe/Berlin), with the offset of its date.
    expect(byId.get(`Q${f.q.measured}`).answer).toEqual([{ valueDateTime: "2024-03-01T08:00:00+01:00" }]);
    expect(byId.get(`Q${f.q.notes}`).answer[0].valueString).toBe("Die Atemnot ist besser");
    expect(byId.get(`Q${f.q.complaints}`).answer.map((a: Body) => a.valueCoding.display)).toEqual(["Husten", "Fieber"]);
    // The sub-question inside the answer it stands under.
    const feeling = byId.get(`Q${f.q.feeling}`);
    expect(feeling.answer[0].item[0].linkId).toBe(`Q${f.q.since}`);
    // The file as an Attachment that links to the API.
    const files = byId.get(`Q${f.q.notes}.files`);
    expect(files.answer[0].valueAttachment).toMatchObject({ title: "befund.pdf", contentType: "application/pdf" });
    expect(files.answer[0].valueAttachment.url).toContain(`surveyFileAttachmentId=${f.files.P1[0]}`);
    // A small file travels inside the response too.
    expect(Buffer.from(files.answer[0].valueAttachment.data, "base64").toString("latin1")).toContain("(P1) Tj");
    expect(p1.item[0].linkId).toBe("preliminary");
  });

  it("the bulk export: NDJSON and a Bundle of the counted cases, each valid; filters apply", async () => {
    const f = fixture();
    const w = world();
    const res = await w.call("editor", "POST", `/statistics/${f.survey}/fhir`, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/fhir+ndjson");
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((r) => r.subject.identifier.value)).toEqual(["P1", "P2", "P3", "P4", "P5", "P6"]);
    for (const r of lines) expectValidR4(r);
    // Winter and summer time: P1 on 1 March, P5 on 2 April 2024 (summer time from 31 March).
    const measured = lines.map((r) => items(r).find((i) => i.linkId === `Q${f.q.measured}`)?.answer[0].valueDateTime);
    expect(measured).toEqual([
      "2024-03-01T08:00:00+01:00",
      "2024-03-01T20:30:00+01:00",
      "2024-03-15T12:00:00+01:00",
      undefined,
      "2024-04-02T09:15:00+02:00",
      undefined,
    ]);
    const bundle = await read(await w.call("approver", "POST", `/statistics/${f.survey}/fhir?format=bundle`, {}));
    expectValidR4(bundle);
    expect(bundle.entry).toHaveLength(6);
    const filtered = await read(
      await w.call("editor", "POST", `/statistics/${f.survey}/fhir?format=bundle`, {
        PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] },
      }),
    );
    expect(filtered.entry.map((e: Body) => e.resource.subject.identifier.value)).toEqual(["P1", "P2", "P5"]);
  });

  it("a date-time typed in the hour the clocks skip or repeat: a valid offset, as decision 053 says", async () => {
    const f = fixture();
    const w = world();
    const typed = { SPRING: "29.03.2026 02:30", AUTUMN: "25.10.2026 02:30" };
    for (const [patientId, measured] of Object.entries(typed))
      await fillCase(w, f, patientId, { ...answersOf.P1, measured, files: [], close: false });
    const valueOf = async (patientId: string) => {
      const qr = await read(
        await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`),
      );
      expectValidR4(qr);
      return items(qr).find((i) => i.linkId === `Q${f.q.measured}`).answer[0].valueDateTime;
    };
    // 02:30 does not exist on 29 March: the clocks not yet turned, moved on by the hour, in summer time.
    expect(await valueOf("SPRING")).toBe("2026-03-29T03:30:00+02:00");
    // 02:30 comes twice on 25 October: the earlier, still in summer time.
    expect(await valueOf("AUTUMN")).toBe("2026-10-25T02:30:00+02:00");
  });

  it("the OpenAPI document describes the FHIR endpoints", async () => {
    const doc = await read(await world().call("editor", "GET", "/openapi.json"));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/surveys/{surveyId}/fhir/questionnaire",
        "/surveys/{surveyId}/fhir/questionnaire-response",
        "/statistics/{surveyId}/fhir",
        "/surveys/fhir-import",
      ]),
    );
    const importing = doc.paths["/surveys/fhir-import"].post;
    expect(importing.summary).toContain("Draft survey");
    // The import takes a FHIR resource's own media type and JSON's; its preview answers 200, its creation 201.
    expect(Object.keys(importing.requestBody.content)).toEqual(["application/fhir+json", "application/json"]);
    expect(importing.responses["200"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/FhirImportPreview",
    );
    expect(importing.responses["201"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/FhirImportResult",
    );
  });

  it("only editors and approvers read FHIR, and each read is logged", async () => {
    const f = fixture();
    const w = world();
    for (const who of ["user", "outsider"] as const) {
      expect((await w.call(who, "GET", `/surveys/${f.survey}/fhir/questionnaire`)).status).toBe(403);
      expect((await w.call(who, "POST", `/statistics/${f.survey}/fhir`, {})).status).toBe(403);
      const one = await w.call(who, "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=P1`);
      expect(one.status).toBe(403);
    }
    expect(
      (await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=NOPE`)).status,
    ).toBe(404);
    const actions = await w.db
      .selectFrom("audit_log")
      .select("action")
      .where("survey_id", "=", f.survey)
      .where("action", "like", "fhir.%")
      .execute();
    const seen = new Set(actions.map((a) => a.action));
    expect(seen).toEqual(new Set(["fhir.questionnaire", "fhir.questionnaire-response", "fhir.export"]));
  });

  it("a signed case carries its signature, and stays valid", async () => {
    const f = fixture();
    const w = world();
    await fillCase(w, f, "SIGNED", { ...answersOf.P1, files: [], close: false });
    await w.db.updateTable("surveys").set({ requires_signature: 1 }).where("id", "=", f.survey).execute();
    const user = await w.db.selectFrom("users").selectAll().where("sub", "=", "user").executeTakeFirstOrThrow();
    const teams = await w.db.selectFrom("user_teams").select("team_id").where("user_id", "=", user.id).execute();
    const caller = {
      surveyUserDataId: user.id,
      sub: user.sub,
      roles: accessRolesOf(JSON.parse(user.roles) as string[]),
      teamIds: teams.map((t) => t.team_id),
      culture: user.culture,
    };
    const intent = await startSigning(w.db, caller, {
      surveyId: f.survey,
      patientId: "SIGNED",
      meaning: "author",
      sessionId: "s",
    });
    const signer = { surveyUserDataId: user.id, sub: user.sub, name: "Test Person" };
    expect((await recordSignature(w.db, intent, signer, new Date())).ok).toBe(true);
    const qr = await read(
      await w.call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=SIGNED`),
    );
    expectValidR4(qr);
    expect(qr.status).toBe("completed");
    expect(qr.extension).toHaveLength(1);
    expect(qr.extension[0].url).toBe("http://hl7.org/fhir/StructureDefinition/questionnaireresponse-signature");
    expect(qr.extension[0].valueSignature.who).toEqual({ display: "Test Person" });
  });
});
