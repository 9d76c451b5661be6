import { Writable } from "node:stream";
import { createElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { addLocale, textsOf, type TFunction } from "~/i18n";
import { onMissingText } from "~/missing-texts";
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
  addLocale("xx-DE", {
    hello: "Hallo",
    greet: "Hallo {{name}}",
    items_one: "ein Stück",
    items_other: "{{count}} Stück",
  });
  addLocale("xx-GB", { hello: "Hello" });

  /** The texts of a language, kept, and counting the calls that reach the texts below. */
  function make(language = "xx-DE", count?: () => void): TFunction {
    const t = textsOf(language, "xx-DE");
    return keepTexts(count ? (key, values) => (count(), t(key, values)) : t);
  }

  it("answers texts as before, with and without values, once worked out", () => {
    const t = make();
    expect(t("hello")).toBe("Hallo");
    expect(t("hello")).toBe("Hallo");
    expect(t("greet", { name: "Ada" })).toBe("Hallo Ada");
    expect(t("greet", { name: "Bo" })).toBe("Hallo Bo");
    expect(t("items", { count: 1 })).toBe("ein Stück");
    expect(t("items", { count: 3 })).toBe("3 Stück");
    expect(t("missing.key", { defaultValue: "Vorgabe" })).toBe("Vorgabe");
  });

  it("asks for a missing text afresh each time, so that every page lacking it reports it", () => {
    const missing: string[] = [];
    onMissingText((_locale, key) => void missing.push(key));
    const t = make();
    expect(t("nowhere")).toBe("nowhere");
    expect(t("nowhere")).toBe("nowhere");
    expect(t("hello")).toBe("Hallo");
    expect(missing).toEqual(["nowhere", "nowhere"]);
  });

  it("keeps a text by its values and their types", () => {
    let calls = 0;
    const t = make("xx-DE", () => calls++);
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

  it("keeps a text per language, and a language's missing texts are its fallback's", () => {
    expect(make("xx-DE")("hello")).toBe("Hallo");
    expect(make("xx-GB")("hello")).toBe("Hello");
    expect(make("xx-GB")("greet", { name: "Ada" })).toBe("Hallo Ada");
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
