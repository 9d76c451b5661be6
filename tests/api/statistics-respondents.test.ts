import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Statistics, StatisticsFilterData, StatisticsFilters } from "~/domain/statistics";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { expectValidR4 } from "../support/fhir-validator";
import { setRespondents } from "./respondents-support";
import { allQuestions } from "./statistics-scripts-support";
import { parseCsv, read, useStatisticsWorld, utf8, type Body } from "./statistics-support";

/**
 * Who answered a case in the statistics, the export and FHIR (docs/decisions/057-patient-links.md): a filter
 * the figures follow, the Respondent and RespondentLink columns, and a patient who answered named as the
 * QuestionnaireResponse's author and source.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

/** The figures without their labels. */
function figuresOnly(s: Statistics) {
  return {
    cases: s.NumSurveyResponses,
    questions: allQuestions(s).map((q) => ({
      id: q.QuestionId,
      answered: q.TotalQuestionResponses,
      notAnswered: q.NotAnswered,
      score: q.ScorePercentage,
      answers: q.AnswerStatistics.map((a) => [a.AnswerOptionId, a.TotalAnswerOptionResponses]),
    })),
  };
}

describe.each(dialects)("who answered, in the statistics on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let reset: () => Promise<void>;
  beforeAll(async () => {
    reset = await setRespondents(world().db, fixture().cases);
  });
  afterAll(async () => {
    await reset();
  });
  const call = async (path: string, body: unknown = {}) => read(await world().call("editor", "POST", path, body));
  const figures = (filters: StatisticsFilters): Promise<Statistics> =>
    call(`/statistics/${fixture().survey}?wordCloud=false`, filters);

  it("the filter data offers the three; the figures follow the filter as they follow the cases it keeps", async () => {
    const f = fixture();
    const data: StatisticsFilterData = await read(
      await world().call("editor", "GET", `/statisticsFilterData?surveyId=${f.survey}`),
    );
    expect(data.Respondents).toEqual(["staff", "link", "handover"]);
    const counted = async (Respondents: StatisticsFilters["Respondents"]) =>
      (await figures({ Respondents })).NumSurveyResponses;
    expect(await counted(["staff"])).toBe(4);
    expect(await counted(["link"])).toBe(1);
    expect(await counted(["handover"])).toBe(1);
    expect(await counted(["link", "handover"])).toBe(2);
    expect(await counted(["staff", "handover"])).toBe(5);
    expect(await counted(["staff", "link", "handover"])).toBe(6);
    expect(await counted([])).toBe(6);
    // Every question's figures are those of the same cases chosen by their patient ids.
    const [byLink, byPatient] = await Promise.all([
      figures({ Respondents: ["link"] }),
      figures({ PatientIds: ["P1"] }),
    ]);
    expect(figuresOnly(byLink)).toEqual(figuresOnly(byPatient));
    const [staff, staffCases] = await Promise.all([
      figures({ Respondents: ["staff"] }),
      figures({ PatientIds: ["P2", "P4", "P5", "P6"] }),
    ]);
    expect(figuresOnly(staff)).toEqual(figuresOnly(staffCases));
    // With the other filters: the patients who answered among the smokers (P1, P2, P5).
    const f2 = { Respondents: ["link", "handover"], PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } };
    expect((await figures(f2 as StatisticsFilters)).NumSurveyResponses).toBe(1);
    expect(await call(`/statistics/${f.survey}/patient-ids`, { Respondents: ["link", "handover"] })).toEqual([
      "P1",
      "P3",
    ]);
    const refused = await world().call("editor", "POST", `/statistics/${f.survey}`, { Respondents: ["patient"] });
    expect(refused.status).toBe(400);
  });

  it("responses.csv names who answered and the link's number; the export follows the filter", async () => {
    const f = fixture();
    const zip = async (filters: StatisticsFilters) => {
      const res = await world().call("editor", "POST", `/statistics/${f.survey}/csv?culture=en-US`, filters);
      expect(res.status).toBe(200);
      return unzipSync(new Uint8Array(await res.arrayBuffer()));
    };
    const all = await zip({});
    const [header, ...rows] = parseCsv(utf8.decode(all["responses.csv"]).slice(1), ",");
    const at = (name: string) => header.indexOf(name);
    expect(header.slice(4, 7)).toEqual(["Language", "Respondent", "RespondentLink"]);
    expect(rows.map((r) => [r[0], r[at("Respondent")], r[at("RespondentLink")]])).toEqual([
      ["P1", "link", "7"],
      ["P2", "staff", ""],
      ["P3", "handover", ""],
      ["P4", "staff", ""],
      ["P5", "staff", ""],
      ["P6", "staff", ""],
    ]);
    const vars = parseCsv(utf8.decode(all["codebook-variables.csv"]).slice(1), ",");
    const respondent = vars.find((v) => v[0] === "Respondent")!;
    expect(respondent.slice(1, 4)).toEqual(["Respondent", "Respondent (value labels)", "Answered by"]);
    expect(respondent[6]).toBe(
      "1 = Staff (staff); 2 = The patient, by link (link); 3 = The patient, on a handed-over device (handover)",
    );
    expect(vars.find((v) => v[0] === "RespondentLink")!.slice(1, 4)).toEqual([
      "RespondentLink",
      "number",
      "The patient's link (number)",
    ]);
    const linked = await zip({ Respondents: ["link"] });
    expect(parseCsv(utf8.decode(linked["responses.csv"]).slice(1), ",").slice(1)).toEqual([rows[0]]);
  });

  it("FHIR: a patient who answered is the response's author and source, by the case's patient id", async () => {
    const f = fixture();
    const response = async (patientId: string) =>
      read(
        await world().call("editor", "GET", `/surveys/${f.survey}/fhir/questionnaire-response?patientId=${patientId}`),
      );
    for (const patientId of ["P1", "P3"]) {
      const qr = await response(patientId);
      expectValidR4(qr);
      const patient = { type: "Patient", identifier: { value: patientId }, display: patientId };
      expect(qr.subject).toEqual({ identifier: { value: patientId }, display: patientId });
      expect(qr.author).toEqual(patient);
      expect(qr.source).toEqual(patient);
    }
    // Staff's cases stay as they were: no author, no source.
    const staff = await response("P2");
    expect(staff).not.toHaveProperty("author");
    expect(staff).not.toHaveProperty("source");
    // The bulk export: the same, and the filter applies.
    const res = await world().call("editor", "POST", `/statistics/${f.survey}/fhir`, { Respondents: ["handover"] });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Body);
    expect(lines.map((r) => [r.subject.identifier.value, r.author?.identifier.value])).toEqual([["P3", "P3"]]);
    expectValidR4(lines[0]);
    const bundle = await read(await world().call("editor", "POST", `/statistics/${f.survey}/fhir?format=bundle`, {}));
    expectValidR4(bundle);
    expect(bundle.entry.map((e: Body) => e.resource.source?.identifier.value ?? null)).toEqual([
      "P1",
      null,
      "P3",
      null,
      null,
      null,
    ]);
  });
});
