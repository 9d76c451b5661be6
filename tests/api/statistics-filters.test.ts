import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";
import { read, useStatisticsWorld, type Body } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("statistics filters, free text, filter data and attachments on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  const teams = { station: 0, centre: 0 };

  beforeAll(async () => {
    const w = world();
    teams.station = await teamId(w.db, "Station 3A");
    teams.centre = await teamId(w.db, "Studienzentrum");
    // P1 and P2 were started on 1 March 2024 and closed on 5 March 2024.
    await w.db
      .updateTable("patient_data")
      .set({ created_at: "2024-03-01T10:00:00.000Z", closed_at: "2024-03-05T10:00:00.000Z" })
      .where("survey_id", "=", fixture().survey)
      .where("patient_id", "in", ["P1", "P2"])
      .execute();
  });

  const stats = async (filters: Body) =>
    read(await world().call("editor", "POST", `/statistics/${fixture().survey}`, filters));
  const ids = async (filters: Body) =>
    read(await world().call("editor", "POST", `/statistics/${fixture().survey}/patient-ids`, filters));
  const question = (s: Body, id: number) =>
    s.CategoryStatistics.flatMap((c: Body) => c.QuestionStatistics).find((q: Body) => q.QuestionId === id);
  const answered = (s: Body, id: number) => question(s, id).TotalQuestionResponses;

  it("patient ids: the counted cases, without the Open one", async () => {
    expect(await ids({})).toEqual(["P1", "P2", "P3", "P4", "P5", "P6"]);
    // The patient-id filter itself does not narrow its own choices.
    expect(await ids({ PatientIds: ["P1"] })).toEqual(["P1", "P2", "P3", "P4", "P5", "P6"]);
  });

  it("TeamIdsFilter: the team of the person who started the case", async () => {
    const centre = await stats({ TeamIdsFilter: [teams.centre] });
    expect(centre.NumSurveyResponses).toBe(2);
    expect(await ids({ TeamIdsFilter: [teams.centre] })).toEqual(["P5", "P6"]);
    expect(await ids({ TeamIdsFilter: [teams.station] })).toEqual(["P1", "P2", "P3", "P4"]);
    expect((await stats({ TeamIdsFilter: [teams.station, teams.centre] })).NumSurveyResponses).toBe(6);
    // Two cases answered the pulse question: too few for a flag.
    const wissen = centre.CategoryStatistics[1];
    expect(wissen.QuestionStatistics[0]).toMatchObject({ TotalQuestionResponses: 2, ScoreResult: 1, ScoreFlag: 4 });
    expect(wissen.ScoreFlag).toBe(4);
  });

  it("PatientIds: only the cases named", async () => {
    const f = fixture();
    const s = await stats({ PatientIds: ["P1", "P3", "OPEN", "NOBODY"] });
    expect(s.NumSurveyResponses).toBe(2);
    const feeling = s.CategoryStatistics[0].QuestionStatistics[0];
    expect(feeling.QuestionId).toBe(f.q.feeling);
    expect(feeling.AnswerStatistics.map((a: Body) => a.TotalAnswerOptionResponses)).toEqual([1, 1, 0]);
    expect(feeling.AnswerStatistics.map((a: Body) => a.PercentageAnswerOptionResponses)).toEqual([50, 50, 0]);
    // Not answered, of the named cases only: P1 and P3 wrote a note; P4 did not, and as a non-smoker was
    // never asked whether they smoke daily.
    expect([f.q.notes, f.q.daily].map((id) => question(s, id).NotAnswered)).toEqual([0, 0]);
    const p4 = await stats({ PatientIds: ["P3", "P4"] });
    expect([f.q.notes, f.q.daily, f.q.feeling].map((id) => question(p4, id).NotAnswered)).toEqual([1, 0, 0]);
  });

  it("StartDateTime and EndDateTime: started on or after, closed on or before that day", async () => {
    expect((await stats({ EndDateTime: "05.03.2024" })).NumSurveyResponses).toBe(2);
    expect(await ids({ EndDateTime: "05.03.2024" })).toEqual(["P1", "P2"]);
    expect((await stats({ EndDateTime: "04.03.2024" })).NumSurveyResponses).toBe(0);
    expect((await stats({ StartDateTime: "01.03.2024" })).NumSurveyResponses).toBe(6);
    expect((await stats({ StartDateTime: "02.03.2024" })).NumSurveyResponses).toBe(4);
    expect(await ids({ StartDateTime: "01.03.2024", EndDateTime: "01.03.2024" })).toEqual([]);
    const bad = await world().call("editor", "POST", `/statistics/${fixture().survey}`, {
      StartDateTime: "2024-03-01",
    });
    expect(bad.status).toBe(400);
  });

  it("PreliminaryQuestionsSelection: one of the chosen answers for every question listed", async () => {
    const f = fixture();
    const smokers = await stats({ PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } });
    expect(smokers.NumSurveyResponses).toBe(3);
    expect(answered(smokers, f.q.complaints)).toBe(3);
    const womenWhoSmoke = { [f.smoker.id]: [f.smoker.yes], [f.sex.id]: [f.sex.female] };
    expect(await ids({ PreliminaryQuestionsSelection: womenWhoSmoke })).toEqual(["P1", "P5"]);
    const either = { [f.sex.id]: [f.sex.female, f.sex.male] };
    expect((await stats({ PreliminaryQuestionsSelection: either })).NumSurveyResponses).toBe(6);
    // An empty choice filters nothing.
    expect((await stats({ PreliminaryQuestionsSelection: { [f.sex.id]: [] } })).NumSurveyResponses).toBe(6);
  });

  it("free text: pages newest first with Total, search case-insensitive and literal", async () => {
    const f = fixture();
    const page = async (query: string, filters: Body = {}) =>
      read(await world().call("editor", "POST", `/statistics/${f.survey}/free-text/${f.q.notes}?${query}`, filters));
    const first = await page("take=2&skip=0");
    expect(first.Total).toBe(4);
    expect(first.Data.map((r: Body) => r.PatientId)).toEqual(["P5", "P3"]);
    expect((await page("take=2&skip=2")).Data.map((r: Body) => r.PatientId)).toEqual(["P2", "P1"]);
    expect((await page("take=2&skip=4")).Data).toEqual([]);
    const found = await page("take=15&skip=0&filterString=ATEMNOT");
    expect(found.Total).toBe(2);
    expect(found.Data.map((r: Body) => r.Response)).toEqual([
      "Atemnot und Husten in der Nacht",
      "Die Atemnot ist besser",
    ]);
    // Letters beyond ASCII fold too (SQLite's lower() alone does not fold them).
    expect((await page(`take=15&skip=0&filterString=${encodeURIComponent("übel")}`)).Total).toBe(1);
    expect((await page(`take=15&skip=0&filterString=${encodeURIComponent("ÜBELKEIT, KEINE")}`)).Total).toBe(1);
    expect((await page(`take=15&skip=0&filterString=${encodeURIComponent("%")}`)).Total).toBe(0);
    expect((await page(`take=15&skip=0&filterString=${encodeURIComponent("_")}`)).Total).toBe(0);
    expect(
      (await page("take=15&skip=0", { TeamIdsFilter: [teams.centre] })).Data.map((r: Body) => r.PatientId),
    ).toEqual(["P5"]);
  });

  it("filter data: the teams and the preliminary questions with their answers", async () => {
    const f = fixture();
    const data = await read(await world().call("approver", "GET", `/statisticsFilterData?surveyId=${f.survey}`));
    expect(data.Teams).toEqual(
      expect.arrayContaining([
        { Id: teams.station, Name: "Station 3A", Disabled: false },
        { Id: teams.centre, Name: "Studienzentrum", Disabled: false },
      ]),
    );
    expect(data.PreliminaryQuestions).toEqual([
      {
        Id: f.smoker.id,
        Title: "Raucher",
        AnswerOptions: [
          { Id: f.smoker.yes, Text: "ja" },
          { Id: f.smoker.no, Text: "nein" },
        ],
      },
      {
        Id: f.sex.id,
        Title: "Geschlecht",
        AnswerOptions: [
          { Id: f.sex.female, Text: "weiblich" },
          { Id: f.sex.male, Text: "männlich" },
        ],
      },
    ]);
  });

  it("attachments: the counted cases' files of the question, and a zip of chosen ones", async () => {
    const f = fixture();
    const w = world();
    const list = await read(
      await w.call("editor", "POST", `/file-attachments/get-by-question-id/${f.q.notes}?surveyId=${f.survey}`, {}),
    );
    expect(list.Data.map((a: Body) => [a.PatientId, a.FileName, a.FileExtension])).toEqual([
      ["P1", "befund.pdf", "pdf"],
      ["P2", "röntgen.png", "png"],
      ["P2", "befund.pdf", "pdf"],
      ["P6", 'Bericht: "März"?.txt', "txt"],
      ["P6", "CON.txt", "txt"],
    ]);
    const filtered = await read(
      await w.call("editor", "POST", `/file-attachments/get-by-question-id/${f.q.notes}?surveyId=${f.survey}`, {
        PatientIds: ["P2"],
      }),
    );
    expect(filtered.Data).toHaveLength(2);
    const res = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: f.q.notes,
      SurveyFileAttachmentIds: list.Data.map((a: Body) => a.Id),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toContain("Anmerkungen.zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    // Names inside the archive are safe on any system: no reserved characters or device names.
    expect(Object.keys(files).sort()).toEqual([
      "P1/befund.pdf",
      "P2/befund.pdf",
      "P2/röntgen.png",
      "P6/Bericht_ _März_.txt",
      "P6/_CON.txt",
    ]);
    expect(Buffer.from(files["P6/_CON.txt"]).toString("utf8")).toBe("Gerät");
    expect(Buffer.from(files["P1/befund.pdf"]).toString("latin1")).toContain("(P1) Tj");
    expect(Buffer.from(files["P2/befund.pdf"]).toString("latin1")).toContain("(P2) Tj");
    expect(files["P2/röntgen.png"].subarray(1, 4)).toEqual(new Uint8Array(Buffer.from("PNG")));
  });

  it("get-archived refuses files of another question (400) and an unknown question (404)", async () => {
    const f = fixture();
    const w = world();
    const foreign = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: f.q.weight,
      SurveyFileAttachmentIds: f.files.P1,
    });
    expect(foreign.status).toBe(400);
    const mixed = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: f.q.notes,
      SurveyFileAttachmentIds: [...f.files.P1, 999_999],
    });
    expect(mixed.status).toBe(400);
    const unknown = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: 999_999,
      SurveyFileAttachmentIds: f.files.P1,
    });
    expect(unknown.status).toBe(404);
    const empty = await w.call("editor", "POST", "/file-attachments/get-archived", {
      QuestionId: f.q.notes,
      SurveyFileAttachmentIds: [],
    });
    expect(empty.status).toBe(400);
    // Ids beyond the database's 32-bit range are a bad request, not a database error.
    for (const body of [
      { QuestionId: 2 ** 31, SurveyFileAttachmentIds: f.files.P1 },
      { QuestionId: f.q.notes, SurveyFileAttachmentIds: [2 ** 31] },
    ]) {
      const beyond = await w.call("editor", "POST", "/file-attachments/get-archived", body);
      expect(beyond.status).toBe(400);
      expect(await beyond.json()).toMatchObject({ Type: "VALIDATION_ERROR" });
    }
  });
});
