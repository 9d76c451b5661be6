import { describe, expect, it } from "vitest";
import { hyphenParts } from "./hyphenate";

const shown = (text: string) => hyphenParts(text).join("-");

describe("hyphenate", () => {
  it("breaks long words at syllables", () => {
    expect(shown("Dokumentation")).toBe("Do-ku-men-ta-tion");
    expect(shown("Wundverlauf")).toBe("Wund-ver-lauf");
    expect(shown("Verlaufsbogen")).toBe("Ver-laufs-bo-gen");
    expect(shown("Herzinsuffizienz")).toBe("Her-zin-suf-fi-zienz");
  });

  it("keeps ch, ck, sch and vowel pairs together, and short words and ends whole", () => {
    expect(shown("Wundverlaufsdokumentation")).toBe("Wund-ver-laufs-do-ku-men-ta-tion");
    expect(shown("Krankenhausaufenthalt")).toBe("Kran-ken-hau-sau-fent-halt");
    expect(shown("Sprechstunde")).toBe("Sprech-stunde");
    expect(shown("Zuckerkrankheit")).toBe("Zu-cker-krank-heit");
    expect(shown("Blutdruckmessung")).toBe("Blut-druck-mes-sung");
    expect(shown("Wundverlauf – Dokumentation (Station B)")).toBe("Wund-ver-lauf – Do-ku-men-ta-tion (Station B)");
    expect(shown("Heute")).toBe("Heute");
  });

  it("changes nothing but where a line may break", () => {
    const text = "Patientenzufriedenheitsbefragung 2026, Station 3a";
    expect(hyphenParts(text).join("")).toBe(text);
    expect(hyphenParts("Kurz und gut")).toEqual(["Kurz und gut"]);
  });
});
