import { sql } from "kysely";
import { dialectOf } from "~/server/db/db.server";
import {
  isStorageKey,
  keyFor,
  newStorageKey,
  type AttachmentStore,
  type StoreDb,
  type StoredBlob,
} from "./attachments.server";

/** Bytes per row: a download reads one part at a time, so a 4 MB file never sits whole in memory. */
export const PART_SIZE = 256 * 1024;

/**
 * Blobs in the app's own database (table attachment_blobs), in parts of 256 KiB: written and removed in the
 * transaction of the attachment's row, so a backup of the database holds rows and bytes together and every
 * copy of the server serves every file. The default with PostgreSQL.
 */
export function databaseStore(appDb: StoreDb): AttachmentStore {
  const length = dialectOf(appDb) === "postgres" ? sql<number>`octet_length(bytes)` : sql<number>`length(bytes)`;

  async function write(db: StoreDb, key: string, data: Uint8Array) {
    const now = new Date().toISOString();
    const rows = [];
    for (let offset = 0, part = 0; offset < data.length || part === 0; offset += PART_SIZE, part++) {
      rows.push({
        storage_key: key,
        part,
        bytes: Buffer.from(data.subarray(offset, offset + PART_SIZE)),
        created_at: now,
      });
    }
    await db.insertInto("attachment_blobs").values(rows).execute();
  }

  return {
    kind: "database",
    transactional: true,
    async put(data, opts) {
      const key = keyFor(opts?.key);
      const db = opts?.db ?? appDb;
      if (db.isTransaction) await write(db, key, data);
      else await db.transaction().execute((trx) => write(trx, key, data));
      return key;
    },
    async open(key, opts) {
      if (!isStorageKey(key)) return null;
      const db = opts?.db ?? appDb;
      const parts = await db
        .selectFrom("attachment_blobs")
        .select(["part", length.as("size")])
        .where("storage_key", "=", key)
        .orderBy("part")
        .execute();
      if (parts.length === 0) return null;
      return {
        size: parts.reduce((sum, p) => sum + Number(p.size), 0),
        chunks: (async function* () {
          for (const { part } of parts) {
            const row = await db
              .selectFrom("attachment_blobs")
              .select("bytes")
              .where("storage_key", "=", key)
              .where("part", "=", part)
              .executeTakeFirst();
            if (!row) throw new Error(`Attachment ${key} lost part ${part} while it was read`);
            yield new Uint8Array(row.bytes);
          }
        })(),
      };
    },
    async delete(key, opts) {
      if (!isStorageKey(key)) return;
      await (opts?.db ?? appDb).deleteFrom("attachment_blobs").where("storage_key", "=", key).execute();
    },
    async *list(): AsyncIterable<StoredBlob> {
      let after = "";
      for (;;) {
        const rows = await appDb
          .selectFrom("attachment_blobs")
          .select(["storage_key", "created_at"])
          .where("part", "=", 0)
          .where("storage_key", ">", after)
          .orderBy("storage_key")
          .limit(500)
          .execute();
        for (const r of rows) yield { key: r.storage_key, writtenAt: new Date(r.created_at) };
        if (rows.length < 500) return;
        after = rows[rows.length - 1].storage_key;
      }
    },
    async check() {
      const key = newStorageKey();
      try {
        await write(appDb, key, Buffer.from("ready"));
        const row = await appDb
          .selectFrom("attachment_blobs")
          .select("bytes")
          .where("storage_key", "=", key)
          .executeTakeFirst();
        if (Buffer.from(row?.bytes ?? []).toString() !== "ready")
          throw new Error("The attachment store read back other bytes");
      } finally {
        await appDb.deleteFrom("attachment_blobs").where("storage_key", "=", key).execute();
      }
    },
    async close() {},
  };
}
