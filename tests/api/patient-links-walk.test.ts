import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "~/server/api/app.server";
import { LINK_COOKIE, linkEndpoints } from "~/server/api/link-routes.server";
import { openLink } from "~/server/services/links/open.server";
import { startApi } from "../support/api";
import { dialects } from "../support/databases";
import { endpoints, splitRoute, type Probe } from "./endpoint-table";
import { buildWorld, type World } from "./endpoint-world";

/**
 * A patient's link against every endpoint of the API (decision 057): with its cookie, under /api (where the
 * cookie stands for nobody) and under /l/api (where it stands for its one case). Only its case's answer
 * endpoints answer, and only for its case; every other request is refused.
 */

function sendAs(w: World, base: string, method: string, probe: Probe, cookie: string) {
  const query = probe.query ? `?${new URLSearchParams(probe.query)}` : "";
  // The page's own requests: same origin (a cookie's write from elsewhere is refused as cross-site).
  const headers: Record<string, string> = { cookie, origin: w.api.ctx.env.publicUrl };
  let body: BodyInit | undefined;
  if (probe.form) body = probe.form();
  else if (probe.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(probe.body);
  }
  return Promise.resolve(
    w.api.ctx.api.request(`http://localhost:3000${base}${probe.path}${query}`, { method, headers, body }),
  );
}

describe.each(dialects)("a link's caller against every endpoint on %s", (kind) => {
  let w: World;
  let cookie: string;
  let linkCase: number;
  beforeAll(async () => {
    const api = await startApi(kind);
    w = await buildWorld(api, null);
    // The link's case is the world's Open case: the table's answer probes name it.
    const made = await w.admin("POST", "/patient-links", { SurveyId: w.heart, PatientId: w.openPatient });
    const opened = await openLink(w.db, { token: made.Token }, "127.0.0.1");
    if (opened.kind !== "open") throw new Error(opened.kind);
    cookie = `${LINK_COOKIE}=${opened.session}`;
    linkCase = opened.scope.patientDataId;
    expect(linkCase).toBe(w.openCase);
  });
  afterAll(async () => {
    await w?.api.close();
  });

  it("reaches nothing under /api", async () => {
    for (const e of endpoints.filter((e) => !e.public)) {
      const { method } = splitRoute(e.route);
      const res = await sendAs(w, "/api", method, await e.probe(w), cookie);
      expect(res.status, e.route).toBe(401);
      await res.arrayBuffer();
    }
  });

  it("under /l/api reaches only its case's answer endpoints", async () => {
    const declared = new Set(apiRoutes.map((r) => `${r.method.toUpperCase()} ${r.path}`));
    for (const key of Object.keys(linkEndpoints)) expect(declared.has(key), key).toBe(true);
    const answered: string[] = [];
    for (const e of endpoints) {
      const { method } = splitRoute(e.route);
      const probe = await e.probe(w);
      const res = await sendAs(w, "/l/api", method, probe, cookie);
      const text = await res.text();
      if (process.env.SHOW_WALK) console.log(e.route, res.status, text.slice(0, 160));
      if (res.status < 300) answered.push(e.route);
      else expect([401, 403, 404], `${e.route}: ${res.status} ${text}`).toContain(res.status);
    }
    // The table's probes for files name other cases (a closed one, new ones): refused for the link.
    expect(answered.sort()).toEqual(
      [
        "GET /surveys/:id",
        "GET /patients",
        "GET /question-responses",
        "GET /question-responses/",
        "POST /question-responses/single-selection",
        "POST /question-responses/multiple-selection",
        "POST /question-responses/free-text",
        "POST /question-responses/date-time",
        "POST /question-responses/numerical",
        "DELETE /question-responses/question",
      ].sort(),
    );
  });

  it("is refused another case's answer endpoints, and another survey", async () => {
    const other = w.patientId();
    const otherCase = await w.newCase(other);
    const refused = [
      ["GET", { path: "/question-responses", query: { surveyId: String(w.heart), patientId: other } }],
      ["GET", { path: "/patients", query: { surveyId: String(w.heart), patientId: w.closedPatient } }],
      [
        "POST",
        {
          path: "/question-responses/free-text",
          body: { SurveyId: w.heart, PatientId: other, QuestionId: w.freeText, TextResponse: "x" },
        },
      ],
      ["POST", { path: "/patients/close", query: { surveyId: String(w.heart), patientId: other } }],
      ["GET", { path: "/file-attachments/count", query: { patientDataId: String(otherCase) } }],
      ["GET", { path: "/file-attachments/get-sas-blob-url", query: { surveyFileAttachmentId: String(w.closedFile) } }],
      ["GET", { path: `/surveys/${w.draft}` }],
      ["GET", { path: `/surveys/${w.clone}` }],
    ] as const;
    for (const [method, probe] of refused) {
      const res = await sendAs(w, "/l/api", method, probe, cookie);
      expect([403, 404], `${method} ${probe.path}: ${await res.text()}`).toContain(res.status);
    }
    // Nothing was written to the other case.
    const rows = await w.db
      .selectFrom("question_responses")
      .select("id")
      .where("patient_data_id", "=", otherCase)
      .execute();
    expect(rows).toEqual([]);
  });

  it("reads its survey without staff's data", async () => {
    const res = await sendAs(w, "/l/api", "GET", { path: `/surveys/${w.heart}` }, cookie);
    const survey = await res.json();
    expect(res.status).toBe(200);
    expect(survey.Categories.length).toBeGreaterThan(0);
    expect(survey).toMatchObject({
      UserTeamPermissions: [],
      EditorTeamPermissions: [],
      ApproverTeamPermissions: [],
      TeamPermissions: [],
      TagIds: [],
      PatientForm: [],
      Rights: { CanParticipate: true, CanEdit: false, CanApprove: false },
    });
  });

  it("stands for nobody without its cookie, or with a made-up one", async () => {
    for (const c of ["", `${LINK_COOKIE}=nothing`, `${LINK_COOKIE}=${"A".repeat(43)}`]) {
      const res = await sendAs(w, "/l/api", "GET", { path: `/surveys/${w.heart}` }, c);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
  });
});
