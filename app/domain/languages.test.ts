import { describe, expect, it } from "vitest";
import { preferredContentLanguage } from "./languages";

describe("preferredContentLanguage", () => {
  it("takes the first language asked for that content is offered in", () => {
    expect(preferredContentLanguage("ar")).toBe("ar");
    expect(preferredContentLanguage("tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7")).toBe("tr");
    expect(preferredContentLanguage("fr-FR,fr;q=0.9,ru;q=0.8,de;q=0.7")).toBe("ru");
  });

  it("goes by weight, then by order", () => {
    expect(preferredContentLanguage("en;q=0.5,uk;q=0.9")).toBe("uk");
    expect(preferredContentLanguage("pl;q=0.8,ru;q=0.8")).toBe("pl");
    expect(preferredContentLanguage("AR-eg")).toBe("ar");
  });

  it("is German for none, a language not offered, a refused one or a header that makes no sense", () => {
    expect(preferredContentLanguage(undefined)).toBe("de");
    expect(preferredContentLanguage("")).toBe("de");
    expect(preferredContentLanguage("*")).toBe("de");
    expect(preferredContentLanguage("fr,es;q=0.5")).toBe("de");
    expect(preferredContentLanguage("tr;q=0,fr")).toBe("de");
    expect(preferredContentLanguage(";;;,q=,tr;q=abc")).toBe("de");
  });
});
