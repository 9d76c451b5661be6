import { describe, expect, it } from "vitest";
import { canToggle, parseTarget, sameIds, toggleId } from "./fields";

describe("targeted results", () => {
  it("accepts whole numbers from 0 to 9999", () => {
    expect(parseTarget("0")).toBe(0);
    expect(parseTarget(" 250 ")).toBe(250);
    expect(parseTarget("9999")).toBe(9999);
    expect(parseTarget("0042")).toBe(42);
  });

  it("refuses numbers outside the range and anything else", () => {
    for (const bad of ["10000", "-1", "", " ", "1.5", "1e3", "abc", "12a", "+5"]) {
      expect(parseTarget(bad), bad).toBeNull();
    }
  });
});

describe("id lists", () => {
  it("adds and removes ids, sorted and each once", () => {
    expect(toggleId([3, 1], 2, true)).toEqual([1, 2, 3]);
    expect(toggleId([1, 2], 2, true)).toEqual([1, 2]);
    expect(toggleId([1, 2, 3], 2, false)).toEqual([1, 3]);
    expect(toggleId([], 5, false)).toEqual([]);
  });

  it("compares without order", () => {
    expect(sameIds([2, 1], [1, 2])).toBe(true);
    expect(sameIds([1], [1, 2])).toBe(false);
    expect(sameIds([], [])).toBe(true);
  });

  it("lets a disabled team only be removed", () => {
    expect(canToggle({ Disabled: false }, false)).toBe(true);
    expect(canToggle({ Disabled: true }, false)).toBe(false);
    expect(canToggle({ Disabled: true }, true)).toBe(true);
    expect(canToggle({}, false)).toBe(true);
  });
});
