import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { acceptsGzip, keepPlainTexts } from "./render.server";

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["gzip;q=0", false],
    ["identity", false],
    ["br", false],
    [null, false],
  ])("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});

describe("keepPlainTexts", () => {
  async function make() {
    const instance = createInstance();
    await instance.init({
      lng: "de",
      fallbackLng: "de",
      resources: {
        de: {
          common: { hello: "Hallo", greet: "Hallo {{name}}", items_one: "ein Stück", items_other: "{{count}} Stück" },
        },
        en: { common: { hello: "Hello" } },
      },
      defaultNS: "common",
      ns: ["common"],
      interpolation: { escapeValue: false },
    });
    return keepPlainTexts(instance);
  }

  it("answers plain texts as before, once worked out, and texts with values afresh every time", async () => {
    const i18n = await make();
    const t = i18n.getFixedT("de");
    expect(t("hello")).toBe("Hallo");
    expect(t("hello")).toBe("Hallo");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(t("greet", { name: "Bo" })).toBe("Hallo Bo");
    expect(t("items", { count: 1 })).toBe("ein Stück");
    expect(t("items", { count: 3 })).toBe("3 Stück");
    expect(t("missing.key")).toBe("missing.key");
    expect(t("missing.key", "Vorgabe")).toBe("Vorgabe");
  });

  it("keeps a text per language", async () => {
    const i18n = await make();
    expect(i18n.getFixedT("de")("hello")).toBe("Hallo");
    expect(i18n.getFixedT("en")("hello")).toBe("Hello");
    expect(i18n.getFixedT("de")("hello")).toBe("Hallo");
  });
});
