import { describe, expect, it } from "vitest";
import { clearKeptHash, isDocumentNavigation, keptHash, RETURN_HASH_COOKIE } from "./return-hash.server";

const request = (headers: Record<string, string>) => new Request("http://app.test/authentication/login", { headers });

describe("the sign-in's hash-keeping page", () => {
  it("is for a page's own navigation, not for a script's fetch or a hidden frame", () => {
    expect(isDocumentNavigation(request({ "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }))).toBe(true);
    expect(isDocumentNavigation(request({ accept: "text/html,application/xhtml+xml" }))).toBe(true);
    expect(isDocumentNavigation(request({ "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" }))).toBe(false);
    // A silent sign-in's frame: the app's pages may not be framed, so the frame goes straight to the provider.
    expect(isDocumentNavigation(request({ "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" }))).toBe(false);
  });

  it("gives back only a plain tab name", () => {
    expect(keptHash(`${RETURN_HASH_COOKIE}=%23questionnaire`)).toBe("#questionnaire");
    expect(keptHash(`${RETURN_HASH_COOKIE}=%23a%22onload`)).toBe("");
    expect(keptHash(null)).toBe("");
    expect(clearKeptHash(true)).toContain("Max-Age=0");
  });
});
