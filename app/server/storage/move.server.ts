import crypto from "node:crypto";
import type { DB } from "~/server/db/types.server";
import { blobChecksum, type AttachmentStore } from "./attachments.server";

export interface MoveReport {
  /** Attachment rows looked at. */
  rows: number;
  /** Blobs copied and verified by checksum in the target. */
  copied: number;
  /** Blobs the target held already with the same checksum (a move that was interrupted and run again). */
  present: number;
  /** Rows whose blob the source does not have: listed by attachment id, nothing to copy. */
  missing: number[];
  /** Rows whose copy read back with another checksum: listed by attachment id. */
  mismatched: number[];
}

/**
 * Copies the blob of every attachment row from one store to another under the same key, and reads each back
 * from the target to compare its SHA-256 with the source's. Running it again copies only what is not yet
 * there, so an interrupted move is finished by running it again. The source is left as it was.
 */
export async function moveAttachments(
  db: DB,
  from: AttachmentStore,
  to: AttachmentStore,
  onProgress: (report: MoveReport) => void = () => undefined,
): Promise<MoveReport> {
  const report: MoveReport = { rows: 0, copied: 0, present: 0, missing: [], mismatched: [] };
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("file_attachments")
      .select(["id", "storage_key"])
      .where("id", ">", after)
      .orderBy("id")
      .limit(200)
      .execute();
    for (const row of rows) {
      report.rows++;
      const body = await from.open(row.storage_key);
      if (!body) {
        report.missing.push(row.id);
        continue;
      }
      const hash = crypto.createHash("sha256");
      const parts: Uint8Array[] = [];
      for await (const chunk of body.chunks) {
        hash.update(chunk);
        parts.push(chunk);
      }
      const expected = hash.digest("hex");
      if ((await blobChecksum(to, row.storage_key)) === expected) {
        report.present++;
        continue;
      }
      await to.delete(row.storage_key);
      await to.put(Buffer.concat(parts), { key: row.storage_key });
      if ((await blobChecksum(to, row.storage_key)) === expected) report.copied++;
      else report.mismatched.push(row.id);
    }
    if (rows.length > 0) onProgress(report);
    if (rows.length < 200) return report;
    after = rows[rows.length - 1].id;
  }
}
