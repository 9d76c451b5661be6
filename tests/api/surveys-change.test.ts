import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import type { ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { addQuestion, teamId, useSurveysApi } from "../support/surveys";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("surveys API: update, permissions and lifecycle on %s", (kind) => {
  const { api: harness, as, create, publish, get, list, auditCount } = useSurveysApi(kind, () => idp);
  let api: ApiHarness;
  beforeAll(() => {
    api = harness();
  });

  describe("update", () => {
    it("changes only given fields, audits them and changes the Hash", async () => {
      const survey = await create();
      const before = await auditCount(survey.Id);
      const res = await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: {
          Title: "Neuer Titel",
          Description: "Beschreibung",
          TargetNumberOfResponses: 250,
          StartDate: "01.02.2027",
          EndDate: "30.06.2027",
          IsPatientIdAutoGenerationEnabled: true,
        },
      });
      expect(res.status).toBe(200);
      const updated = await res.json();
      expect(updated).toMatchObject({
        Title: "Neuer Titel",
        Description: "Beschreibung",
        TargetNumberOfResponses: 250,
        StartDate: "01.02.2027",
        EndDate: "30.06.2027",
        IsPatientIdAutoGenerationEnabled: true,
      });
      expect(updated.Hash).not.toBe(survey.Hash);
      expect(await auditCount(survey.Id)).toBe(before + 1);
      const row = await api.testDb.db
        .selectFrom("audit_log")
        .selectAll()
        .where("survey_id", "=", survey.Id)
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.before!)).toMatchObject({ Title: "Herzinsuffizienz-Verlauf" });
      expect(JSON.parse(row.after!)).toMatchObject({ Title: "Neuer Titel", StartDate: "2027-02-01" });

      const same = await (
        await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body: { Title: "Neuer Titel" } })
      ).json();
      expect(same.Hash).toBe(updated.Hash);
      expect(await auditCount(survey.Id)).toBe(before + 1);
    });

    it("keeps the end date after the start date", async () => {
      const survey = await create();
      await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: { StartDate: "01.03.2027", EndDate: "10.03.2027" },
      });
      const pushed = await (
        await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body: { StartDate: "20.03.2027" } })
      ).json();
      expect([pushed.StartDate, pushed.EndDate]).toEqual(["20.03.2027", "20.03.2027"]);
      const refused = await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: { EndDate: "01.01.2027" },
      });
      expect(refused.status).toBe(400);
      const both = await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: { StartDate: "05.05.2027", EndDate: "04.05.2027" },
      });
      expect(both.status).toBe(400);
      expect((await (await get(survey.Id)).json()).StartDate).toBe("20.03.2027");
    });

    it("refuses invalid values and leaves the survey intact", async () => {
      const survey = await create();
      for (const body of [
        { TargetNumberOfResponses: 10000 },
        { TargetNumberOfResponses: -1 },
        { StartDate: "31.02.2027" },
        { StartDate: "2027-01-01" },
        { Title: "   " },
        { Unknown: 1 },
        { TagIds: [987654] },
        { UserTeamPermissions: [987654] },
      ]) {
        const res = await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body });
        expect(res.status, JSON.stringify(body)).toBe(400);
      }
      expect((await (await get(survey.Id)).json()).Title).toBe("Herzinsuffizienz-Verlauf");
    });

    it("disabled teams cannot be chosen", async () => {
      const survey = await create();
      const station = await teamId(api.testDb.db, "Station 3A");
      await api.testDb.db.updateTable("teams").set({ disabled: 1 }).where("id", "=", station).execute();
      const res = await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: { UserTeamPermissions: [station] },
      });
      expect(res.status).toBe(400);
      await api.testDb.db.updateTable("teams").set({ disabled: 0 }).where("id", "=", station).execute();
    });

    it("sanitizes the intro and outro", async () => {
      const survey = await create();
      const res = await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: {
          IntroText:
            '<p onclick="x()">Hallo <strong>Welt</strong><script>alert(1)</script><a href="javascript:alert(1)">l</a></p>',
        },
      });
      const intro = (await res.json()).IntroText as string;
      expect(intro).toContain("<strong>Welt</strong>");
      expect(intro).not.toMatch(/script|onclick|javascript/);
    });

    it("only an editor of the survey's teams changes it, and only in Draft", async () => {
      const survey = await create();
      expect((await api.call("PUT", `/surveys/${survey.Id}`, { ...as("approver"), body: { Title: "x" } })).status).toBe(
        403,
      );
      const station = await teamId(api.testDb.db, "Station 3A");
      await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body: { EditorTeamPermissions: [station] } });
      // The editor (Studienzentrum) is no longer among the survey's editors, and a Draft is not theirs to
      // see at all: 404. The admin (Station 3A) is.
      expect((await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body: { Title: "x" } })).status).toBe(
        404,
      );
      expect(
        (await api.call("PUT", `/surveys/${survey.Id}`, { ...as("admin"), body: { Title: "Admin" } })).status,
      ).toBe(200);
      await publish(survey.Id);
      const locked = await api.call("PUT", `/surveys/${survey.Id}`, { ...as("admin"), body: { Title: "y" } });
      expect(locked.status).toBe(409);
      expect((await locked.json()).Type).toBe("SURVEY_INVALID_STATUS");
    });
  });

  describe("team permissions for participation", () => {
    it("a user outside the participating teams does not see the survey", async () => {
      const survey = await create();
      const studienzentrum = await teamId(api.testDb.db, "Studienzentrum");
      await api.call("PUT", `/surveys/${survey.Id}`, {
        ...as("editor"),
        body: { UserTeamPermissions: [studienzentrum] },
      });
      await publish(survey.Id);
      expect((await get(survey.Id, "user")).status).toBe(404);
      expect((await list("user")).Data.map((s) => s.Id)).not.toContain(survey.Id);
      const station = await teamId(api.testDb.db, "Station 3A");
      await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=1`, as("approver"));
      await api.call("PUT", `/surveys/${survey.Id}`, { ...as("editor"), body: { UserTeamPermissions: [station] } });
      await api.call("POST", `/surveys/${survey.Id}/approve`, as("approver"));
      expect((await get(survey.Id, "user")).status).toBe(200);
    });
  });

  describe("lifecycle", () => {
    it("publish needs an approver, a Draft, a title and a question", async () => {
      const survey = await create();
      const empty = await api.call("POST", `/surveys/${survey.Id}/approve`, as("approver"));
      expect(empty.status).toBe(400);
      expect((await empty.json()).Error).toMatch(/question/);
      await addQuestion(api.testDb.db, survey.Id);
      expect((await api.call("POST", `/surveys/${survey.Id}/approve`, as("editor"))).status).toBe(403);
      expect((await api.call("POST", `/surveys/${survey.Id}/approve`, as("approver"))).status).toBe(204);
      expect((await (await get(survey.Id)).json()).Status).toBe("Active");
      expect((await api.call("POST", `/surveys/${survey.Id}/approve`, as("approver"))).status).toBe(409);
    });

    it("unpublish sets Draft (status 1); close sets Closed; other changes are refused", async () => {
      const survey = await create();
      await publish(survey.Id);
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=1`, as("editor"))).status).toBe(
        403,
      );
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=1`, as("approver"))).status).toBe(
        204,
      );
      expect((await (await get(survey.Id)).json()).Status).toBe("Draft");
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=1`, as("approver"))).status).toBe(
        409,
      );
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=2`, as("approver"))).status).toBe(
        409,
      );
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=9`, as("approver"))).status).toBe(
        400,
      );
      await api.call("POST", `/surveys/${survey.Id}/approve`, as("approver"));
      expect((await api.call("PUT", `/surveys/${survey.Id}/change-status?newStatusId=3`, as("approver"))).status).toBe(
        204,
      );
      expect((await (await get(survey.Id)).json()).Status).toBe("Closed");
      const actions = await api.testDb.db
        .selectFrom("audit_log")
        .select("action")
        .where("survey_id", "=", survey.Id)
        .orderBy("id")
        .execute();
      expect(actions.map((a) => a.action)).toEqual([
        "survey.create",
        "survey.approve",
        "survey.unpublish",
        "survey.approve",
        "survey.close",
      ]);
    });

    it("archive, restore to Draft, and delete permanently (archived only)", async () => {
      const survey = await create("Zu archivieren");
      expect((await api.call("DELETE", `/surveys/${survey.Id}/archive`, as("editor"))).status).toBe(409);
      expect((await api.call("POST", `/surveys/${survey.Id}/archive`, as("approver"))).status).toBe(403);
      expect((await api.call("POST", `/surveys/${survey.Id}/archive`, as("editor"))).status).toBe(204);
      expect((await list("editor")).Data.map((s) => s.Id)).not.toContain(survey.Id);
      const archived = await list("editor", "?Archived=true");
      expect(archived.Data.find((s) => s.Id === survey.Id)?.Status).toBe("Archived");
      expect((await list("user", "?Archived=true")).Total).toBe(0);
      expect((await api.call("POST", `/surveys/${survey.Id}/archive`, as("editor"))).status).toBe(409);
      expect((await api.call("POST", `/surveys/${survey.Id}/archive/restore`, as("editor"))).status).toBe(204);
      expect((await (await get(survey.Id)).json()).Status).toBe("Draft");
      await api.call("POST", `/surveys/${survey.Id}/archive`, as("editor"));
      expect((await api.call("DELETE", `/surveys/${survey.Id}/archive`, as("editor"))).status).toBe(204);
      expect((await get(survey.Id)).status).toBe(404);
      const deleted = await api.testDb.db
        .selectFrom("audit_log")
        .selectAll()
        .where("survey_id", "=", survey.Id)
        .where("action", "=", "survey.delete")
        .execute();
      expect(deleted).toHaveLength(1);
    });

    it("clone copies the whole structure with re-pointed rules, and no responses", async () => {
      const db = api.testDb.db;
      const source = await create("Original");
      const tree = await addQuestion(db, source.Id, {
        withSubQuestion: true,
        withDependence: true,
        withResponse: true,
      });
      const res = await api.call("POST", `/surveys/${source.Id}/clone`, as("editor"));
      expect(res.status).toBe(201);
      const copy = await res.json();
      expect(copy).toMatchObject({ Title: "Kopie von Original", Status: "Draft", SourceSurveyId: source.Id });
      expect(copy.Id).not.toBe(source.Id);
      const original = await (await get(source.Id)).json();
      const strip = (s: unknown) =>
        JSON.parse(
          JSON.stringify(s, (k, v) =>
            [
              "Id",
              "SurveyId",
              "CategoryId",
              "QuestionId",
              "PatientFormId",
              "ParentAnswerOptionId",
              "PreliminaryAnswerOptions",
            ].includes(k)
              ? undefined
              : v,
          ),
        );
      expect(strip(copy.Categories)).toEqual(strip(original.Categories));
      expect(strip(copy.PatientForm)).toEqual(strip(original.PatientForm));
      const copiedQuestion = copy.Categories[0].Questions[0];
      const copiedRule = copiedQuestion.Dependence.PreliminaryAnswerOptions[0];
      expect(copiedRule).not.toBe(tree.preliminaryOptionId);
      expect(copy.PatientForm[0].AnswerOptions.map((o: { Id: number }) => o.Id)).toContain(copiedRule);
      const sub = copiedQuestion.AnswerOptions[0].SubQuestions[0];
      expect(sub.ParentAnswerOptionId).toBe(copiedQuestion.AnswerOptions[0].Id);
      const cases = await db.selectFrom("patient_data").select("id").where("survey_id", "=", copy.Id).execute();
      expect(cases).toHaveLength(0);
      expect((await api.call("POST", `/surveys/${source.Id}/clone`, as("approver"))).status).toBe(403);
    });

    it("benchmarkable: clones of one another, not the survey itself", async () => {
      const source = await create("Basis");
      const clone = await (await api.call("POST", `/surveys/${source.Id}/clone`, as("editor"))).json();
      const other = await create("Andere");
      const res = await api.call("GET", `/surveys/benchmarkable?surveyId=${clone.Id}`, as("editor"));
      const ids = (await res.json()).map((s: { Id: number }) => s.Id);
      expect(ids).toContain(source.Id);
      expect(ids).not.toContain(clone.Id);
      expect(ids).not.toContain(other.Id);
      const filtered = await (
        await api.call("GET", `/surveys/benchmarkable?surveyId=${source.Id}&filterString=kopie`, as("editor"))
      ).json();
      expect(filtered.map((s: { Id: number }) => s.Id)).toEqual([clone.Id]);
    });
  });
});
