import { describe, expect, it } from "vitest";
import { stataString } from "./script-do.server";
import { rString } from "./script-r.server";
import { spssString } from "./script-sps.server";
import { cutLabel } from "./variables.server";

describe("labels and strings for the statistics scripts", () => {
  it("cuts a label between characters, by UTF-8 bytes for SPSS and characters for Stata", () => {
    expect(cutLabel("Größe", { bytes: 3 })).toBe("Gr");
    expect(cutLabel("Größe", { bytes: 4 })).toBe("Grö");
    expect(cutLabel("Herz 🫀 Takt", { bytes: 7 })).toBe("Herz ");
    expect(cutLabel("Herz 🫀 Takt", { chars: 6 })).toBe("Herz 🫀");
    expect(cutLabel("eine\r\nzweite\tZeile", { chars: 80 })).toBe("eine zweite Zeile");
    expect(cutLabel("kurz", { bytes: 255 })).toBe("kurz");
  });

  it("writes R strings in ASCII, every other character escaped", () => {
    expect(rString('Ödem "groß" \\ 🫀')).toBe('"\\u00d6dem \\"gro\\u00df\\" \\\\ \\U{1fac0}"');
    expect(rString("a\nb")).toBe('"a\\nb"');
  });

  it("quotes SPSS strings by doubling the apostrophe, without line breaks", () => {
    expect(spssString("Patient's\r\nBefund")).toBe("'Patient''s Befund'");
  });

  it("keeps macros out of Stata strings", () => {
    expect(stataString('Preis in $ und `x\' "zitiert"')).toBe('`"Preis in \\$ und \\`x\' "zitiert""\'');
  });
});
