import { describe, expect, expectTypeOf, it } from "vitest";
import { apiRoutes } from "~/server/api/app.server";
import { answerOptionsApi } from "./answer-options";
import { attachmentsApi } from "./attachments";
import { auditApi } from "./audit";
import { categoriesApi } from "./categories";
import { apiUrl, type AnswerOf, type Contract, type RequestOf } from "./contract";
import { dashboardsApi } from "./dashboards";
import { erasuresApi } from "./erasures";
import { fhirApi } from "./fhir";
import { handoverApi } from "./handover";
import { healthApi } from "./health";
import { metricsApi } from "./metrics";
import { patientAttributesApi } from "./patient-attributes";
import { patientLinksApi } from "./patient-links";
import { patientsApi } from "./patients";
import { questionsApi } from "./questions";
import { answerCall, responsesApi } from "./responses";
import { statisticsApi } from "./statistics";
import { surveysApi } from "./surveys";
import { syncApi } from "./sync";
import { translationsApi } from "./translations";
import { usersApi } from "./users";

const all: Contract[] = [
  answerOptionsApi,
  attachmentsApi,
  auditApi,
  categoriesApi,
  dashboardsApi,
  erasuresApi,
  fhirApi,
  handoverApi,
  healthApi,
  metricsApi,
  patientAttributesApi,
  patientLinksApi,
  patientsApi,
  questionsApi,
  responsesApi,
  statisticsApi,
  surveysApi,
  syncApi,
  translationsApi,
  usersApi,
].flatMap((area) => Object.values(area));

/** An endpoint's method and path; the specification's spellings with a trailing slash as those without. */
const key = (c: { method: string; path: string }) => `${c.method.toUpperCase()} ${c.path.replace(/(.)\/$/, "$1")}`;

describe("contracts", () => {
  it("every endpoint the server answers has its contract, and every contract an endpoint", () => {
    const contracts = new Set(all.map(key));
    const mounted = new Set(apiRoutes.map(key));
    expect([...mounted].filter((k) => !contracts.has(k))).toEqual([]);
    expect([...contracts].filter((k) => !mounted.has(k))).toEqual([]);
    // The mounted endpoint declares what its contract does (the OpenAPI document is made from them).
    for (const r of apiRoutes) {
      const c = all.find((x) => key(x) === key(r))!;
      expect([r.response, r.body, r.query, r.params, r.status, r.errors], key(r)).toEqual([
        c.response,
        c.body,
        c.query,
        c.params,
        c.status,
        c.errors,
      ]);
    }
  });

  it("builds a request's URL: parameters encoded, a list as its key repeated, absent values left out", () => {
    expect(apiUrl(surveysApi.get, { params: { id: 7 } })).toBe("/api/surveys/7");
    expect(apiUrl(patientsApi.close, { query: { patientId: "A 1/ä&x", surveyId: 3 } })).toBe(
      "/api/patients/close?patientId=A+1%2F%C3%A4%26x&surveyId=3",
    );
    expect(apiUrl(dashboardsApi.reorderChart, { params: { id: 2, chartId: 9 }, query: { newPosition: 0 } })).toBe(
      "/api/statistics-dashboards/2/charts/reorder/9?newPosition=0",
    );
    expect(apiUrl(surveysApi.list, { query: { filterString: undefined, Archived: true } })).toBe(
      "/api/surveys?Archived=true",
    );
    expect(apiUrl({ ...surveysApi.list, path: "/x" }, { query: { a: [1, 2] } })).toBe("/api/x?a=1&a=2");
    expect(() => apiUrl(surveysApi.get, { params: {} })).toThrow(/needs id/);
  });

  it("picks the answer's endpoint by the question's kind, and the delete for an empty answer", () => {
    const ids = { PatientId: "P1", SurveyId: 1 };
    const single = { Id: 5, Type: "SingleSelection" as const, AllowMultipleAnswers: false };
    expect(answerCall(single, { AnswerOptionIds: [8] }, ids)).toEqual({
      contract: responsesApi.singleSelection,
      body: { ...ids, QuestionId: 5, AnswerOptionId: 8 },
    });
    expect(answerCall({ ...single, Type: "MultipleSelection" }, { AnswerOptionIds: [8, 9] }, ids).contract).toBe(
      responsesApi.multipleSelection,
    );
    expect(answerCall(single, { AnswerOptionIds: [] }, ids)).toEqual({
      contract: responsesApi.removeAnswer,
      body: { ...ids, QuestionId: 5 },
    });
    expect(answerCall({ ...single, Type: "Numerical" }, { NumericalResponse: 0 }, ids).body).toMatchObject({
      NumericalResponse: 0,
    });
    expect(answerCall({ ...single, Type: "FreeText" }, undefined, ids).contract).toBe(responsesApi.removeAnswer);
  });

  it("types requests and answers from the schemas", () => {
    expectTypeOf<RequestOf<typeof surveysApi.get>["params"]>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<AnswerOf<typeof patientsApi.record>["State"]>().toEqualTypeOf<"Open" | "Closed" | "Nonexistent">();
    expectTypeOf<AnswerOf<typeof patientsApi.close>>().toEqualTypeOf<undefined>();
    expectTypeOf<NonNullable<RequestOf<typeof surveysApi.list>["query"]>>().toMatchTypeOf<{ Archived?: boolean }>();
  });
});
