import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve("locales");
const locales = fs.readdirSync(dir).filter((d) => fs.statSync(path.join(dir, d)).isDirectory());

function flatten(value: unknown, prefix = ""): string[] {
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

function keysOf(locale: string) {
  const keys = new Map<string, string>();
  for (const file of fs.readdirSync(path.join(dir, locale)).filter((f) => f.endsWith(".json"))) {
    const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, locale, file), "utf8"));
    for (const key of flatten(json)) keys.set(`${file}:${key}`, key);
  }
  return keys;
}

describe("locales", () => {
  it("German and English exist", () => {
    expect(locales.sort()).toEqual(["de-DE", "en-US"]);
  });

  it("every key of one locale exists in the other", () => {
    const [de, en] = [keysOf("de-DE"), keysOf("en-US")];
    expect([...de.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !de.has(k))).toEqual([]);
  });

  it("no text is empty and interpolations match", () => {
    for (const locale of locales) {
      for (const file of fs.readdirSync(path.join(dir, locale))) {
        const json: unknown = JSON.parse(fs.readFileSync(path.join(dir, locale, file), "utf8"));
        const walk = (v: unknown, at: string): void => {
          if (typeof v === "string") expect(v.trim(), `${locale}/${file}:${at}`).not.toBe("");
          else if (v && typeof v === "object") for (const [k, c] of Object.entries(v)) walk(c, `${at}.${k}`);
        };
        walk(json, "");
      }
    }
    const vars = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    const read = (l: string) => JSON.parse(fs.readFileSync(path.join(dir, l, "common.json"), "utf8")) as unknown;
    const get = (obj: unknown, key: string) =>
      key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], obj);
    const de = read("de-DE");
    const en = read("en-US");
    for (const key of flatten(de)) {
      const a = get(de, key);
      const b = get(en, key);
      if (typeof a === "string" && typeof b === "string") expect(vars(b), key).toEqual(vars(a));
    }
  });
});
