import { describe, expect, it } from "vitest";
import { documentBuild, staleCaches, staleEntries, type KeptDocument } from "./sw-cleanup";
import { ASSET_CACHE, pageCache } from "./sw-constants";

describe("staleCaches", () => {
  it("deletes the offline layer's caches of earlier versions, keeps the current ones", () => {
    const pages = [pageCache("a11ce"), pageCache("b0b")];
    expect(staleCaches(["offline-assets-v0", ASSET_CACHE, ...pages, "offline-pages-v1", "offline-shells-v1"])).toEqual([
      "offline-assets-v0",
      "offline-pages-v1",
      "offline-shells-v1",
    ]);
  });

  it("leaves caches that are not the offline layer's", () => {
    expect(staleCaches(["other-cache", "workbox-precache", ASSET_CACHE])).toEqual([]);
  });
});

describe("documentBuild", () => {
  it("names the build by the manifest module the document loads", () => {
    const html =
      '<link rel="modulepreload" href="/assets/manifest-7f3a6ff2.js"/><script>import "/assets/manifest-7f3a6ff2.js";</script>';
    expect(documentBuild(html)).toBe("/assets/manifest-7f3a6ff2.js");
  });

  it("is null for a document that names none", () => {
    expect(documentBuild("<html><body>offline</body></html>")).toBeNull();
  });
});

const OLD = "/assets/manifest-0ld00000.js";
const NEW = "/assets/manifest-9e900000.js";
const build = [NEW, "/assets/entry.client-B.js", "/assets/app-B.css", "/favicon.svg", "/offline-assets.json"];
const cached = [
  "https://app.test/assets/entry.client-A.js",
  "https://app.test/assets/entry.client-B.js",
  "https://app.test/assets/app-B.css?v=1",
  "https://app.test/assets/app-A.css",
  `https://app.test${OLD}`,
  `https://app.test${NEW}`,
  "https://app.test/favicon.svg",
];
const doc = (key: string, built: string | null): KeptDocument => ({ key, build: built });

describe("staleEntries", () => {
  it("once every kept fill document is of this build, deletes the assets of earlier builds", () => {
    const documents = [doc("/surveys", NEW), doc("/survey/4", NEW), doc("/__offline-shell/4", NEW)];
    expect(staleEntries({ assets: cached, documents, build })).toEqual({
      assets: [
        "https://app.test/assets/entry.client-A.js",
        "https://app.test/assets/app-A.css",
        `https://app.test${OLD}`,
      ],
      documents: [],
    });
  });

  it("deletes nothing while a kept fill document, its start page or the list is of an earlier build", () => {
    for (const documents of [
      [doc("/surveys", NEW), doc("/survey/4", NEW), doc("/__offline-shell/4", OLD)],
      [doc("/surveys", NEW), doc("/survey/4", OLD), doc("/__offline-shell/4", NEW)],
      [doc("/surveys", OLD), doc("/survey/4", NEW), doc("/__offline-shell/4", NEW)],
      // A document whose build cannot be told may need any file.
      [doc("/surveys", NEW), doc("/__offline-shell/4", null)],
    ]) {
      expect(staleEntries({ assets: cached, documents, build })).toEqual({ assets: [], documents: [] });
    }
  });

  it("deletes nothing when the build's files are unknown", () => {
    const documents = [doc("/surveys", NEW)];
    expect(staleEntries({ assets: cached, documents, build: null })).toEqual({ assets: [], documents: [] });
    expect(staleEntries({ assets: cached, documents, build: [] })).toEqual({ assets: [], documents: [] });
  });

  it("with the assets, deletes other kept documents of earlier builds, whose files are going", () => {
    const documents = [
      doc("/surveys", NEW),
      doc("/__offline-shell/4", NEW),
      doc("/survey/4", NEW),
      doc("/survey/9", OLD), // a start page opened online, of a survey not kept for offline use
      doc("/survey-archives", OLD),
      doc("/survey/10", NEW),
      doc("/survey/11", null),
    ];
    expect(staleEntries({ assets: cached, documents, build }).documents).toEqual([
      "/survey/9",
      "/survey-archives",
      "/survey/11",
    ]);
  });

  it("an empty page cache holds nothing back", () => {
    expect(staleEntries({ assets: cached, documents: [], build }).assets).toHaveLength(3);
  });

  it("keeps every file of the current build, also when the cache key has a query", () => {
    const stale = staleEntries({ assets: cached, documents: [doc("/surveys", NEW)], build });
    expect(stale.assets).not.toContain("https://app.test/assets/app-B.css?v=1");
    expect(stale.assets).not.toContain(`https://app.test${NEW}`);
    expect(stale.assets).not.toContain("https://app.test/favicon.svg");
  });
});
