import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { isStorageKey, keyFor, type AttachmentStore, type StoredBlob } from "./attachments.server";

/**
 * Blobs as files under one folder (ATTACHMENTS_DIR): the embedded default with SQLite. Each blob is
 * DIR/<first two characters of the key>/<key>, written under a temporary name and renamed, so a reader
 * never sees half a file.
 */
export function fileStore(dir: string): AttachmentStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => path.join(root, key.slice(0, 2), key);

  return {
    kind: "file",
    transactional: false,
    async put(data, opts) {
      const key = keyFor(opts?.key);
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
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
    async open(key) {
      if (!isStorageKey(key)) return null;
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(fileOf(key), "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
      try {
        const { size } = await handle.stat();
        // The stream closes the handle when it ends or is abandoned.
        return { size, chunks: handle.createReadStream({ highWaterMark: 256 * 1024 }) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return;
      await fs.rm(fileOf(key), { force: true });
    },
    async *list(): AsyncIterable<StoredBlob> {
      let folders: string[];
      try {
        folders = await fs.readdir(root);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const folder of folders.sort()) {
        if (!/^[0-9a-f]{2}$/.test(folder)) continue;
        for (const name of (await fs.readdir(path.join(root, folder))).sort()) {
          if (!isStorageKey(name) || !name.startsWith(folder)) continue;
          const stat = await fs.stat(path.join(root, folder, name)).catch(() => null);
          if (stat) yield { key: name, writtenAt: stat.mtime };
        }
      }
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
    async close() {},
  };
}
