import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { auditRows } from "../support/surveys";
import { addQuestion } from "../support/surveys";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("categories API on %s", (kind) => {
  let api: ApiHarness;
  let surveyId: number;

  const call = (method: string, path: string, body?: unknown, who: string | null = "editor") =>
    api.json(method, path, body, who);
  const newSurvey = async () => (await call("POST", "/surveys", { Title: "Kategorien" })).body.Id as number;
  const survey = async (id = surveyId) => (await call("GET", `/surveys/${id}`)).body;
  const audits = async (id = surveyId) => auditRows(api.testDb.db, id);
  const titles = async (id = surveyId) =>
    (await survey(id)).Categories.map((c: { Title: string; Sort: number }) => `${c.Sort}:${c.Title}`);
  const addCategory = async (Title: string, id = surveyId) => {
    const res = await call("POST", "/categories", { SurveyId: id, Title });
    expect(res.status).toBe(201);
    return res.body as { Id: number; Title: string; Sort: number };
  };

  beforeAll(async () => {
    api = await startApi(kind, { idp });
    surveyId = await newSurvey();
  });
  afterAll(async () => {
    await api.close();
  });

  it("POST /categories adds a category at the end, audits it and changes the Hash", async () => {
    const before = await survey();
    const auditsBefore = await audits();
    const first = await addCategory("  Anamnese ");
    expect(first).toEqual({
      Id: expect.any(Number),
      SurveyId: surveyId,
      Title: "Anamnese",
      Sort: 0,
      Codes: [],
      Questions: [],
    });
    const second = await addCategory("Befund");
    expect(second.Sort).toBe(1);
    expect((await survey()).Hash).not.toBe(before.Hash);
    expect(await audits()).toBe(auditsBefore + 2);
  });

  it("refuses blank, missing, too long or unknown fields with VALIDATION_ERROR", async () => {
    for (const body of [
      { SurveyId: surveyId, Title: "   " },
      { SurveyId: surveyId },
      { Title: "x" },
      { SurveyId: surveyId, Title: "x".repeat(201) },
      { SurveyId: surveyId, Title: "x", Sort: 3 },
      { SurveyId: "abc", Title: "x" },
    ]) {
      const res = await call("POST", "/categories", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ Type: "VALIDATION_ERROR", Error: expect.any(String) });
    }
    expect((await call("POST", "/categories", { SurveyId: 999999, Title: "x" })).status).toBe(404);
  });

  it("PUT /categories/:id renames; an unchanged title writes nothing", async () => {
    const c = await addCategory("Verlauf");
    const hash = (await survey()).Hash;
    const count = await audits();
    const same = await call("PUT", `/categories/${c.Id}`, { Title: " Verlauf " });
    expect(same.status).toBe(200);
    expect(same.body.Title).toBe("Verlauf");
    expect((await survey()).Hash).toBe(hash);
    expect(await audits()).toBe(count);

    const renamed = await call("PUT", `/categories/${c.Id}`, { Title: "Verlauf (6 Monate)", SurveyId: surveyId });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ Id: c.Id, Title: "Verlauf (6 Monate)" });
    expect((await survey()).Hash).not.toBe(hash);
    expect(await audits()).toBe(count + 1);
    const row = await api.testDb.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "category.update")
      .where("entity_id", "=", String(c.Id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.before!)).toEqual({ title: "Verlauf" });
    expect(JSON.parse(row.after!)).toEqual({ title: "Verlauf (6 Monate)" });

    expect((await call("PUT", `/categories/${c.Id}`, { Title: "" })).status).toBe(400);
    expect((await call("PUT", `/categories/999999`, { Title: "x" })).status).toBe(404);
    const other = await newSurvey();
    const wrong = await call("PUT", `/categories/${c.Id}`, { Title: "x", SurveyId: other });
    expect(wrong.status).toBe(404);
    expect(wrong.body.Type).toBe("NOT_FOUND");
  });

  it("reorder moves a category and keeps the sort dense; out of range is refused", async () => {
    const id = await newSurvey();
    const [a, b, c] = [await addCategory("A", id), await addCategory("B", id), await addCategory("C", id)];
    const hash = (await survey(id)).Hash;
    expect((await call("POST", `/categories/${c.Id}/reorder?newPosition=0&surveyId=${id}`)).status).toBe(204);
    expect(await titles(id)).toEqual(["0:C", "1:A", "2:B"]);
    expect((await survey(id)).Hash).not.toBe(hash);
    expect((await call("POST", `/categories/${a.Id}/reorder?newPosition=2&surveyId=${id}`)).status).toBe(204);
    expect(await titles(id)).toEqual(["0:C", "1:B", "2:A"]);

    const count = await audits(id);
    expect((await call("POST", `/categories/${b.Id}/reorder?newPosition=1&surveyId=${id}`)).status).toBe(204);
    expect(await audits(id)).toBe(count);
    for (const q of ["newPosition=3", "newPosition=-1", "newPosition=x", ""]) {
      const res = await call("POST", `/categories/${b.Id}/reorder?${q}&surveyId=${id}`);
      expect(res.status, q).toBe(400);
      expect(res.body.Type).toBe("VALIDATION_ERROR");
    }
    expect((await call("POST", `/categories/${b.Id}/reorder?newPosition=0&surveyId=${surveyId}`)).status).toBe(404);
    expect(await titles(id)).toEqual(["0:C", "1:B", "2:A"]);
  });

  it("concurrent reorders leave the sort dense", async () => {
    const id = await newSurvey();
    const cats = [];
    for (const t of ["A", "B", "C", "D", "E"]) cats.push(await addCategory(t, id));
    const results = await Promise.all(
      cats.map((c, i) => call("POST", `/categories/${c.Id}/reorder?newPosition=${4 - i}&surveyId=${id}`)),
    );
    expect(results.map((r) => r.status)).toEqual([204, 204, 204, 204, 204]);
    const sorts = (await survey(id)).Categories.map((c: { Sort: number }) => c.Sort);
    expect(sorts).toEqual([0, 1, 2, 3, 4]);
  });

  it("DELETE /categories removes a category with its questions and closes the gap", async () => {
    const id = await newSurvey();
    const [a, b, c] = [await addCategory("A", id), await addCategory("B", id), await addCategory("C", id)];
    const q = await call("POST", "/questions", { SurveyId: id, CategoryId: b.Id, Title: "Frage", Type: "FreeText" });
    expect(q.status).toBe(201);
    expect((await call("DELETE", `/categories?categoryId=${b.Id}&surveyId=${surveyId}`)).status).toBe(404);
    const count = await audits(id);
    expect((await call("DELETE", `/categories?categoryId=${b.Id}&surveyId=${id}`)).status).toBe(204);
    expect(await titles(id)).toEqual(["0:A", "1:C"]);
    expect(await audits(id)).toBe(count + 1);
    const left = await api.testDb.db.selectFrom("questions").select("id").where("survey_id", "=", id).execute();
    expect(left).toEqual([]);
    expect((await call("DELETE", `/categories?categoryId=${b.Id}&surveyId=${id}`)).status).toBe(404);
    expect((await call("DELETE", `/categories?categoryId=${a.Id}`)).status).toBe(400);
    expect(c.Id).toBeGreaterThan(a.Id);
  });

  it("refuses to delete a category whose questions have answers logged, and deletes nothing", async () => {
    const id = await newSurvey();
    const { categoryId } = await addQuestion(api.testDb.db, id, { withSubQuestion: true, withResponse: true });
    const hash = (await survey(id)).Hash;
    const res = await call("DELETE", `/categories?categoryId=${categoryId}&surveyId=${id}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ Type: "SURVEY_EXISTING_QUESTION_RESPONSE", Error: expect.any(String) });
    const after = await survey(id);
    expect(after.Categories).toHaveLength(1);
    expect(after.Categories[0].Questions).toHaveLength(1);
    expect(after.Hash).toBe(hash);
  });
});
