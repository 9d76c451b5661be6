import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { dialects } from "../support/databases";
import { teamId } from "../support/surveys";
import { caseRow, json, restrictParticipants, startCase, useFillWorld } from "./fill-support";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("patients API on %s", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => restrictParticipants(w.db, w.b.postop, "Studienzentrum"),
  );
  const q = (surveyId: number, patientId: string) => `patientId=${encodeURIComponent(patientId)}&surveyId=${surveyId}`;

  describe("POST /patients/add", () => {
    it("starts an Open case owned by the caller's first team, with an audit row", async () => {
      const w = world();
      const res = await w.call("user", "POST", `/patients/add?${q(w.a.heart, "ADD_1")}`);
      expect(res.status).toBe(201);
      const body = await json<{ PatientId: string; PatientDataId: number }>(res);
      expect(body).toEqual({ PatientId: "ADD_1", PatientDataId: expect.any(Number) });
      const row = await caseRow(w.db, w.a.heart, "ADD_1");
      expect(row).toMatchObject({ id: body.PatientDataId, state: "Open", closed_at: null });
      expect(row!.team_id).toBe(await teamId(w.db, "Station 3A"));
      const audit = await w.db
        .selectFrom("audit_log")
        .select(["action", "patient_data_id"])
        .where("patient_data_id", "=", body.PatientDataId)
        .execute();
      expect(audit).toEqual([{ action: "case.create", patient_data_id: body.PatientDataId }]);
    });

    it("refuses an id that is taken (409), with the closed case's own type", async () => {
      const w = world();
      await startCase(w, w.a.heart, "ADD_2");
      const again = await w.call("editor", "POST", `/patients/add?${q(w.a.heart, "ADD_2")}`);
      expect(again.status).toBe(409);
      expect((await json<{ Type: string }>(again)).Type).toBe("SURVEY_PATIENTID_EXISTS");
      expect((await w.call("user", "POST", `/patients/close?${q(w.a.heart, "ADD_2")}`)).status).toBe(204);
      const closed = await w.call("user", "POST", `/patients/add?${q(w.a.heart, "ADD_2")}`);
      expect(closed.status).toBe(409);
      expect((await json<{ Type: string }>(closed)).Type).toBe("SURVEY_ALREADY_CLOSED");
      // The same id in another survey is another case.
      expect((await w.call("user", "POST", `/patients/add?${q(w.a.postop, "ADD_2")}`)).status).toBe(201);
    });

    it("refuses bad ids and missing parameters with 400", async () => {
      const w = world();
      for (const bad of ["P-1", "P 1", "", "x".repeat(65)]) {
        const res = await w.call("user", "POST", `/patients/add?${q(w.a.heart, bad)}`);
        expect(res.status).toBe(400);
        expect((await json<{ Type: string }>(res)).Type).toBe("VALIDATION_ERROR");
      }
      expect((await w.call("user", "POST", `/patients/add?patientId=P_1`)).status).toBe(400);
      expect((await w.call("user", "POST", `/patients/add?patientId=P_1&surveyId=abc`)).status).toBe(400);
    });

    it("takes new cases only in Active surveys (409 SURVEY_INVALID_STATUS)", async () => {
      const w = world();
      for (const survey of [w.a.draft, w.a.ended, w.a.archived]) {
        const res = await w.call("editor", "POST", `/patients/add?${q(survey, "STATUS_1")}`);
        expect(res.status).toBe(409);
        expect((await json<{ Type: string }>(res)).Type).toBe("SURVEY_INVALID_STATUS");
      }
    });

    it("checks who calls: 401 without sign-in, 403 without the tool's role, 404 outside the survey's teams", async () => {
      const w = world();
      expect((await w.call("nobody", "POST", `/patients/add?${q(w.a.heart, "AUTH_1")}`)).status).toBe(401);
      expect((await w.call("outsider", "POST", `/patients/add?${q(w.a.heart, "AUTH_1")}`)).status).toBe(403);
      const other = await w.call("user", "POST", `/patients/add?${q(w.b.postop, "AUTH_1")}`);
      expect(other.status).toBe(404);
      expect((await json<{ Type: string }>(other)).Type).toBe("SURVEY_NOT_FOUND");
      expect((await w.call("admin", "POST", `/patients/add?${q(w.b.postop, "AUTH_1")}`)).status).toBe(201);
      expect((await w.call("user", "POST", `/patients/add?${q(999_999, "AUTH_1")}`)).status).toBe(404);
      expect(await caseRow(w.db, w.a.heart, "AUTH_1")).toBeUndefined();
    });
  });

  describe("GET /patients", () => {
    it("tells Nonexistent, Open (with its PatientDataId) and Closed", async () => {
      const w = world();
      const none = await w.call("user", "GET", `/patients?${q(w.a.heart, "STATE_1")}`);
      expect(await json(none)).toEqual({ State: "Nonexistent" });
      const id = await startCase(w, w.a.heart, "STATE_1");
      expect(await json(await w.call("user", "GET", `/patients?${q(w.a.heart, "STATE_1")}`))).toEqual({
        State: "Open",
        PatientDataId: id,
        Version: 0,
        // Kept as the case started: the survey's source language (docs/decisions/055-fill-languages.md).
        Language: "de",
      });
      await w.call("user", "POST", `/patients/close?${q(w.a.heart, "STATE_1")}`);
      // A closed case says when it closed, and that no signature closed it.
      expect(await json(await w.call("user", "GET", `/patients?${q(w.a.heart, "STATE_1")}`))).toEqual({
        State: "Closed",
        PatientDataId: id,
        Version: 0,
        ClosedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
        Language: "de",
        Signature: null,
      });
      // Ids are case-sensitive.
      expect(await json(await w.call("user", "GET", `/patients?${q(w.a.heart, "state_1")}`))).toEqual({
        State: "Nonexistent",
      });
    });

    it("is open to analysts, closed to outsiders and people outside the teams", async () => {
      const w = world();
      expect((await w.call("approver", "GET", `/patients?${q(w.a.heart, "X")}`)).status).toBe(200);
      expect((await w.call("outsider", "GET", `/patients?${q(w.a.heart, "X")}`)).status).toBe(403);
      expect((await w.call("user", "GET", `/patients?${q(w.b.postop, "X")}`)).status).toBe(404);
      expect((await w.call("user", "GET", `/patients?${q(w.a.draft, "X")}`)).status).toBe(404);
      expect((await w.call("user", "GET", `/patients?surveyId=${w.a.heart}`)).status).toBe(400);
    });
  });

  describe("GET /patients/autocomplete", () => {
    it("lists up to 10 Open ids starting with the text, underscore taken literally", async () => {
      const w = world();
      const s = w.a.postop;
      for (const id of ["AC_100", "AC_101", "AC_102", "AC_2", "ACX100", "ac_103"]) await startCase(w, s, id);
      await w.call("user", "POST", `/patients/close?${q(s, "AC_102")}`);
      const found = await json<{ OpenIds: string[]; IsClosed: boolean }>(
        await w.call("user", "GET", `/patients/autocomplete?${q(s, "AC_10")}`),
      );
      expect(found).toEqual({ OpenIds: ["AC_100", "AC_101"], IsClosed: false });
      const closed = await json(await w.call("user", "GET", `/patients/autocomplete?${q(s, "AC_102")}`));
      expect(closed).toEqual({ OpenIds: [], IsClosed: true });

      for (let i = 0; i < 12; i++) await startCase(w, s, `MANY_${String(i).padStart(2, "0")}`);
      const many = await json<{ OpenIds: string[] }>(
        await w.call("user", "GET", `/patients/autocomplete?${q(s, "MANY")}`),
      );
      expect(many.OpenIds).toHaveLength(10);
      expect(many.OpenIds[0]).toBe("MANY_00");
      const all = await json<{ OpenIds: string[] }>(
        await w.call("user", "GET", `/patients/autocomplete?surveyId=${s}&patientId=`),
      );
      expect(all.OpenIds).toHaveLength(10);
    });

    it("refuses text that is no patient id", async () => {
      const w = world();
      const res = await w.call("user", "GET", `/patients/autocomplete?${q(w.a.heart, "A%")}`);
      expect(res.status).toBe(400);
    });
  });

  describe("GET /patients/latest", () => {
    it("lists the latest Open cases, newest first, count defaulting to 10", async () => {
      const w = world();
      const s = w.b.heart;
      for (let i = 0; i < 12; i++) await startCase(w, s, `LATEST_${i}`);
      // Changed a minute apart within the last hour (older ones would be closed automatically).
      const base = Date.now() - 3600_000;
      for (let i = 0; i < 12; i++) {
        await w.db
          .updateTable("patient_data")
          .set({ modified_at: new Date(base + i * 60_000).toISOString() })
          .where("survey_id", "=", s)
          .where("patient_id", "=", `LATEST_${i}`)
          .execute();
      }
      await w.call("user", "POST", `/patients/close?${q(s, "LATEST_11")}`);
      const list = await json<{ PatientId: string; ModifiedDate: string }[]>(
        await w.call("user", "GET", `/patients/latest?surveyId=${s}`),
      );
      expect(list.map((r) => r.PatientId)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((i) => `LATEST_${i}`));
      expect(list[0].ModifiedDate).toBe(new Date(base + 10 * 60_000).toISOString());
      const three = await json<unknown[]>(await w.call("user", "GET", `/patients/latest?count=3&surveyId=${s}`));
      expect(three).toHaveLength(3);
      expect((await w.call("user", "GET", `/patients/latest?count=0&surveyId=${s}`)).status).toBe(400);
      expect((await w.call("outsider", "GET", `/patients/latest?surveyId=${s}`)).status).toBe(403);
    });
  });

  describe("POST /patients/close", () => {
    it("closes an Open case at once; a second close is 409, an unknown id 404", async () => {
      const w = world();
      const id = await startCase(w, w.a.heart, "CLOSE_1");
      const res = await w.call("user", "POST", `/patients/close?${q(w.a.heart, "CLOSE_1")}`);
      expect(res.status).toBe(204);
      const row = await caseRow(w.db, w.a.heart, "CLOSE_1");
      expect(row!.state).toBe("Closed");
      expect(Date.now() - Date.parse(row!.closed_at!)).toBeLessThan(60_000);
      const again = await w.call("user", "POST", `/patients/close?${q(w.a.heart, "CLOSE_1")}`);
      expect(again.status).toBe(409);
      expect((await json<{ Type: string }>(again)).Type).toBe("SURVEY_ALREADY_CLOSED");
      const missing = await w.call("user", "POST", `/patients/close?${q(w.a.heart, "NOBODY_1")}`);
      expect(missing.status).toBe(404);
      expect((await json<{ Type: string }>(missing)).Type).toBe("SURVEY_PATIENTID_NOT_FOUND");
      const actions = await w.db.selectFrom("audit_log").select("action").where("patient_data_id", "=", id).execute();
      expect(actions.map((a) => a.action)).toEqual(["case.create", "case.close"]);
    });

    it("refuses outsiders and people outside the teams", async () => {
      const w = world();
      await startCase(w, w.b.postop, "CLOSE_2", "admin");
      expect((await w.call("user", "POST", `/patients/close?${q(w.b.postop, "CLOSE_2")}`)).status).toBe(404);
      expect((await w.call("outsider", "POST", `/patients/close?${q(w.b.postop, "CLOSE_2")}`)).status).toBe(403);
      expect((await w.call("nobody", "POST", `/patients/close?${q(w.b.postop, "CLOSE_2")}`)).status).toBe(401);
      expect((await caseRow(w.db, w.b.postop, "CLOSE_2"))!.state).toBe("Open");
    });
  });
});
