import { describe, expect, it } from "vitest";
import {
  handoverRedirect,
  NETWORK_ROUTES,
  type NetworkRoute,
  offlinePageKey,
  offlineRedirect,
  pageKeepKey,
  routeRequest,
  type RoutedRequest,
} from "./sw-routes";

const origin = "https://app.test";
const get = (path: string, mode = "cors"): RoutedRequest => ({ method: "GET", url: `${origin}${path}`, mode });

describe("routeRequest", () => {
  it("sends every page load, of any address, to the page handler", () => {
    for (const path of ["/surveys", "/survey/3/fill/P_1", "/survey-archives", "/", "/api/health", "/unknown?x=1"]) {
      expect(routeRequest(get(path, "navigate"), origin)).toBe("page");
    }
  });

  it("answers fingerprinted build files from the cache first", () => {
    expect(routeRequest(get("/assets/entry.client-U8PyVSvg.js"), origin)).toBe("asset");
    expect(routeRequest(get("/assets/app-B75-lFZO.css?v=2"), origin)).toBe("asset");
    expect(routeRequest(get("/assets/common-Dhf9c52O.json"), origin)).toBe("asset");
  });

  it("sends other static files to the network first", () => {
    for (const path of ["/favicon.svg", "/icon-192.png", "/manifest.webmanifest", "/favicon.ico", "/x.css", "/x.js"]) {
      expect(routeRequest(get(path), origin)).toBe("static");
    }
  });

  it("leaves the worker scripts, the new and the retired one, to the browser", () => {
    expect(routeRequest(get("/entry.worker.js"), origin)).toBe("network");
    expect(routeRequest(get("/sw.js"), origin)).toBe("network");
  });

  it("never answers API calls, loader data, the asset list or writes", () => {
    expect(routeRequest(get("/api/surveys"), origin)).toBe("network");
    expect(routeRequest(get("/api/health"), origin)).toBe("network");
    expect(routeRequest(get("/api/files/scan.png"), origin)).toBe("network");
    expect(routeRequest(get("/surveys.data"), origin)).toBe("network");
    expect(routeRequest(get("/survey/3/fill/P_1.data?_routes=x"), origin)).toBe("network");
    expect(routeRequest(get("/offline-assets.json"), origin)).toBe("network");
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(routeRequest({ method, url: `${origin}/surveys`, mode: "navigate" }, origin)).toBe("network");
      expect(routeRequest({ method, url: `${origin}/assets/a.js`, mode: "cors" }, origin)).toBe("network");
    }
  });

  it("leaves other origins alone, pages and files alike", () => {
    expect(routeRequest({ method: "GET", url: "https://idp.test/login", mode: "navigate" }, origin)).toBe("network");
    expect(routeRequest({ method: "GET", url: "https://cdn.test/assets/a.js", mode: "cors" }, origin)).toBe("network");
    expect(routeRequest({ method: "GET", url: "http://app.test/assets/a.js", mode: "cors" }, origin)).toBe("network");
  });
});

describe("NETWORK_ROUTES", () => {
  /** Whether a rule takes a request (its patterns use only `*`, on the path, with any query and origin). */
  function takes(rule: NetworkRoute, request: RoutedRequest): boolean {
    const c = rule.condition;
    if ("requestMethod" in c) return request.method === c.requestMethod;
    const glob = new RegExp(
      `^${c.urlPattern.pathname
        .split("*")
        .map((part) => part.replace(/[.?+^$()|[\]{}\\]/g, "\\$&"))
        .join(".*")}$`,
    );
    return request.mode === c.requestMode && glob.test(new URL(request.url).pathname);
  }

  const paths = [
    "/api/surveys",
    "/api/question-responses/?surveyId=3&patientId=P_1",
    "/api/files/scan.png",
    "/api/health",
    "/surveys.data",
    "/survey/3/fill/P_1.data?_routes=routes%2Fx",
    "/surveys",
    "/survey/3/fill/P_1",
    "/assets/entry.client-U8PyVSvg.js",
    "/assets/common-Dhf9c52O.json",
    "/favicon.svg",
    "/manifest.webmanifest",
    "/entry.worker.js",
    "/offline-assets.json",
  ];
  const requests = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"].flatMap((method) =>
    ["navigate", "cors", "same-origin", "no-cors"].flatMap((mode) =>
      paths.map((path) => ({ method, url: `${origin}${path}`, mode })),
    ),
  );

  it("take only requests the fetch handler leaves to the network", () => {
    for (const request of requests) {
      if (NETWORK_ROUTES.some((rule) => takes(rule, request))) {
        expect(routeRequest(request, origin), `${request.method} ${request.mode} ${request.url}`).toBe("network");
      }
    }
  });

  it("take the writes and the page's API calls and loader data, and leave every page load to the worker", () => {
    const taken = (method: string, path: string, mode: string) =>
      NETWORK_ROUTES.some((rule) => takes(rule, { method, url: `${origin}${path}`, mode }));
    expect(taken("PUT", "/api/question-responses", "cors")).toBe(true);
    expect(taken("POST", "/survey/3/fill/P_1", "navigate")).toBe(true);
    expect(taken("GET", "/api/surveys", "cors")).toBe(true);
    expect(taken("GET", "/survey/3/fill/P_1.data?_routes=x", "cors")).toBe(true);
    expect(taken("GET", "/api/files/scan.png", "navigate")).toBe(false);
    expect(taken("GET", "/survey/3/fill/P_1", "navigate")).toBe(false);
    expect(taken("GET", "/assets/entry.client-U8PyVSvg.js", "cors")).toBe(false);
  });
});

describe("pageKeepKey", () => {
  const key = (path: string) => pageKeepKey(new URL(path, origin));

  it("keeps the list, the start pages and the archive under their path, without a trailing slash", () => {
    expect(key("/surveys")).toBe("/surveys");
    expect(key("/surveys/")).toBe("/surveys");
    expect(key("/survey/12")).toBe("/survey/12");
    expect(key("/survey-archives")).toBe("/survey-archives");
  });

  it("never keeps a fill page (it carries a patient's data), a filtered page or any other page", () => {
    expect(key("/survey/12/fill/P_1")).toBeNull();
    expect(key("/survey/12/fill/offline-shell")).toBeNull();
    expect(key("/surveys?title=x")).toBeNull();
    expect(key("/survey/abc")).toBeNull();
    expect(key("/survey/12/edit")).toBeNull();
    expect(key("/")).toBeNull();
  });
});

describe("offlinePageKey", () => {
  it("answers any fill page with its survey's kept fill document", () => {
    expect(offlinePageKey("/survey/12/fill/P_1")).toBe("/__offline-shell/12");
    expect(offlinePageKey("/survey/12/fill/Müller_1/")).toBe("/__offline-shell/12");
  });

  it("answers other pages with their own kept copy", () => {
    expect(offlinePageKey("/surveys/")).toBe("/surveys");
    expect(offlinePageKey("/survey/12")).toBe("/survey/12");
    expect(offlinePageKey("/survey/12/fill/P_1/extra")).toBe("/survey/12/fill/P_1/extra");
    expect(offlinePageKey("/")).toBe("/");
  });
});

describe("offlineRedirect", () => {
  it("sends pages without a kept copy to the list, but not the list itself", () => {
    expect(offlineRedirect("/survey/12/edit")).toBe("/surveys");
    expect(offlineRedirect("/")).toBe("/surveys");
    expect(offlineRedirect("/surveys")).toBeNull();
    expect(offlineRedirect("/surveys/")).toBeNull();
  });
});

describe("handoverRedirect", () => {
  const kase = { surveyId: 12, patientId: "P_1" };

  it("leads every other page to the case's fill page while the device is handed over", () => {
    for (const path of ["/surveys", "/surveys/", "/survey/12", "/survey-archives", "/", "/survey/12/edit"]) {
      expect(handoverRedirect(path, kase)).toBe("/survey/12/fill/P_1");
    }
    // Another case's fill page, also of the same survey, and the survey's kept fill document's address.
    expect(handoverRedirect("/survey/12/fill/P_2", kase)).toBe("/survey/12/fill/P_1");
    expect(handoverRedirect("/survey/13/fill/P_1", kase)).toBe("/survey/12/fill/P_1");
    expect(handoverRedirect("/survey/12/fill/offline-shell", kase)).toBe("/survey/12/fill/P_1");
    expect(handoverRedirect("/survey/12/fill/P_1/extra", kase)).toBe("/survey/12/fill/P_1");
  });

  it("lets the case's fill page and the way back to staff answer", () => {
    expect(handoverRedirect("/survey/12/fill/P_1", kase)).toBeNull();
    expect(handoverRedirect("/survey/12/fill/P_1/", kase)).toBeNull();
    expect(handoverRedirect("/handover/return", kase)).toBeNull();
  });

  it("names the case's address as the browser sends it, a patient id with other letters too", () => {
    const umlaut = { surveyId: 3, patientId: "Müller 1" };
    expect(handoverRedirect("/surveys", umlaut)).toBe("/survey/3/fill/M%C3%BCller%201");
    expect(handoverRedirect(new URL("/survey/3/fill/Müller 1", origin).pathname, umlaut)).toBeNull();
  });

  it("leaves every page alone without a hand-over", () => {
    for (const path of ["/surveys", "/survey/12", "/survey/12/fill/P_2", "/"]) {
      expect(handoverRedirect(path, null)).toBeNull();
    }
  });
});
