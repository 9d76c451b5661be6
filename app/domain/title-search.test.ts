import { describe, expect, it } from "vitest";
import { titleMatches } from "./title-search";

describe("the title search", () => {
  it("finds the typed text anywhere, whatever its case and the spaces around it", () => {
    expect(titleMatches("Herzinsuffizienz – Verlaufsbogen", "  verlauf ")).toBe(true);
    expect(titleMatches("ÄRZTLICHE Aufnahme", "ärztliche")).toBe(true);
    expect(titleMatches("Sturzrisiko", "Herz")).toBe(false);
    expect(titleMatches("Sturzrisiko", "   ")).toBe(true);
    expect(titleMatches("Sturzrisiko", null)).toBe(true);
  });
});
