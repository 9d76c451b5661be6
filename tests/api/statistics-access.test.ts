import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import type { Who } from "./fill-support";
import { fillCase, read, useStatisticsWorld, type Body, type Fixture } from "./statistics-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("statistics benchmark and permissions on %s", (kind) => {
  const { world, fixture } = useStatisticsWorld(kind, () => idp);
  let clone: Omit<Fixture, "cases" | "files">;

  /** The clone's ids for the fixture's, matched by title and answer text. */
  async function cloneIds(cloneId: number): Promise<Omit<Fixture, "cases" | "files">> {
    const f = fixture();
    const db = world().db;
    const questions = await db.selectFrom("questions").select(["id", "title", "survey_id"]).execute();
    const options = await db.selectFrom("answer_options").select(["id", "question_id", "text"]).execute();
    const titleOf = new Map(questions.filter((q) => q.survey_id === f.survey).map((q) => [q.id, q.title]));
    const cloneQuestion = (id: number) =>
      questions.find((q) => q.survey_id === cloneId && q.title === titleOf.get(id))!.id;
    const q = Object.fromEntries(Object.entries(f.q).map(([k, id]) => [k, cloneQuestion(id)])) as Fixture["q"];
    const o = Object.fromEntries(
      Object.entries(f.o).map(([k, id]) => {
        const mine = options.find((x) => x.id === id)!;
        const theirs = options.find((x) => x.question_id === cloneQuestion(mine.question_id) && x.text === mine.text)!;
        return [k, theirs.id];
      }),
    );
    const attributes = await db
      .selectFrom("patient_form_answer_options")
      .select(["id", "attribute_id", "text"])
      .where("survey_id", "=", cloneId)
      .execute();
    const pre = (text: string) => attributes.find((a) => a.text === text)!;
    const categories = await db
      .selectFrom("categories")
      .select(["id", "title"])
      .where("survey_id", "=", cloneId)
      .execute();
    const category = (title: string) => categories.find((c) => c.title === title)!.id;
    return {
      survey: cloneId,
      categories: { befinden: category("Befinden"), wissen: category("Wissen") },
      smoker: { id: pre("ja").attribute_id, yes: pre("ja").id, no: pre("nein").id },
      sex: { id: pre("weiblich").attribute_id, female: pre("weiblich").id, male: pre("männlich").id },
      q,
      o,
    };
  }

  beforeAll(async () => {
    const w = world();
    const made = await read(await w.call("editor", "POST", `/surveys/${fixture().survey}/clone`), 201);
    expect((await w.call("approver", "POST", `/surveys/${made.Id}/approve`)).status).toBe(204);
    clone = await cloneIds(made.Id);
    const base = { who: "user" as Who, close: true };
    await fillCase(w, clone, "C1", { ...base, smoker: "yes", sex: "female", feeling: "mittel", pulse: "p60" });
    await fillCase(w, clone, "C2", {
      ...base,
      smoker: "no",
      sex: "male",
      feeling: "gut",
      since: "wochen",
      pulse: "p120",
    });
    await fillCase(w, clone, "C3", { ...base, smoker: "no", sex: "male", feeling: "gut", close: false });
  });

  const benchmark = async (filters: Body = {}, other = clone.survey) =>
    world().call("editor", "POST", `/statistics/${fixture().survey}?benchmarkSurveyId=${other}`, filters);
  const question = (stats: Body, category: number, id: number) =>
    stats.CategoryStatistics[category].QuestionStatistics.find((q: Body) => q.QuestionId === id);

  it("benchmark: the clone's figures beside the survey's, each paired with its counterpart", async () => {
    const f = fixture();
    const stats = await read(await benchmark());
    expect(stats.NumSurveyResponses).toBe(6);
    const b = stats.Benchmark;
    expect(b.SurveyId).toBe(clone.survey);
    expect(b.NumSurveyResponses).toBe(2);
    expect(b.CategoryStatistics.map((c: Body) => [c.CategoryId, c.PairedId])).toEqual([
      [clone.categories.befinden, f.categories.befinden],
      [clone.categories.wissen, f.categories.wissen],
    ]);
    const feeling = question(b, 0, clone.q.feeling);
    expect(feeling.PairedId).toBe(f.q.feeling);
    expect(
      feeling.AnswerStatistics.map((a: Body) => [a.AnswerOptionId, a.PairedId, a.TotalAnswerOptionResponses]),
    ).toEqual([
      [clone.o.gut, f.o.gut, 1],
      [clone.o.mittel, f.o.mittel, 1],
      [clone.o.schlecht, f.o.schlecht, 0],
    ]);
    expect(feeling.AnswerStatistics[0].PercentageAnswerOptionResponses).toBe(50);
    const since = feeling.AnswerStatistics[0].SubQuestionStatistics[0];
    expect([since.QuestionId, since.PairedId, since.TotalQuestionResponses]).toEqual([clone.q.since, f.q.since, 1]);
    // (2 + 0) / 2 of 2: 50 %, two cases only.
    expect(question(b, 1, clone.q.pulse)).toMatchObject({
      PairedId: f.q.pulse,
      ScoreResult: 1,
      ScorePercentage: 50,
      ScoreFlag: 4,
    });
    // The main survey's own figures are unchanged and carry no pairing.
    expect(question(stats, 0, f.q.feeling).TotalQuestionResponses).toBe(5);
    expect(question(stats, 0, f.q.feeling).PairedId).toBeUndefined();
  });

  it("benchmark: preliminary filters are matched by question position and answer text", async () => {
    const f = fixture();
    const stats = await read(await benchmark({ PreliminaryQuestionsSelection: { [f.smoker.id]: [f.smoker.yes] } }));
    expect(stats.NumSurveyResponses).toBe(3);
    expect(stats.Benchmark.NumSurveyResponses).toBe(1);
    expect(question(stats.Benchmark, 0, clone.q.feeling).AnswerStatistics[1].TotalAnswerOptionResponses).toBe(1);
    // Patient ids belong to one survey: they narrow the main figures only.
    const named = await read(await benchmark({ PatientIds: ["P1"] }));
    expect([named.NumSurveyResponses, named.Benchmark.NumSurveyResponses]).toEqual([1, 2]);
  });

  it("benchmark: refused for a survey that is not a clone of the same original", async () => {
    const w = world();
    const refused = await benchmark({}, w.a.heart);
    expect(refused.status).toBe(400);
    expect((await benchmark({}, 999_999)).status).toBe(400);
    expect((await benchmark({}, fixture().survey)).status).toBe(400);
    // The clone lists its original as benchmarkable, and the other way round.
    const list = await read(await w.call("editor", "GET", `/surveys/benchmarkable?surveyId=${clone.survey}`));
    expect(list.map((s: Body) => s.Id)).toEqual([fixture().survey]);
  });

  const endpoints = (): [string, string, unknown][] => {
    const f = fixture();
    return [
      ["POST", `/statistics/${f.survey}`, {}],
      ["POST", `/statistics/${f.survey}?benchmarkSurveyId=${clone.survey}`, {}],
      ["POST", `/statistics/${f.survey}/patient-ids`, {}],
      ["POST", `/statistics/${f.survey}/csv`, {}],
      ["POST", `/statistics/${f.survey}/free-text/${f.q.notes}?take=5&skip=0`, {}],
      ["GET", `/statisticsFilterData?surveyId=${f.survey}`, undefined],
      ["POST", `/file-attachments/get-by-question-id/${f.q.notes}?surveyId=${f.survey}`, {}],
      ["POST", "/file-attachments/get-archived", { QuestionId: f.q.notes, SurveyFileAttachmentIds: f.files.P1 }],
    ];
  };

  it("permissions: editors, approvers and admins read every statistics endpoint", async () => {
    for (const who of ["editor", "approver", "admin"] as const) {
      for (const [method, path, body] of endpoints()) {
        const res = await world().call(who, method, path, body);
        expect(res.status, `${who} ${method} ${path}`).toBe(200);
        expect((await res.arrayBuffer()).byteLength, `${who} ${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it("permissions: a participant gets 403, someone without rights 403 or 404, no token 401", async () => {
    for (const [method, path, body] of endpoints()) {
      const user = await world().call("user", method, path, body);
      expect(user.status, `user ${method} ${path}`).toBe(403);
      expect(user.headers.get("content-type"), path).toContain("application/json");
      const outsider = await world().call("outsider", method, path, body);
      expect([403, 404], `outsider ${method} ${path}`).toContain(outsider.status);
      expect((await world().call("nobody", method, path, body)).status, `nobody ${method} ${path}`).toBe(401);
    }
  });

  it("permissions: statistics of a survey nobody may see are 404, not an empty answer", async () => {
    expect((await world().call("editor", "POST", "/statistics/999999", {})).status).toBe(404);
    expect((await world().call("editor", "GET", "/statisticsFilterData?surveyId=999999")).status).toBe(404);
    const bad = await world().call("editor", "POST", `/statistics/${fixture().survey}`, { TeamIdsFilter: ["x"] });
    expect(bad.status).toBe(400);
  });
});
