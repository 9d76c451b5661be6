import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OFFLINE_ASSET_LIST } from "~/offline/sw-constants";

const client = path.resolve("build/client");

describe("the build's list of files kept for offline use", () => {
  it("names only files the build holds, the lazy chunks and styles among them", () => {
    const listed = JSON.parse(fs.readFileSync(path.join(client, OFFLINE_ASSET_LIST), "utf8")) as string[];
    const missing = listed.filter((file) => !fs.existsSync(path.join(client, file)));
    expect(missing).toEqual([]);
    // The Remix manifest module (the page adds it, sw.client.ts) and the server build's styles are written
    // by the server build, after the list.
    const built = fs
      .readdirSync(path.join(client, "assets"))
      .filter((f) => /\.(js|css)$/.test(f) && !/^(manifest-|server-build-)/.test(f));
    expect(listed.filter((f) => /\.(js|css)$/.test(f)).sort()).toEqual(built.map((f) => `/assets/${f}`).sort());
  });
});
