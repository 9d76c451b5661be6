import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./return-to.server";

describe("safeReturnTo", () => {
  it("keeps a path inside the app, with its query and fragment", () => {
    expect(safeReturnTo("/survey/4/statistics?tab=graphs#top")).toBe("/survey/4/statistics?tab=graphs#top");
    expect(safeReturnTo("/surveys")).toBe("/surveys");
  });

  it("never leads to another site", () => {
    for (const value of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      "",
      null,
      undefined,
    ]) {
      expect(safeReturnTo(value)).toBe("/surveys");
    }
  });

  it("gives a value a Location header can carry: no line breaks, no raw non-ASCII", () => {
    expect(safeReturnTo("/survey/1/fill/Müller_1")).toBe("/survey/1/fill/M%C3%BCller_1");
    expect(safeReturnTo("/a\r\nSet-Cookie: x=1")).toBe("/surveys");
    expect(() => new Headers({ Location: safeReturnTo("/ünïcödé?q=ä") })).not.toThrow();
  });

  it("turns path tricks into the path they resolve to, still inside the app", () => {
    expect(safeReturnTo("/a/../b")).toBe("/b");
    expect(safeReturnTo("/x/..//evil.example")).toBe("/surveys");
  });
});
