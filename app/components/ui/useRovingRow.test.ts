import { describe, expect, it } from "vitest";
import { rowMove } from "./useRovingRow";

describe("rowMove", () => {
  it("moves right and left one control at a time, round the row's ends", () => {
    expect(rowMove("ArrowRight", 0, 3)).toBe(1);
    expect(rowMove("ArrowRight", 2, 3)).toBe(0);
    expect(rowMove("ArrowLeft", 1, 3)).toBe(0);
    expect(rowMove("ArrowLeft", 0, 3)).toBe(2);
  });
  it("goes to the first and the last control by Home and End", () => {
    expect(rowMove("Home", 2, 4)).toBe(0);
    expect(rowMove("End", 0, 4)).toBe(3);
  });
  it("leaves other keys, a control not of the row and an empty row alone", () => {
    expect(rowMove("ArrowDown", 0, 3)).toBeUndefined();
    expect(rowMove("Enter", 0, 3)).toBeUndefined();
    expect(rowMove("ArrowRight", -1, 3)).toBeUndefined();
    expect(rowMove("End", 0, 0)).toBeUndefined();
  });
});
