import "fake-indexeddb/auto";
import { entries } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import { lastPlace, rememberPlace } from "./last-category";
import { personStore } from "./sealed";
import { freshDatabases, switchHolder, testHolder } from "./test-support";

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

  it("is the holder's alone: another person of the device reads none, the holder again reads theirs", async () => {
    const first = await testHolder("a11ce", 1);
    switchHolder(first);
    await rememberPlace(7, "P-1", { page: "questionnaire", categoryId: 11 });
    switchHolder(testHolder("b0b", 2));
    expect(await lastPlace(7, "P-1")).toBeUndefined();
    await rememberPlace(7, "P-1", { page: "intro" });
    switchHolder(first);
    expect(await lastPlace(7, "P-1")).toEqual({ page: "questionnaire", categoryId: 11 });
    // Nothing of the case is readable in the store: its name is a keyed hash, its value sealed.
    const raw = await entries(personStore(first, "places"));
    expect(JSON.stringify(raw)).not.toMatch(/P-1|questionnaire/);
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
