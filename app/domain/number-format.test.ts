import { describe, expect, it } from "vitest";
import { formatNumber } from "./number-format";

describe("formatNumber", () => {
  it("writes a decimal comma in German and a point in English", () => {
    expect(formatNumber(1.5, "de-DE")).toBe("1,5");
    expect(formatNumber(1.5, "en-US")).toBe("1.5");
    expect(formatNumber(1234.567, "de-DE")).toBe("1.234,57");
    expect(formatNumber(1234.567, "en-US")).toBe("1,234.57");
  });
  it("keeps at most the digits asked for, or exactly that many when fixed", () => {
    expect(formatNumber(2, "de-DE")).toBe("2");
    expect(formatNumber(0.125, "de-DE", 1)).toBe("0,1");
    expect(formatNumber(75, "de-DE", 2, true)).toBe("75,00");
  });
});
