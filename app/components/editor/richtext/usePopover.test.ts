import { describe, expect, it } from "vitest";
import { shiftIntoView } from "./usePopover";

describe("shiftIntoView", () => {
  it("moves a panel that passes the right edge back onto the screen, keeping 8 px", () => {
    expect(shiftIntoView({ left: 250, right: 470 }, 390)).toBe(-88);
  });
  it("moves one that passes the left edge to the right, and leaves one that fits", () => {
    expect(shiftIntoView({ left: -20, right: 200 }, 390)).toBe(28);
    expect(shiftIntoView({ left: 10, right: 300 }, 390)).toBe(0);
  });
  it("keeps the left edge in view when the panel is wider than the screen", () => {
    expect(shiftIntoView({ left: 100, right: 600 }, 390)).toBe(-92);
  });
});
