import { describe, expect, it } from "vitest";
import { MAX_ID, positiveId, positiveIds } from "./ids";

describe("ids in addresses and forms", () => {
  it("takes plain positive decimal integers up to the database's limit", () => {
    expect(positiveId("12")).toBe(12);
    expect(positiveId(7)).toBe(7);
    expect(positiveId(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ["0", "-1", "012", "1e3", " 12", "12.0", "12a", "", String(MAX_ID + 1), "99999999999", null, 1.5])
      expect(positiveId(bad), String(bad)).toBeNull();
  });

  it("keeps the distinct ids among many, in order, up to a limit", () => {
    expect(positiveIds(["3", "x", "3", "5", "0", "9"], 2)).toEqual([3, 5]);
  });
});
