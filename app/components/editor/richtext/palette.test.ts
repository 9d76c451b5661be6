import { describe, expect, it } from "vitest";
import { sanitizeRichText } from "~/server/services/rich-text.server";
import { FONT_FAMILIES, FONT_SIZES, fontFamilyOption } from "./options";
import de from "../../../../locales/de-DE/authoring.json";
import en from "../../../../locales/en-US/authoring.json";
import { colourWords, PALETTE, PALETTE_COLUMNS, paletteMove, sameColour } from "./palette";

describe("editor colour palette", () => {
  it("has 60 unique colours in 10 columns", () => {
    expect(PALETTE_COLUMNS).toBe(10);
    expect(PALETTE).toHaveLength(60);
    expect(new Set(PALETTE.map((c) => c.toLowerCase())).size).toBe(60);
    for (const colour of PALETTE) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("names every colour in words, each name once, in German and English", () => {
    for (const texts of [de.richText, en.richText]) {
      const words = texts.colours as Record<string, string>;
      const names = PALETTE.map((_, index) => {
        const { hue, shade } = colourWords(index);
        expect(words[hue], hue).toBeTruthy();
        if (shade) expect(words[shade], shade).toBeTruthy();
        return shade ? texts.colourName.replace("{{hue}}", words[hue]).replace("{{shade}}", words[shade]) : words[hue];
      });
      expect(new Set(names).size).toBe(60);
    }
    const german = (hex: string) => {
      const { hue, shade } = colourWords(PALETTE.indexOf(hex));
      const words = de.richText.colours as Record<string, string>;
      return shade ? `${words[hue]}, ${words[shade]}` : words[hue];
    };
    expect(german("#ffffff")).toBe("Weiß");
    expect(german("#d9d9d9")).toBe("Grau, sehr hell");
    expect(german("#000000")).toBe("Schwarz");
    expect(german("#fccfcf")).toBe("Rot, sehr hell");
    expect(german("#d41111")).toBe("Rot, kräftig");
    expect(german("#0c3a97")).toBe("Blau, dunkel");
    expect(german("#5e0841")).toBe("Pink, sehr dunkel");
  });

  it("keeps every colour, font and size through the server's rich-text filter", () => {
    for (const colour of PALETTE) {
      const html = `<p><span style="color: ${colour}; background-color: ${colour}">x</span></p>`;
      expect(sanitizeRichText(html)).toContain(`color:${colour}`);
      expect(sanitizeRichText(html)).toContain(`background-color:${colour}`);
    }
    for (const size of FONT_SIZES) {
      expect(sanitizeRichText(`<p><span style="font-size: ${size}">x</span></p>`)).toContain(`font-size:${size}`);
    }
    for (const { value } of FONT_FAMILIES) {
      const kept = sanitizeRichText(`<p><span style="font-family: ${value}">x</span></p>`);
      expect(kept).toContain("font-family:");
      const style = /style="([^"]*)"/.exec(kept)?.[1] ?? "";
      expect(fontFamilyOption(style.replace(/^font-family:/, ""))).toBe(value);
    }
  });

  it("moves through the grid with the arrow keys and stops at the edges", () => {
    expect(paletteMove(0, "ArrowRight")).toBe(1);
    expect(paletteMove(9, "ArrowRight")).toBe(9);
    expect(paletteMove(10, "ArrowLeft")).toBe(10);
    expect(paletteMove(11, "ArrowLeft")).toBe(10);
    expect(paletteMove(3, "ArrowDown")).toBe(13);
    expect(paletteMove(53, "ArrowDown")).toBe(53);
    expect(paletteMove(13, "ArrowUp")).toBe(3);
    expect(paletteMove(3, "ArrowUp")).toBe(3);
    expect(paletteMove(17, "Home")).toBe(10);
    expect(paletteMove(12, "End")).toBe(19);
    expect(paletteMove(12, "Enter")).toBe(12);
  });

  it("compares colours without case or notation", () => {
    expect(sameColour("#C00000", "#c00000 ")).toBe(true);
    expect(sameColour(null, "#c00000")).toBe(false);
    expect(sameColour("rgb(212, 17, 17)", "#d41111")).toBe(true);
    expect(sameColour("#d41111", "rgb(212, 17, 18)")).toBe(false);
  });
});

describe("font names", () => {
  it("matches a value the browser gave back with quotes", () => {
    expect(fontFamilyOption('"Times New Roman", Times, serif')).toBe("Times New Roman, Times, serif");
    expect(fontFamilyOption("Comic Sans MS")).toBe("");
    expect(fontFamilyOption(null)).toBe("");
  });
});
