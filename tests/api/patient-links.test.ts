import { describe, expect, it } from "vitest";
import { openLink } from "~/server/services/links/open.server";
import { addressTries } from "~/server/services/links/rate-limit.server";
import { tokenHash } from "~/server/services/links/secrets.server";
import { dialects } from "../support/databases";
import { asPatient, linkTestProvider } from "./link-caller";
import { caseRow, json, questionId, type FillWorld, useFillWorld } from "./fill-support";
import { erase } from "./erasure-support";

const idp = linkTestProvider();

interface Made {
  Link: { Id: number; State: string; PatientDataId: number; ExpiresAt: string; Language: string | null };
  Token: string;
  Code: string;
}

describe.each(dialects)("patients' links on %s", (kind) => {
  const world = useFillWorld(kind, idp);
  const make = async (w: FillWorld, body: Record<string, unknown>, who: "user" | "outsider" = "user") =>
    w.call(who, "POST", "/patient-links", body);

  it("are made for a new case by those who fill the survey, the secrets answered once and stored hashed", async () => {
    const w = world();
    expect((await make(w, { SurveyId: w.a.heart, PatientId: "LINK_1" }, "outsider")).status).toBe(403);
    const res = await make(w, { SurveyId: w.a.heart, PatientId: "LINK_1", ExpiryDays: 3 });
    const made = await json<Made>(res);
    expect(res.status, JSON.stringify(made)).toBe(201);
    expect(made.Token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.Code).toMatch(/^[34679ACDEFHJKMNPRTWXY]{16}$/);
    expect(made.Link.State).toBe("made");
    expect(Date.parse(made.Link.ExpiresAt) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    const row = await w.db
      .selectFrom("patient_links")
      .selectAll()
      .where("id", "=", made.Link.Id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(tokenHash(made.Token));
    expect(JSON.stringify(row)).not.toContain(made.Token);
    expect(JSON.stringify(row)).not.toContain(made.Code);
    const kase = await caseRow(w.db, w.a.heart, "LINK_1");
    expect(kase).toMatchObject({ state: "Open", held_until: row.expires_at });
    const list = await json<Made["Link"][]>(
      await w.call("user", "GET", `/patient-links?surveyId=${w.a.heart}&patientId=LINK_1`),
    );
    expect(list.map((l) => [l.Id, l.State])).toEqual([[made.Link.Id, "made"]]);
    expect(JSON.stringify(list)).not.toContain(made.Token);
    // The trail names the link, not the patient.
    const trail = await w.db.selectFrom("audit_log").selectAll().where("action", "=", "link.create").execute();
    expect(trail.at(-1)).toMatchObject({ patient_data_id: null, entity_id: String(made.Link.Id) });
    expect(trail.at(-1)!.after).not.toContain("LINK_1");
    // A request sent with an Idempotency-Key keeps no answer: the token is stored nowhere in plain.
    const again = await json<Made>(
      await w.api.call("POST", "/patient-links", {
        token: await w.api.token("user"),
        body: { SurveyId: w.a.heart, PatientId: "LINK_1" },
        headers: { "Idempotency-Key": "link-once-1" },
      }),
    );
    const kept = await w.db.selectFrom("idempotent_requests").selectAll().execute();
    expect(JSON.stringify(kept)).not.toContain(again.Token);
  });

  it("are refused on surveys that are not running and in languages the survey does not offer", async () => {
    const w = world();
    for (const survey of [w.a.draft, w.a.ended, w.a.archived]) {
      expect([404, 409]).toContain((await make(w, { SurveyId: survey, PatientId: "LINK_X" })).status);
    }
    expect((await make(w, { SurveyId: w.a.heart, PatientId: "LINK_X", Language: "tr" })).status).toBe(400);
    expect((await make(w, { SurveyId: w.a.heart, PatientId: "LINK_X", ExpiryDays: 31 })).status).toBe(400);
  });

  it("let the patient answer and submit; the case names them, the link is used up", async () => {
    const w = world();
    const made = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_2" }));
    const patient = await asPatient(w, made.Token);
    const question = await questionId(w.db, w.a.heart, "Weitere Beschwerden");
    const saved = await patient("POST", "/question-responses/free-text", {
      SurveyId: w.a.heart,
      PatientId: "LINK_2",
      QuestionId: question,
      TextResponse: "Husten",
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const list = await json<Made["Link"][]>(await w.call("user", "GET", `/patient-links?surveyId=${w.a.heart}`));
    expect(list.find((l) => l.Id === made.Link.Id)!.State).toBe("inProgress");
    expect(await caseRow(w.db, w.a.heart, "LINK_2")).toMatchObject({
      respondent: "link",
      respondent_link_id: made.Link.Id,
    });
    const answerRow = await w.db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "response.record")
      .where("patient_data_id", "=", made.Link.PatientDataId)
      .executeTakeFirstOrThrow();
    expect(answerRow).toMatchObject({ actor_user_id: null, actor_sub: `link:${made.Link.Id}` });

    const closed = await patient("POST", `/patients/close?surveyId=${w.a.heart}&patientId=LINK_2`);
    expect(closed.status).toBe(204);
    expect(await caseRow(w.db, w.a.heart, "LINK_2")).toMatchObject({ state: "Closed" });
    expect((await openLink(w.db, { token: made.Token }, "10.0.0.2")).kind).toBe("used");
    // The cookie stands for nothing any more.
    expect((await patient("GET", `/surveys/${w.a.heart}`)).status).toBe(401);
  });

  it("wait for staff's review when the survey says so", async () => {
    const w = world();
    await w.db.updateTable("surveys").set({ patient_submit_review: 1 }).where("id", "=", w.a.heart).execute();
    try {
      const made = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_3" }));
      const patient = await asPatient(w, made.Token);
      expect((await patient("POST", `/patients/close?surveyId=${w.a.heart}&patientId=LINK_3`)).status).toBe(204);
      expect(await caseRow(w.db, w.a.heart, "LINK_3")).toMatchObject({ state: "Open", respondent: "link" });
      const record = await json<Record<string, unknown>>(
        await w.call("user", "GET", `/patients?surveyId=${w.a.heart}&patientId=LINK_3`),
      );
      expect(record).toMatchObject({ State: "Open", SubmittedByPatient: { LinkId: made.Link.Id } });
      expect((await w.call("user", "POST", `/patients/close?surveyId=${w.a.heart}&patientId=LINK_3`)).status).toBe(204);
      expect(await caseRow(w.db, w.a.heart, "LINK_3")).toMatchObject({ state: "Closed" });
    } finally {
      await w.db.updateTable("surveys").set({ patient_submit_review: 0 }).where("id", "=", w.a.heart).execute();
    }
  });

  it("revoked, renewed and expired links each say so; a wrong one only that it is not valid", async () => {
    const w = world();
    const made = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_4" }));
    const patient = await asPatient(w, made.Token);
    const revoked = await w.call("user", "POST", `/patient-links/${made.Link.Id}/revoke`);
    expect((await json<Made["Link"]>(revoked)).State).toBe("revoked");
    expect((await w.call("user", "POST", `/patient-links/${made.Link.Id}/revoke`)).status).toBe(409);
    expect((await patient("GET", `/surveys/${w.a.heart}`)).status).toBe(401);
    expect(await openLink(w.db, { token: made.Token }, "10.0.0.3")).toMatchObject({ kind: "revoked" });
    expect(await openLink(w.db, { code: made.Code }, "10.0.0.3")).toMatchObject({ kind: "revoked" });

    const second = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_4" }));
    const renewed = await json<Made>(
      await w.call("user", "POST", `/patient-links/${second.Link.Id}/renew`, { ExpiryDays: 2 }),
    );
    expect(renewed.Link).toMatchObject({ State: "made", PatientDataId: second.Link.PatientDataId });
    expect(renewed.Token).not.toBe(second.Token);
    expect((await openLink(w.db, { token: second.Token }, "10.0.0.3")).kind).toBe("revoked");
    // The code typed by hand, in lower case with spaces, opens the new link.
    const typed = renewed.Code.toLowerCase().replace(/(.{4})/g, "$1 ");
    expect(await openLink(w.db, { code: typed }, "10.0.0.3")).toMatchObject({ kind: "open" });
    const actions = (
      await w.db.selectFrom("audit_log").select("action").where("action", "like", "link.%").execute()
    ).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["link.create", "link.revoke", "link.renew"]));

    await w.db
      .updateTable("patient_links")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", renewed.Link.Id)
      .execute();
    expect(await openLink(w.db, { token: renewed.Token }, "10.0.0.3")).toMatchObject({ kind: "expired" });
    expect(await openLink(w.db, { token: "x".repeat(43) }, "10.0.0.3")).toEqual({ kind: "invalid", linkId: null });
    expect(await openLink(w.db, { code: "AAAA-AAAA-AAAA-AAAA" }, "10.0.0.3")).toEqual({
      kind: "invalid",
      linkId: null,
    });
  });

  it("limit wrong tries per address and openings per link", async () => {
    const w = world();
    for (let i = 0; i < 20; i++)
      expect((await openLink(w.db, { token: `wrong${i}` }, "10.9.9.9")).kind).toBe("invalid");
    expect((await openLink(w.db, { token: "wrong" }, "10.9.9.9")).kind).toBe("limited");
    const made = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_5" }));
    // A blocked address is refused a right token too; another address is not.
    expect((await openLink(w.db, { token: made.Token }, "10.9.9.9")).kind).toBe("limited");
    for (let i = 0; i < 30; i++) expect((await openLink(w.db, { token: made.Token }, `10.8.0.${i}`)).kind).toBe("open");
    expect((await openLink(w.db, { token: made.Token }, "10.8.1.1")).kind).toBe("limited");
  });

  it("take the same time for every invalid token", async () => {
    const w = world();
    const tries = ["", "a", "x".repeat(43), "y".repeat(128), "z".repeat(5000), "%00%2F..", "ÄÖÜ".repeat(20)];
    const median = async (token: string) => {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        addressTries.clear();
        const start = performance.now();
        await openLink(w.db, { token }, "10.7.7.7");
        times.push(performance.now() - start);
      }
      return times.sort((a, b) => a - b)[7];
    };
    const medians: number[] = [];
    for (const t of tries) medians.push(await median(t));
    // Loosely: the slowest kind of wrong token within a few milliseconds of the fastest.
    expect(Math.max(...medians) - Math.min(...medians)).toBeLessThan(5);
  });

  it("go with their case when it is erased", async () => {
    const w = world();
    const made = await json<Made>(await make(w, { SurveyId: w.a.heart, PatientId: "LINK_6" }));
    expect((await erase(w, w.a.heart, "LINK_6")).status).toBe(200);
    expect(await w.db.selectFrom("patient_links").select("id").where("id", "=", made.Link.Id).execute()).toEqual([]);
    expect((await openLink(w.db, { token: made.Token }, "10.0.0.4")).kind).toBe("invalid");
  });
});
