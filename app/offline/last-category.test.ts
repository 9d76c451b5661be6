import "fake-indexeddb/auto";
import { set, createStore } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import { lastPlace, rememberPlace } from "./last-category";
import { freshDatabases } from "./test-support";

describe("where a case was left on this device", () => {
  beforeEach(() => freshDatabases());

  it("is kept per survey and patient, the latest place winning", async () => {
    expect(await lastPlace(7, "P-1")).toBeUndefined();
    await rememberPlace(7, "P-1", { page: "questionnaire", categoryId: 11 });
    await rememberPlace(7, "P-1", { page: "questionnaire", categoryId: 12 });
    await rememberPlace(7, "P-2", { page: "preliminary" });
    await rememberPlace(8, "P-1", { page: "questionnaire", categoryId: 14 });
    expect(await lastPlace(7, "P-1")).toEqual({ page: "questionnaire", categoryId: 12 });
    expect(await lastPlace(7, "P-2")).toEqual({ page: "preliminary" });
    expect(await lastPlace(8, "P-1")).toEqual({ page: "questionnaire", categoryId: 14 });
    expect(await lastPlace(8, "P-2")).toBeUndefined();
  });

  it("reads a category kept alone by an earlier version", async () => {
    await set("7:P-1", 11, createStore("fill-places", "categories"));
    expect(await lastPlace(7, "P-1")).toEqual({ categoryId: 11 });
  });

  it("reads as none, and writes nothing, when the browser refuses storage", async () => {
    globalThis.indexedDB = {
      open: () => {
        throw new DOMException("refused", "SecurityError");
      },
    } as unknown as IDBFactory;
    await expect(rememberPlace(7, "P-1", { page: "intro" })).resolves.toBeUndefined();
    await expect(lastPlace(7, "P-1")).resolves.toBeUndefined();
  });
});
