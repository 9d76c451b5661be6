import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Attachment blobs on the local disk, under the configured attachments folder. Each blob is named by a
 * random key made here; a person's file name never becomes part of a path.
 */
export interface AttachmentStore {
  /** Stores the bytes and returns the new blob's key. */
  put(data: Uint8Array): Promise<string>;
  /** The bytes of a blob; null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes a blob; a missing one is no error. */
  delete(key: string): Promise<void>;
  /** Throws unless a blob can be written, read back and removed right now (for readiness). */
  check(): Promise<void>;
}

const KEY = /^[0-9a-f]{32}$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

export function attachmentStore(dir: string): AttachmentStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    if (!isStorageKey(key)) throw new Error("Not an attachment storage key");
    return path.join(root, key.slice(0, 2), key);
  };

  return {
    async put(data) {
      const key = crypto.randomBytes(16).toString("hex");
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written under a temporary name and renamed, so a reader never sees half a file.
      const temp = `${file}.${crypto.randomBytes(4).toString("hex")}.part`;
      try {
        await fs.writeFile(temp, data, { flag: "wx", mode: 0o600 });
        await fs.rename(temp, file);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw error;
      }
      return key;
    },
    async get(key) {
      if (!isStorageKey(key)) return null;
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return;
      await fs.rm(fileOf(key), { force: true });
    },
    async check() {
      await fs.mkdir(root, { recursive: true });
      const probe = path.join(root, `.ready-${crypto.randomBytes(6).toString("hex")}`);
      try {
        await fs.writeFile(probe, "ready", { flag: "wx", mode: 0o600 });
        if ((await fs.readFile(probe, "utf8")) !== "ready")
          throw new Error("The attachment store read back other bytes");
      } finally {
        await fs.rm(probe, { force: true });
      }
    },
  };
}
