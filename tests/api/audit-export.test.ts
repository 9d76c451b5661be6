import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { auditCsv } from "~/server/services/audit-export.server";
import { dialects } from "../support/databases";
import { questionId, useFillWorld } from "./fill-support";
import { payload, sync } from "./sync-support";

/** GET /api/audit-log and /api/audit-log/csv: who may read a survey's and a case's audit log, and what it holds. */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

type Entry = { Action: string; PatientId: string | null; After: string | null; SurveyId: number };

describe.each(dialects)("the audit log export on %s", (kind) => {
  const world = useFillWorld(
    kind,
    () => idp,
    async (w) => {
      const notes = await questionId(w.db, w.a.heart, "Weitere Beschwerden");
      for (const [patientId, text] of [
        ["AUDIT_1", '=HYPERLINK("http://x")'],
        ["AUDIT_2", "ruhig"],
      ]) {
        const body = await payload(w.db, w.a.heart, patientId, {
          Close: true,
          QuestionAnswers: [{ QuestionId: notes, TextResponse: text }],
        });
        expect((await sync(w, w.a.heart, body, { key: `audit-${patientId}` })).status).toBe(200);
      }
    },
  );

  const get = (who: "approver" | "admin" | "editor" | "user" | "outsider" | "nobody", path: string) =>
    world().call(who, "GET", path);

  it("gives a survey's approvers its entries, and a case's entries by patient id", async () => {
    const survey = world().a.heart;
    const all = (await (await get("approver", `/audit-log?surveyId=${survey}`)).json()) as Entry[];
    expect(all.every((e) => e.SurveyId === survey)).toBe(true);
    const synced = all.filter((e) => e.Action === "case.sync").map((e) => e.PatientId);
    expect(synced).toEqual(expect.arrayContaining(["AUDIT_1", "AUDIT_2"]));

    const res = await get("admin", `/audit-log?surveyId=${survey}&patientId=AUDIT_1`);
    expect(res.status).toBe(200);
    const one = (await res.json()) as Entry[];
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((e) => e.PatientId === "AUDIT_1")).toBe(true);
    expect(one.some((e) => e.Action === "case.sync")).toBe(true);
    // Nothing of the other survey copy.
    const other = (await (await get("approver", `/audit-log?surveyId=${world().b.heart}`)).json()) as Entry[];
    expect(other.some((e) => e.PatientId === "AUDIT_1")).toBe(false);
  });

  it("refuses everyone else with the error envelope", async () => {
    const path = `/audit-log?surveyId=${world().a.heart}`;
    for (const [who, status] of [
      ["editor", 403],
      ["user", 403],
      ["outsider", 403],
      ["nobody", 401],
    ] as const) {
      const res = await get(who, path);
      expect(res.status, who).toBe(status);
      expect(await res.json()).toEqual({ Type: expect.any(String), Error: expect.any(String) });
    }
    expect((await get("approver", "/audit-log?surveyId=999999")).status).toBe(404);
    expect((await get("approver", "/audit-log?surveyId=abc")).status).toBe(400);
    expect((await get("editor", `/audit-log/csv?surveyId=${world().a.heart}`)).status).toBe(403);
  });

  it("exports CSV with a header row, one line per entry, formula-like cells neutralised", async () => {
    const res = await get("approver", `/audit-log/csv?surveyId=${world().a.heart}&patientId=AUDIT_1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    expect(res.headers.get("content-disposition")).toContain("audit-");
    const text = (await res.text()).replace(/^\uFEFF/, "");
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^Id[;,]At[;,]ActorUserId/);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.includes("AUDIT_1"))).toBe(true);
  });
});

describe("audit CSV cells", () => {
  it("neutralises cells starting with = + - @", () => {
    const base = {
      Id: 1,
      At: "2026-11-23T10:00:00.000Z",
      ActorUserId: 2,
      ActorSub: "@sub",
      Action: "=cmd",
      Entity: "+x",
      EntityId: "-1",
      SurveyId: 3,
      PatientDataId: 4,
      PatientId: "P1",
      Before: null,
      After: '{"a":1}',
      ErasedAt: null,
      ValuesHash: "cd",
      Hash: "ab",
      PrevHash: null,
    };
    const csv = auditCsv([base], "en-US");
    const row = csv.split("\r\n")[1];
    expect(row).toContain("'@sub,'=cmd,'+x,'-1");
    expect(auditCsv([base], "de-DE").split("\r\n")[1]).toContain("'@sub;'=cmd;'+x;'-1");
  });
});
