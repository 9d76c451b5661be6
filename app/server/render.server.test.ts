import { Writable } from "node:stream";
import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  acceptsGzip,
  formKeysOf,
  keepTexts,
  pageKey,
  readChunks,
  RenderedPages,
  streamOf,
  withoutUnusedBytes,
} from "./render.server";

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

describe("keepTexts", () => {
  async function make(missing: string[] = [], count?: () => void) {
    const instance = createInstance();
    await instance.init({
      saveMissing: true,
      saveMissingTo: "current",
      missingKeyHandler: (_lngs, _ns, key) => void missing.push(key),
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
    if (count) {
      // Counts the calls that reach i18next.
      const translate = instance.t.bind(instance) as unknown as (...args: unknown[]) => unknown;
      instance.t = ((...args: unknown[]) => (count(), translate(...args))) as unknown as typeof instance.t;
    }
    return keepTexts(instance);
  }

  it("answers texts as before, with and without values, once worked out", async () => {
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

  it("asks for a missing text afresh each time, so that every page lacking it reports it", async () => {
    const missing: string[] = [];
    const t = (await make(missing)).getFixedT("de");
    expect(t("nowhere")).toBe("nowhere");
    expect(t("nowhere")).toBe("nowhere");
    expect(t("hello")).toBe("Hallo");
    expect(missing).toEqual(["nowhere", "nowhere"]);
  });

  it("keeps a text by its values, their types and its other options", async () => {
    let calls = 0;
    const t = (await make([], () => calls++)).getFixedT("de");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(calls).toBe(1);
    expect(t("greet", { name: "Bo" })).toBe("Hallo Bo");
    expect(t("greet", { name: 7 })).toBe("Hallo 7");
    expect(t("greet", { name: "7" })).toBe("Hallo 7");
    expect(t("items", { count: 1 })).toBe("ein Stück");
    expect(t("items", { count: 3 })).toBe("3 Stück");
    expect(t("items", { count: 3 })).toBe("3 Stück");
    expect(calls).toBe(6);
    // A value that is no plain value, and a default text, are asked for every time.
    const named = { toString: () => "Ada" };
    expect(t("greet", { name: named })).toBe("Hallo Ada");
    expect(t("greet", { name: named })).toBe("Hallo Ada");
    expect(t("hello", { defaultValue: "Vorgabe" })).toBe("Hallo");
    expect(t("hello", { defaultValue: "Vorgabe" })).toBe("Hallo");
    expect(calls).toBe(10);
  });

  it("keeps the texts of a component's t, which names its namespaces as a list", async () => {
    let calls = 0;
    const i18n = await make([], () => calls++);
    const t = i18n.getFixedT("de", ["common"]);
    expect(t("hello")).toBe("Hallo");
    expect(t("hello")).toBe("Hallo");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(calls).toBe(2);
    expect(i18n.getFixedT("en", ["common"])("hello")).toBe("Hello");
  });

  it("keeps a text per language", async () => {
    const i18n = await make();
    expect(i18n.getFixedT("de")("hello")).toBe("Hallo");
    expect(i18n.getFixedT("en")("hello")).toBe("Hello");
    expect(i18n.getFixedT("de")("hello")).toBe("Hallo");
  });
});

describe("RenderedPages", () => {
  const nonce = "n0nce+/n0nce+/n0nce+/==";
  const formKey = "0123456789abcdef0123456789abcdef";
  const page = (n: string, k: string) =>
    Buffer.from(`<script nonce="${n}">x</script><input name="formKey" value="${k}"/><p>${k}</p><b nonce="${n}">ä</b>`);

  it("gives a page back with the next request's nonce and form key in their places", () => {
    const pages = new RenderedPages(1_000_000);
    pages.set("k", page(nonce, formKey), [nonce, formKey]);
    const next = ["Zm9vYmFyYmF6cXV4cXV1eA==", "fedcba9876543210fedcba9876543210"];
    expect(pages.get("k", next)?.toString()).toBe(page(next[0]!, next[1]!).toString());
    expect(pages.get("other", next)).toBeUndefined();
  });

  it("keeps nothing for values short enough to stand in a page by chance", () => {
    const pages = new RenderedPages(1_000_000);
    pages.set("k", page("abc", formKey), ["abc", formKey]);
    expect(pages.count).toBe(0);
  });

  it("lets the least recently used pages go when over its size, and keeps none larger than a quarter", () => {
    const one = page(nonce, formKey);
    const pages = new RenderedPages(one.length * 4);
    for (const key of ["a", "b", "c", "d"]) pages.set(key, one, [nonce, formKey]);
    expect(pages.count).toBe(4);
    pages.get("a", [nonce, formKey]);
    pages.set("e", one, [nonce, formKey]);
    expect(pages.count).toBe(4);
    expect(pages.get("b", [nonce, formKey])).toBeUndefined();
    expect(pages.get("a", [nonce, formKey])).toBeDefined();
    pages.set("big", Buffer.concat([one, one]), [nonce, formKey]);
    expect(pages.get("big", [nonce, formKey])).toBeUndefined();
  });
});

describe("pageKey", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  const formKey = "0123456789abcdef0123456789abcdef";

  it("is the same for the same inputs and data whatever the form key", () => {
    const a = pageKey(["de", "/surveys"], [bytes(`["formKey","${formKey}"]\n`)], [formKey]);
    const other = "fedcba9876543210fedcba9876543210";
    expect(pageKey(["de", "/surveys"], [bytes(`["formKey","${other}"]\n`)], [other])).toBe(a);
  });

  it("differs when the language, the address or any byte of the data differs, or the pieces run differently", () => {
    const key = (inputs: string[], chunks: string[]) => pageKey(inputs, chunks.map(bytes), []);
    const base = key(["de", "/surveys"], ["[1,2]\n", "P1:3\n"]);
    expect(key(["en", "/surveys"], ["[1,2]\n", "P1:3\n"])).not.toBe(base);
    expect(key(["de", "/surveys?q=a"], ["[1,2]\n", "P1:3\n"])).not.toBe(base);
    expect(key(["de", "/surveys"], ["[1,3]\n", "P1:3\n"])).not.toBe(base);
    expect(key(["de", "/surveys"], ["[1,2]\nP1:3\n"])).not.toBe(base);
    expect(key(["de/", "surveys"], ["[1,2]\n", "P1:3\n"])).not.toBe(base);
  });
});

describe("formKeysOf", () => {
  it("finds each route's form key", () => {
    expect(
      formKeysOf({ root: { user: "a" }, "routes/surveys": { formKey: "k1" }, x: null, y: { formKey: 3 } }),
    ).toEqual(["k1"]);
  });
});

describe("readChunks and streamOf", () => {
  it("give the same pieces again", async () => {
    const pieces = [new Uint8Array([1, 2]), new Uint8Array([3])];
    const read = await readChunks(streamOf(pieces));
    expect(read).toEqual(pieces);
  });
});

describe("withoutUnusedBytes", () => {
  /** The page as the renderer writes it, each piece through withoutUnusedBytes or as it came. */
  async function rendered(element: ReturnType<typeof createElement>, trim: boolean): Promise<Buffer> {
    const pieces: Uint8Array[] = [];
    await new Promise<void>((done) => {
      const { pipe } = renderToPipeableStream(element, {
        onAllReady() {
          pipe(
            new Writable({
              write(piece: Uint8Array, _encoding, next) {
                pieces.push(trim ? withoutUnusedBytes(piece) : piece);
                next();
              },
              final(next) {
                done();
                next();
              },
            }),
          );
        },
      });
    });
    return Buffer.concat(pieces);
  }

  it("leaves out the NUL React's renderer leaves where a character of two bytes did not fit", async () => {
    // Five letters before 400 "ß" put one of them across the end of the first 2,048-byte piece.
    const element = createElement(
      "div",
      null,
      "a".repeat(5),
      ...Array.from({ length: 400 }, (_, i) => createElement("b", { key: i }, "ß")),
    );
    expect((await rendered(element, false)).includes(0)).toBe(true);
    const html = await rendered(element, true);
    expect(html.includes(0)).toBe(false);
    expect(html.toString()).toBe(renderToString(element));
  });

  it("leaves every other piece as it is", () => {
    const piece = new Uint8Array(2048).fill(97);
    expect(withoutUnusedBytes(piece)).toBe(piece);
    const short = new Uint8Array([97, 0]);
    expect(withoutUnusedBytes(short)).toBe(short);
  });
});
