import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import type { ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { useSurveysApi } from "../support/surveys";

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

describe.each(dialects)("surveys API: create and read on %s", (kind) => {
  const { api: harness, as, create, publish, get, list, auditCount } = useSurveysApi(kind, () => idp);
  let api: ApiHarness;
  beforeAll(() => {
    api = harness();
  });

  describe("create", () => {
    it("an editor creates a Draft with empty team permissions and a patient form", async () => {
      const survey = await create();
      const full = await (await get(survey.Id)).json();
      expect(full).toMatchObject({
        Title: "Herzinsuffizienz-Verlauf",
        Status: "Draft",
        UserTeamPermissions: [],
        EditorTeamPermissions: [],
        ApproverTeamPermissions: [],
        Categories: [],
        PatientForm: [],
        Rights: { CanEdit: true, CanApprove: false, CanParticipate: true },
      });
      expect(full.PatientFormId).toBeGreaterThan(0);
      expect(full.Hash).toMatch(/^[0-9a-f]{24}$/);
      expect(await auditCount(survey.Id)).toBe(1);
    });

    it("without a title it takes the translated default", async () => {
      const res = await api.call("POST", "/surveys", { ...as("editor"), body: {} });
      expect((await res.json()).Title).toBe("Neue Umfrage");
    });

    it("refuses approvers, users and outsiders, and bad input", async () => {
      expect((await api.call("POST", "/surveys", { ...as("approver"), body: { Title: "x" } })).status).toBe(403);
      expect((await api.call("POST", "/surveys", { ...as("user"), body: { Title: "x" } })).status).toBe(403);
      expect((await api.call("POST", "/surveys", { ...as("outsider"), body: { Title: "x" } })).status).toBe(403);
      expect((await api.call("POST", "/surveys", { body: { Title: "x" } })).status).toBe(401);
      const bad = await api.call("POST", "/surveys", { ...as("editor"), body: { Title: 5 } });
      expect(bad.status).toBe(400);
      expect((await bad.json()).Type).toBe("VALIDATION_ERROR");
      const notJson = await api.call("POST", "/surveys", {
        ...as("editor"),
        body: "{oops",
        headers: { "content-type": "application/json" },
      });
      expect(notJson.status).toBe(400);
    });
  });

  describe("read", () => {
    it("404 for a survey that does not exist, 400 for a bad id", async () => {
      const missing = await get(999999);
      expect(missing.status).toBe(404);
      expect((await missing.json()).Type).toBe("SURVEY_NOT_FOUND");
      expect((await api.call("GET", "/surveys/abc", as("editor"))).status).toBe(400);
    });

    it("a plain user sees only what they may fill: no Draft, but the published survey", async () => {
      const survey = await create("Nur für Ausfüller");
      expect((await get(survey.Id, "user")).status).toBe(404);
      expect((await list("user")).Data.map((s) => s.Id)).not.toContain(survey.Id);
      await publish(survey.Id);
      expect((await get(survey.Id, "user")).status).toBe(200);
      const entry = (await list("user")).Data.find((s) => s.Id === survey.Id);
      expect(entry).toMatchObject({
        Status: "Active",
        Rights: { CanParticipate: true, CanEdit: false, CanApprove: false },
      });
    });

    it("searches titles case-insensitively, with take and skip", async () => {
      await create("Schmerzskala Ärztliche Sicht");
      await create("schmerzskala pflege");
      const found = await list("editor", "?filterString=SCHMERZSKALA");
      expect(found.Total).toBe(2);
      expect(found.Data.map((s) => s.Title).sort()).toEqual(["Schmerzskala Ärztliche Sicht", "schmerzskala pflege"]);
      expect((await list("editor", "?filterString=%C3%A4rztliche")).Total).toBe(1);
      const page = await list("editor", "?filterString=schmerzskala&take=1&skip=1");
      expect(page.Total).toBe(2);
      expect(page.Data).toHaveLength(1);
      expect((await api.call("GET", "/surveys?take=-1", as("editor"))).status).toBe(400);
    });

    it("derives Pending and Ended from the dates of a published survey", async () => {
      const future = await create("Zukünftig");
      await api.call("PUT", `/surveys/${future.Id}`, {
        ...as("editor"),
        body: { StartDate: "01.01.2999", EndDate: "31.12.2999" },
      });
      await publish(future.Id);
      expect((await (await get(future.Id)).json()).Status).toBe("Pending");
      const past = await create("Vergangen");
      await api.call("PUT", `/surveys/${past.Id}`, {
        ...as("editor"),
        body: { StartDate: "01.01.2020", EndDate: "31.12.2020" },
      });
      await publish(past.Id);
      expect((await (await get(past.Id)).json()).Status).toBe("Ended");
      expect((await get(past.Id, "user")).status).toBe(200);
      expect((await get(future.Id, "user")).status).toBe(404);
    });
  });
});
