import { describe, expect, it } from "vitest";
import { missingTextsOfRequest, setLogLevel, withRequestContext } from "./log.server";
import { nameMissingTexts, translate } from "./locales.server";

describe("a text the locale files lack, on the server", () => {
  it("is named for the answer of the request that asked for it", () => {
    setLogLevel("silent");
    const missing = withRequestContext("r", () => {
      expect(translate("en-US", "start.retentionMonths", { count: "18" })).toBe(
        "Closed cases of this survey are erased 18 months after closing.",
      );
      expect(translate("de-DE", "start.nowhere")).toBe("start.nowhere");
      const headers = new Headers();
      nameMissingTexts(headers);
      return [...missingTextsOfRequest(), headers.get("X-Missing-Texts")];
    });
    expect(missing).toEqual(["de-DE start.nowhere", "de-DE start.nowhere"]);
    const untouched = new Headers();
    withRequestContext("s", () => nameMissingTexts(untouched));
    expect([...untouched.keys()]).toEqual([]);
  });
});
