import "fake-indexeddb/auto";
import { beforeEach, describe, expect, it } from "vitest";
import { getEntry, recordClose } from "./fill-store";
import { keepPickedFiles, type PickedFile } from "./pick-files";
import { syncEntry } from "./sync-client";
import { ctx, freshDatabases, json, scriptedFetch } from "./test-support";

beforeEach(freshDatabases);

const photo = (n: number, name = "image.jpg"): PickedFile => {
  const bytes = new Uint8Array([0xff, 0xd8, 0xff, n]);
  return { name, size: bytes.length, type: "image/jpeg", arrayBuffer: async () => bytes.buffer };
};
const q = { Id: 1, AllowFileAttachments: true };

describe("files picked offline", () => {
  it("keeps a camera's photos, all named image.jpg, under free names, and syncs them under those", async () => {
    const first = await keepPickedFiles(ctx("P1"), q, [], [photo(1), photo(2)]);
    expect(first.files.map((f) => f.name)).toEqual(["image.jpg", "image (2).jpg"]);
    const second = await keepPickedFiles(ctx("P1"), q, first.files, [photo(3)]);
    expect(second.files.map((f) => f.name)).toEqual(["image.jpg", "image (2).jpg", "image (3).jpg"]);
    expect(second.refused).toEqual([]);
    // Each kept with its own bytes: none replaced another.
    const kept = (await getEntry(7, "P1"))!.upload.files[1]!;
    expect(kept.map((f) => new Uint8Array(f.bytes)[3])).toEqual([1, 2, 3]);

    await recordClose(ctx("P1"));
    const uploaded = () => json(200, { Results: [{ Uploaded: true }] });
    const { fetch, calls } = scriptedFetch([
      () => json(200, { Data: 42 }),
      uploaded,
      uploaded,
      uploaded,
      () => new Response(null, { status: 204 }),
    ]);
    expect(await syncEntry(7, "P1", { fetch })).toBe("synced");
    const names = calls
      .filter((c) => c.url.includes("/file-attachments/upload"))
      .map((c) => ((c.init.body as FormData).get("files") as File).name);
    expect(names).toEqual(["image.jpg", "image (2).jpg", "image (3).jpg"]);
  });

  it("refuses what the server would, by the same rules: a type, a sixth file", async () => {
    const exe: PickedFile = { name: "setup.exe", size: 2, type: "", arrayBuffer: async () => new ArrayBuffer(2) };
    const picked = await keepPickedFiles(ctx("P2"), q, [], [exe, ...[1, 2, 3, 4, 5, 6].map((n) => photo(n))]);
    expect(picked.files).toHaveLength(5);
    expect(picked.refused).toEqual([
      { name: "setup.exe", key: "SURVEY_ATTACHMENTS_EXTENSTION_UNALLOWED" },
      { name: "image (6).jpg", key: "SURVEY_ATTACHMENTS_TOO_MANY" },
    ]);
  });
});
