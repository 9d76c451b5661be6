import { describe, expect, it } from "vitest";
import { routeTemplates } from "./route-templates.server";

describe("routeTemplates", () => {
  const templateOf = routeTemplates({
    apiPaths: [
      "/surveys",
      "/surveys/:id",
      "/surveys/benchmarkable",
      "/surveys/:id/approve",
      "/statistics/:surveyId/csv",
    ],
    pages: {
      root: { id: "root", path: "" },
      "routes/_index": { id: "routes/_index", parentId: "root" },
      "routes/surveys": { id: "routes/surveys", path: "surveys", parentId: "root" },
      "routes/stats": { id: "routes/stats", path: "survey/:surveyId/statistics", parentId: "root" },
      "routes/stats.download": { id: "routes/stats.download", path: "download", parentId: "routes/stats" },
      "routes/api.$": { id: "routes/api.$", path: "api/*", parentId: "root" },
      "routes/$": { id: "routes/$", path: "*", parentId: "root" },
    },
    assetsPrefix: "/assets/",
  });

  it("names the API's endpoints by their templates, literal segments first", () => {
    expect(templateOf("/api/surveys")).toBe("/api/surveys");
    expect(templateOf("/api/surveys/12")).toBe("/api/surveys/:id");
    expect(templateOf("/api/surveys/benchmarkable")).toBe("/api/surveys/benchmarkable");
    expect(templateOf("/api/surveys/12/approve")).toBe("/api/surveys/:id/approve");
    expect(templateOf("/api/statistics/3/csv")).toBe("/api/statistics/:surveyId/csv");
    expect(templateOf("/api/metrics")).toBe("/api/metrics");
  });

  it("names pages by their full paths, nested ones under their parents", () => {
    expect(templateOf("/")).toBe("/");
    expect(templateOf("/surveys")).toBe("/surveys");
    expect(templateOf("/surveys/")).toBe("/surveys");
    expect(templateOf("/survey/4/statistics")).toBe("/survey/:surveyId/statistics");
    expect(templateOf("/survey/4/statistics/download")).toBe("/survey/:surveyId/statistics/download");
  });

  it("keeps made-up paths to a few names", () => {
    expect(templateOf("/api/nothing/here")).toBe("other");
    expect(templateOf("/api/surveys/1/2/3")).toBe("other");
    expect(templateOf("/made/up/path")).toBe("/*");
    expect(templateOf("/assets/entry-abc123.js")).toBe("/assets/*");
  });
});
