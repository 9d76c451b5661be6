import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "~/server/api/app.server";
import { purgeIdempotentRequests } from "~/server/api/idempotency.server";
import { createTestIdp, type TestIdp } from "~/server/idp/test-fixture.server";
import { startApi, type ApiHarness } from "../support/api";
import { dialects } from "../support/databases";
import { PNG, form } from "./fill-files";

/**
 * Every write that creates something, sent again with the same Idempotency-Key (its answer was lost, the
 * button was pressed twice, the form resubmitted), creates it once and answers the first answer again.
 */

let idp: TestIdp;
beforeAll(async () => {
  idp = await createTestIdp();
});
afterAll(async () => {
  await idp.dispose();
});

interface Sent {
  method: "POST";
  path: string;
  body?: unknown;
  form?: FormData;
}

interface World {
  survey: number;
  active: number;
  category: number;
  question: number;
  option: number;
  attachmentQuestion: number;
  caseId: number;
  dashboard: number;
}

/** One valid request per idempotent route, and how many rows of what it makes exist now. */
const cases: Record<
  string,
  { request: (w: World, n: number) => Sent; count: (api: ApiHarness, w: World) => Promise<number> }
> = {
  "POST /surveys": {
    request: (_w, n) => ({ method: "POST", path: "/surveys", body: { Title: `Neu ${n}` } }),
    count: (api) => rows(api, "surveys"),
  },
  "POST /surveys/fhir-import": {
    request: (_w, n) => ({
      method: "POST",
      path: "/surveys/fhir-import",
      body: {
        resourceType: "Questionnaire",
        status: "draft",
        title: `Import ${n}`,
        item: [{ linkId: "a", type: "string" }],
      },
    }),
    count: (api) => rows(api, "surveys"),
  },
  "POST /surveys/:id/clone": {
    request: (w) => ({ method: "POST", path: `/surveys/${w.survey}/clone` }),
    count: (api) => rows(api, "surveys"),
  },
  "POST /categories": {
    request: (w, n) => ({ method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: `K ${n}` } }),
    count: (api) => rows(api, "categories"),
  },
  "POST /questions": {
    request: (w, n) => ({
      method: "POST",
      path: "/questions",
      body: { SurveyId: w.survey, CategoryId: w.category, Title: `F ${n}`, Type: "FreeText" },
    }),
    count: (api) => rows(api, "questions"),
  },
  "POST /answer-options": {
    request: (w, n) => ({
      method: "POST",
      path: "/answer-options",
      body: { SurveyId: w.survey, QuestionId: w.question, Text: `A ${n}` },
    }),
    count: (api) => rows(api, "answer_options"),
  },
  "POST /answer-options/:id/sub-question": {
    request: (w, n) => ({
      method: "POST",
      path: `/answer-options/${w.option}/sub-question`,
      body: { SurveyId: w.survey, Title: `U ${n}`, Type: "FreeText" },
    }),
    count: (api) => rows(api, "questions"),
  },
  "POST /patient-attributes/": {
    request: (w, n) => ({
      method: "POST",
      path: "/patient-attributes/",
      body: { SurveyId: w.survey, Title: `P ${n}`, AnswerOptions: [{ Text: "a" }] },
    }),
    count: (api) => rows(api, "patient_form_attributes"),
  },
  "POST /patient-attributes": {
    request: (w, n) => ({
      method: "POST",
      path: "/patient-attributes",
      body: { SurveyId: w.survey, Title: `Q ${n}`, AnswerOptions: [{ Text: "b" }] },
    }),
    count: (api) => rows(api, "patient_form_attributes"),
  },
  "POST /patients/add": {
    request: (w, n) => ({ method: "POST", path: `/patients/add?patientId=IDEM_${n}&surveyId=${w.active}` }),
    count: (api) => rows(api, "patient_data"),
  },
  "POST /file-attachments/upload": {
    request: (w, n) => ({
      method: "POST",
      path: `/file-attachments/upload?questionId=${w.attachmentQuestion}&patientDataId=${w.caseId}&surveyId=${w.active}`,
      form: form([`bild-${n}.png`, PNG]),
    }),
    count: (api) => rows(api, "file_attachments"),
  },
  "POST /statistics-dashboards/:id/charts/add": {
    request: (w) => ({
      method: "POST",
      path: `/statistics-dashboards/${w.dashboard}/charts/add`,
      body: { ChartAddRequests: [{ ChartType: "NumericalRange" }] },
    }),
    count: (api) => rows(api, "charts"),
  },
};

async function rows(
  api: ApiHarness,
  table:
    | "surveys"
    | "categories"
    | "questions"
    | "answer_options"
    | "patient_form_attributes"
    | "patient_data"
    | "file_attachments"
    | "charts",
) {
  const row = await api.testDb.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("every idempotent route has a case here", () => {
  it("lists exactly the routes marked idempotent", () => {
    const marked = apiRoutes.filter((r) => r.idempotent).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(new Set(marked)).toEqual(new Set(Object.keys(cases)));
  });
});

describe.each(dialects)("Idempotency-Key on %s", (kind) => {
  let api: ApiHarness;
  let token: string;
  let w: World;
  let n = 0;

  const send = async (req: Sent, key?: string) => {
    const headers: Record<string, string> = key ? { "idempotency-key": key } : {};
    if (req.form) {
      return api.ctx.api.request(`http://localhost:3000/api${req.path}`, {
        method: req.method,
        headers: { ...headers, authorization: `Bearer ${token}` },
        body: req.form,
      });
    }
    return api.call(req.method, req.path, { token, headers, body: req.body });
  };

  beforeAll(async () => {
    api = await startApi(kind, { idp });
    token = await api.token("admin");
    const j = async (method: string, path: string, body?: unknown) => {
      const res = await api.call(method, path, { token, body });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? null : res.json();
    };
    const survey = (await j("POST", "/surveys", { Title: "Idempotent" })).Id;
    const category = (await j("POST", "/categories", { SurveyId: survey, Title: "K" })).Id;
    const question = (
      await j("POST", "/questions", { SurveyId: survey, CategoryId: category, Title: "Q", Type: "SingleSelection" })
    ).Id;
    const option = (await j("POST", "/answer-options", { SurveyId: survey, QuestionId: question, Text: "o" })).Id;
    const active = (await j("POST", "/surveys", { Title: "Aktiv" })).Id;
    const activeCategory = (await j("POST", "/categories", { SurveyId: active, Title: "K" })).Id;
    const attachmentQuestion = (
      await j("POST", "/questions", {
        SurveyId: active,
        CategoryId: activeCategory,
        Title: "Bild",
        Type: "FreeText",
        AllowFileAttachments: true,
      })
    ).Id;
    await j("POST", `/surveys/${active}/approve`);
    const caseId = (await j("POST", `/patients/add?patientId=IDEM_CASE&surveyId=${active}`)).PatientDataId;
    const dashboard = (await j("POST", `/statistics-dashboards/get-by-survey-id/${active}`, { Filters: {} })).Id;
    w = { survey, active, category, question, option, attachmentQuestion, caseId, dashboard };
  }, 60_000);

  afterAll(async () => {
    await api?.close();
  });

  for (const [name, c] of Object.entries(cases)) {
    it(`${name}: a repeat answers the first answer and creates nothing more`, async () => {
      const req = c.request(w, ++n);
      const key = `key-${kind}-${n}-repeat`;
      const before = await c.count(api, w);
      const first = await send(req, key);
      expect(first.status, await first.clone().text()).toBeLessThan(300);
      const firstBody = await first.text();
      expect(await c.count(api, w)).toBe(before + 1);
      const again = await send(req, key);
      expect(again.status).toBe(first.status);
      expect(await again.text()).toBe(firstBody);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await c.count(api, w)).toBe(before + 1);
    });

    it(`${name}: repeats sent at the same time create one`, async () => {
      const req = c.request(w, ++n);
      const key = `key-${kind}-${n}-together`;
      const before = await c.count(api, w);
      const answers = await Promise.all([0, 1, 2, 3].map(() => send(req, key)));
      const bodies = await Promise.all(answers.map((a) => a.text()));
      for (const a of answers) expect(a.status).toBe(answers[0]!.status);
      expect(new Set(bodies).size).toBe(1);
      expect(await c.count(api, w)).toBe(before + 1);
    });
  }

  it("refuses a key used for another request (422), a malformed key (400); without a key each request writes", async () => {
    const first = await send(
      { method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: "Eins" } },
      "reused-key-1",
    );
    expect(first.status).toBe(201);
    const other = await send(
      { method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: "Zwei" } },
      "reused-key-1",
    );
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ Type: "IDEMPOTENCY_KEY_REUSED" });
    const bad = await send(
      { method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: "Drei" } },
      "no spaces!",
    );
    expect(bad.status).toBe(400);
    const before = await rows(api, "categories");
    await send({ method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: "Vier" } });
    await send({ method: "POST", path: "/categories", body: { SurveyId: w.survey, Title: "Vier" } });
    expect(await rows(api, "categories")).toBe(before + 2);
  });

  it("keeps nothing of a refused write: a retry after the refusal's cause is gone writes", async () => {
    const req = { method: "POST" as const, path: "/categories", body: { SurveyId: 999_999, Title: "Nirgends" } };
    const refused = await send(req, "refused-key-1");
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(
      await api.testDb.db
        .selectFrom("idempotent_requests")
        .select("id")
        .where("idempotency_key", "=", "refused-key-1")
        .execute(),
    ).toEqual([]);
  });

  it("keeps a person's keys apart from another's", async () => {
    const editor = await api.token("editor");
    const mine = await send({ method: "POST", path: "/surveys", body: { Title: "Meine" } }, "shared-key-1");
    const theirs = await api.call("POST", "/surveys", {
      token: editor,
      headers: { "idempotency-key": "shared-key-1" },
      body: { Title: "Meine" },
    });
    expect(theirs.status).toBe(201);
    expect((await theirs.json()).Id).not.toBe((await mine.json()).Id);
  });

  it("forgets first answers after a day", async () => {
    await send({ method: "POST", path: "/surveys", body: { Title: "Alt" } }, "old-key-1");
    expect(await purgeIdempotentRequests(api.testDb.db, new Date(Date.now() + 25 * 3600_000))).toBeGreaterThan(0);
  });
});
