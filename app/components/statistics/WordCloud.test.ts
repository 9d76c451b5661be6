import { describe, expect, it } from "vitest";
import { bandOf, CLOUD_BANDS } from "./WordCloud";

describe("word cloud bands", () => {
  it("spreads counts over 9 bands, the rarest in band 0 and the most frequent in band 8", () => {
    expect(CLOUD_BANDS).toBe(9);
    expect(bandOf(1, 1, 10)).toBe(0);
    expect(bandOf(10, 1, 10)).toBe(8);
    expect(bandOf(5, 1, 10)).toBe(4);
    const bands = Array.from({ length: 100 }, (_, i) => bandOf(i + 1, 1, 100));
    expect(new Set(bands).size).toBe(9);
    expect([...bands].sort((a, b) => a - b)).toEqual(bands);
  });
  it("puts every word in the top band when all counts are equal", () => {
    expect(bandOf(3, 3, 3)).toBe(8);
  });
});
