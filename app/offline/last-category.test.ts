import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { lastCategory, rememberCategory } from "./last-category";
import { freshDatabases } from "./test-support";

describe("the last chosen category of a case", () => {
  beforeEach(() => freshDatabases());

  it("is kept per survey and patient, the latest choice winning", async () => {
    expect(await lastCategory(7, "P-1")).toBeUndefined();
    await rememberCategory(7, "P-1", 11);
    await rememberCategory(7, "P-1", 12);
    await rememberCategory(7, "P-2", 13);
    await rememberCategory(8, "P-1", 14);
    expect(await lastCategory(7, "P-1")).toBe(12);
    expect(await lastCategory(7, "P-2")).toBe(13);
    expect(await lastCategory(8, "P-1")).toBe(14);
    expect(await lastCategory(8, "P-2")).toBeUndefined();
  });

  it("reads as none, and writes nothing, when the browser refuses storage", async () => {
    globalThis.indexedDB = {
      open: () => {
        throw new DOMException("refused", "SecurityError");
      },
    } as unknown as IDBFactory;
    await expect(rememberCategory(7, "P-1", 11)).resolves.toBeUndefined();
    await expect(lastCategory(7, "P-1")).resolves.toBeUndefined();
  });
});
