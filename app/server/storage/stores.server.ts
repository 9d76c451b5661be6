import type { Env } from "~/server/env.server";
import { guarded, type AttachmentStore, type StoreDb, type StoreKind } from "./attachments.server";
import { databaseStore } from "./database-store.server";
import { fileStore } from "./file-store.server";

/**
 * The store the configuration names, over the app's database, guarded. The object store's SDK is loaded
 * on first use, so a server on another store never loads it.
 */
export function attachmentStoreFor(env: Env, db: StoreDb): AttachmentStore {
  switch (env.attachmentStore) {
    case "file":
      return guarded(fileStore(env.attachmentsDir));
    case "database":
      return guarded(databaseStore(db));
    case "s3": {
      const settings = env.s3;
      if (!settings) throw new Error("ATTACHMENT_STORE=s3 needs S3_BUCKET");
      return guarded(deferred("s3", false, () => import("./s3-store.server").then((m) => m.s3Store(settings))));
    }
  }
}

/** A store whose making waits for its first use. */
function deferred(kind: StoreKind, transactional: boolean, make: () => Promise<AttachmentStore>): AttachmentStore {
  let made: Promise<AttachmentStore> | undefined;
  const store = () => (made ??= make());
  return {
    kind,
    transactional,
    put: async (data, opts) => (await store()).put(data, opts),
    open: async (key, opts) => (await store()).open(key, opts),
    delete: async (key, opts) => (await store()).delete(key, opts),
    async *list() {
      yield* (await store()).list();
    },
    check: async () => (await store()).check(),
    close: async () => (made ? (await made).close() : undefined),
  };
}
