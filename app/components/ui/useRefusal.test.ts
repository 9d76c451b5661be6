import { describe, expect, it } from "vitest";
import { meetRefusal, type Refusal } from "./useRefusal";

function means() {
  const said: string[] = [];
  const opened: string[] = [];
  return {
    said,
    opened,
    t: (key: string) => `«${key}»`,
    toast: (kind: string, text: string) => said.push(`${kind}: ${text}`),
    open: (path: string) => opened.push(path),
  };
}
const refusal = (status: number, type: string): Refusal => ({ ok: false, status, type, message: "raw" });

describe("meetRefusal: the one way a page meets a refusal", () => {
  it("opens the 401 and 403 pages and says nothing else, whatever the caller's words", () => {
    for (const status of [401, 403]) {
      const m = means();
      expect(meetRefusal(refusal(status, "UNAUTHORIZED"), m, { key: "fill.saveFailed" })).toBeNull();
      expect(m.opened).toEqual([`/${status}`]);
      expect(m.said).toEqual([]);
    }
  });

  it("says a refusal in section 8's words for its type, in a toast", () => {
    const m = means();
    expect(meetRefusal(refusal(409, "SURVEY_ANSWER_OPTION_EXISTS"), m)).toBe("«errors.answerOptionExists»");
    expect(m.said).toEqual(["error: «errors.answerOptionExists»"]);
    expect(m.opened).toEqual([]);
  });

  it("takes the caller's words, but a lost network is said as such", () => {
    const m = means();
    meetRefusal(refusal(400, "VALIDATION_ERROR"), m, { key: "statistics.graphs.failed" });
    meetRefusal(refusal(0, "NETWORK"), m, { key: "statistics.graphs.failed" });
    expect(m.said).toEqual(["error: «statistics.graphs.failed»", "error: «errors.network»"]);
  });

  it("returns the words without a toast for a caller that shows them in place", () => {
    const m = means();
    expect(meetRefusal(refusal(500, "UNKNOWN"), m, { toast: false })).toBe("«errors.server»");
    expect(m.said).toEqual([]);
  });
});
