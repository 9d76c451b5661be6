import { describe, expect, it } from "vitest";
import { isCrossSiteWrite } from "./same-origin.server";

const PUBLIC = "https://surveys.example";
const req = (method: string, headers: Record<string, string> = {}, url = "http://127.0.0.1:3000/surveys") =>
  new Request(url, { method, headers });

describe("isCrossSiteWrite", () => {
  it("lets reads through whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(isCrossSiteWrite(req(method, { origin: "https://evil.example" }), PUBLIC)).toBe(false);
    }
  });

  it("accepts a write from the request's own origin or the public address", () => {
    expect(isCrossSiteWrite(req("POST", { origin: "http://127.0.0.1:3000" }), PUBLIC)).toBe(false);
    expect(isCrossSiteWrite(req("DELETE", { origin: PUBLIC }), PUBLIC)).toBe(false);
    expect(isCrossSiteWrite(req("PUT", { "sec-fetch-site": "same-origin" }), PUBLIC)).toBe(false);
  });

  it("refuses a write from another origin, a sibling port or none named", () => {
    expect(isCrossSiteWrite(req("POST", { origin: "https://evil.example" }), PUBLIC)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { origin: "http://127.0.0.1:3001" }), PUBLIC)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { origin: "null" }), PUBLIC)).toBe(true);
    expect(isCrossSiteWrite(req("POST", { "sec-fetch-site": "same-site" }), PUBLIC)).toBe(true);
    expect(isCrossSiteWrite(req("PATCH"), PUBLIC)).toBe(true);
    // Origin decides when present, even if Sec-Fetch-Site claims otherwise.
    expect(
      isCrossSiteWrite(req("POST", { origin: "https://evil.example", "sec-fetch-site": "same-origin" }), PUBLIC),
    ).toBe(true);
  });
});
