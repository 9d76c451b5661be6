import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import {
  blobChecksum,
  guarded,
  readBlob,
  type AttachmentStore,
  type StoredBlob,
} from "~/server/storage/attachments.server";
import { databaseStore, PART_SIZE } from "~/server/storage/database-store.server";
import { fileStore } from "~/server/storage/file-store.server";
import { s3Store } from "~/server/storage/s3-store.server";
import { openTestDb, type TestDb } from "../support/databases";
import { startTestS3, type TestS3 } from "../support/s3";
import { storeSetups } from "../support/stores";

/** A file as large as an upload may be: 4,000,000 bytes that are not all alike. */
const LARGE = crypto.randomBytes(4_000_000);

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe.each(storeSetups)("the $name", (setup) => {
  let store: AttachmentStore;
  let testDb: TestDb | null = null;
  let s3: TestS3 | null = null;
  let dir = "";

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-"));
    if (setup.store === "file") store = guarded(fileStore(dir));
    if (setup.store === "database") {
      testDb = await openTestDb(setup.db);
      store = guarded(databaseStore(testDb.db));
    }
    if (setup.store === "s3") {
      s3 = await startTestS3();
      store = guarded(s3Store(s3.settings));
    }
  });
  afterAll(async () => {
    await store?.close();
    await s3?.close();
    await testDb?.cleanup();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("puts, opens, lists and deletes blobs by random key; foreign keys are refused", async () => {
    const key = await store.put(Buffer.from("Befund"));
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect((await readBlob(store, key))!.toString()).toBe("Befund");
    expect(await store.put(Buffer.from("Befund"))).not.toBe(key);
    expect(await store.open("../../etc/passwd")).toBeNull();
    expect(await store.open("0".repeat(32))).toBeNull();
    await expect(store.put(Buffer.from("x"), { key: "../escape" })).rejects.toThrow();
    const listed: StoredBlob[] = await all(store.list());
    expect(listed.map((b) => b.key)).toContain(key);
    expect(listed.find((b) => b.key === key)!.writtenAt!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await store.delete(key);
    await store.delete(key);
    expect(await store.open(key)).toBeNull();
    expect((await all(store.list())).map((b) => b.key)).not.toContain(key);
  });

  it("keeps a 4 MB file byte for byte and serves it in pieces, never whole", async () => {
    const key = await store.put(LARGE);
    const body = (await store.open(key))!;
    expect(body.size).toBe(LARGE.length);
    const pieces = await all(body.chunks);
    expect(pieces.length).toBeGreaterThan(1);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.concat(pieces).equals(LARGE)).toBe(true);
    expect(await blobChecksum(store, key)).toBe(crypto.createHash("sha256").update(LARGE).digest("hex"));
    const empty = await store.put(new Uint8Array(0));
    expect((await readBlob(store, empty))!.length).toBe(0);
  });

  it("stores under a given key, as a move between stores does", async () => {
    const key = crypto.randomBytes(16).toString("hex");
    expect(await store.put(Buffer.from("moved"), { key })).toBe(key);
    expect((await readBlob(store, key))!.toString()).toBe("moved");
  });

  it("passes its readiness check, leaving nothing behind", async () => {
    const before = (await all(store.list())).length;
    await store.check();
    expect((await all(store.list())).length).toBe(before);
  });

  if (setup.store === "database") {
    it("writes in the caller's transaction: a rolled-back upload leaves no bytes", async () => {
      const db = testDb!.db;
      let key = "";
      await expect(
        db.transaction().execute(async (trx) => {
          key = await store.put(LARGE, { db: trx });
          expect((await readBlob(store, key, { db: trx }))!.length).toBe(LARGE.length);
          throw new Error("the row's insert failed");
        }),
      ).rejects.toThrow("the row's insert failed");
      expect(await store.open(key)).toBeNull();
      const parts = await db.selectFrom("attachment_blobs").select("part").where("storage_key", "=", key).execute();
      expect(parts).toEqual([]);
      // Committed, a 4 MB file is 16 parts of at most 256 KiB.
      const kept = await store.put(LARGE);
      const rows = await db.selectFrom("attachment_blobs").select("part").where("storage_key", "=", kept).execute();
      expect(rows).toHaveLength(Math.ceil(LARGE.length / PART_SIZE));
    });
  }
});

describe("stores that fail", () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3.close();
  });

  const unavailable = (promise: Promise<unknown>) =>
    expect(promise).rejects.toSatisfy((e) => e instanceof AppError && e.type === "SERVICE_UNAVAILABLE");

  it("an object store that refuses the credentials: 503 for writes and reads, and not ready", async () => {
    const store = guarded(s3Store(s3.refusing));
    await unavailable(store.put(Buffer.from("x")));
    await unavailable(store.open("0".repeat(32)));
    await expect(store.check()).rejects.toThrow();
    await store.close();
  });

  it("an object store that is down: 503, not ready; back up, it works again without a restart", async () => {
    const store = guarded(s3Store(s3.settings));
    const key = await store.put(Buffer.from("vorher"));
    await s3.stop();
    await unavailable(store.put(Buffer.from("x")));
    await unavailable(store.open(key));
    await unavailable(store.delete(key));
    await expect(store.check()).rejects.toThrow();
    await s3.start();
    await store.check();
    expect((await readBlob(store, key))!.toString()).toBe("vorher");
    await store.close();
  });

  it("a folder that cannot be written: 503 and not ready", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "store-"));
    const blocked = path.join(dir, "a-file");
    await fs.writeFile(blocked, "not a folder");
    const store = guarded(fileStore(blocked));
    await unavailable(store.put(Buffer.from("x")));
    await expect(store.check()).rejects.toThrow();
    await fs.rm(dir, { recursive: true, force: true });
  });
});
