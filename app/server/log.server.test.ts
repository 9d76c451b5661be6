import { describe, expect, it } from "vitest";
import {
  currentRequestId,
  forgetRequestReads,
  missingTextsOfRequest,
  noteLoggedPath,
  noteMissingText,
  oncePerRequest,
  pathForLog,
  withRequestContext,
} from "./log.server";

describe("oncePerRequest", () => {
  function counter() {
    let reads = 0;
    return {
      read: async () => {
        await new Promise((r) => setTimeout(r, 1));
        return ++reads;
      },
      get reads() {
        return reads;
      },
    };
  }

  it("reads once in a request that only reads, also across what it awaits", async () => {
    const c = counter();
    const values = await withRequestContext(
      "r1",
      async () => {
        const first = await Promise.all([oncePerRequest("survey:1", c.read), oncePerRequest("survey:1", c.read)]);
        const later = await oncePerRequest("survey:1", c.read);
        const other = await oncePerRequest("survey:2", c.read);
        return [...first, later, other, currentRequestId()];
      },
      true,
    );
    expect(values).toEqual([1, 1, 1, 2, "r1"]);
    expect(c.reads).toBe(2);
  });

  it("reads afresh in another request, in a write and outside any request", async () => {
    const c = counter();
    await withRequestContext("r1", () => oncePerRequest("survey:1", c.read), true);
    await withRequestContext("r2", () => oncePerRequest("survey:1", c.read), true);
    await withRequestContext("w", async () => {
      await oncePerRequest("survey:1", c.read);
      await oncePerRequest("survey:1", c.read);
    });
    await oncePerRequest("survey:1", c.read);
    expect(c.reads).toBe(5);
  });

  it("reads again after the request forgot its reads (a write through the API)", async () => {
    const c = counter();
    const values = await withRequestContext(
      "r1",
      async () => {
        const before = await oncePerRequest("survey:1", c.read);
        forgetRequestReads();
        return [before, await oncePerRequest("survey:1", c.read), await oncePerRequest("survey:1", c.read)];
      },
      true,
    );
    expect(values).toEqual([1, 2, 2]);
  });

  it("does not keep a read that failed", async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      if (calls === 1) throw new Error("database busy");
      return "row";
    };
    const result = await withRequestContext(
      "r1",
      async () => {
        await expect(oncePerRequest("survey:1", failing)).rejects.toThrow("database busy");
        return oncePerRequest("survey:1", failing);
      },
      true,
    );
    expect(result).toBe("row");
    expect(calls).toBe(2);
  });
});

describe("missing texts of a request", () => {
  it("are the request's own, also across what it awaits, and none outside a request", async () => {
    const [first, second] = await Promise.all([
      withRequestContext("a", async () => {
        noteMissingText("de-DE start.retentionMonths");
        await new Promise((r) => setTimeout(r, 2));
        noteMissingText("de-DE start.retentionMonths");
        return missingTextsOfRequest();
      }),
      withRequestContext("b", async () => {
        await new Promise((r) => setTimeout(r, 1));
        return missingTextsOfRequest();
      }),
    ]);
    expect(first).toEqual(["de-DE start.retentionMonths"]);
    expect(second).toEqual([]);
    noteMissingText("en-US app.name");
    expect(missingTextsOfRequest()).toEqual([]);
  });
});

describe("a patient's link in the log (decision 057)", () => {
  it("names the link it opened or says it was invalid, never the token", () => {
    const token = "q3J9xkT0bS6w1YpZ4u8c2nVfLm5aHd7eRgKjWoPiQyA";
    withRequestContext("req-1", () => noteLoggedPath("/l/[link 12]"));
    expect(pathForLog(`/l/${token}`, "req-1")).toBe("/l/[link 12]");
    // Noted once: the next request under the same id learns nothing of it.
    expect(pathForLog(`/l/${token}`, "req-1")).toBe("/l/[invalid]");
    expect(pathForLog(`/l/${token}/more`)).toBe("/l/[invalid]");
    for (const page of ["/l", "/l/", "/l/fill", "/l/api/question-responses/free-text", "/surveys"]) {
      expect(pathForLog(page)).toBe(page);
    }
  });
});
