import type { DB } from "~/server/db/types.server";
import type { AttachmentStore, StoredBlob } from "./attachments.server";

/** Blobs younger than this are left alone: their upload may still be on its way to committing its row. */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/**
 * Removes blobs that no attachment row names and that are older than the grace period: left by an upload
 * whose transaction failed, or by rows removed with their survey or case. Returns how many were removed.
 */
export async function sweepOrphans(
  db: DB,
  store: AttachmentStore,
  opts: { now?: Date; graceMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const cutoff = (opts.now ?? new Date()).getTime() - (opts.graceMs ?? ORPHAN_GRACE_MS);
  let removed = 0;
  let batch: StoredBlob[] = [];
  const flush = async () => {
    const old = batch.filter((b) => b.writtenAt !== null && b.writtenAt.getTime() < cutoff);
    batch = [];
    if (old.length === 0) return;
    const named = await db
      .selectFrom("file_attachments")
      .select("storage_key")
      .where(
        "storage_key",
        "in",
        old.map((b) => b.key),
      )
      .execute();
    const kept = new Set(named.map((r) => r.storage_key));
    for (const blob of old) {
      if (kept.has(blob.key)) continue;
      await store.delete(blob.key);
      removed++;
    }
  };
  for await (const blob of store.list()) {
    // Told to stop (the server stopping): what is left waits for the next round.
    if (opts.signal?.aborted) return removed;
    batch.push(blob);
    if (batch.length >= 200) await flush();
  }
  await flush();
  return removed;
}
