import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { AppError } from "~/domain/errors";
import type { Database } from "~/server/db/types.server";
import { log } from "~/server/log.server";
import { attachmentStoreErrors } from "~/server/metrics.server";

/**
 * Where the bytes of uploaded files live (docs/decisions/021-attachment-stores.md): one interface, three
 * stores chosen by ATTACHMENT_STORE. A blob is named by a random key made here; a person's file name never
 * becomes part of a path or an object key. The rows that describe a file (file_attachments) are always in
 * the database; only the bytes move.
 */
export type StoreKind = "file" | "database" | "s3";

/** The database, or a transaction in it: the database store writes in the caller's transaction. */
export type StoreDb = Kysely<Database>;

export interface BlobBody {
  size: number;
  /** The bytes, piece by piece: no store holds a whole file in memory to serve it. */
  chunks: AsyncIterable<Uint8Array>;
}

export interface StoredBlob {
  key: string;
  /** When the blob was written, where the store knows it (for sweeping orphans); null when it does not. */
  writtenAt: Date | null;
}

export interface AttachmentStore {
  readonly kind: StoreKind;
  /**
   * True when put and delete take part in the database transaction they are given (the database store):
   * the row and its bytes commit or roll back together. Otherwise the bytes are written before the row
   * commits and removed after it is deleted; blobs left by a failed write are swept later.
   */
  readonly transactional: boolean;
  /** Stores the bytes and returns the new blob's key (or stores them under the given key, for moves). */
  put(data: Uint8Array, opts?: { db?: StoreDb; key?: string }): Promise<string>;
  /** The blob's bytes as a stream; null when there is none. */
  open(key: string, opts?: { db?: StoreDb }): Promise<BlobBody | null>;
  /** Removes a blob; a missing one is no error. */
  delete(key: string, opts?: { db?: StoreDb }): Promise<void>;
  /** Every blob in the store (for moving between stores and sweeping orphans). */
  list(): AsyncIterable<StoredBlob>;
  /** Throws unless a blob can be written, read back and removed right now (for readiness). */
  check(): Promise<void>;
  /** Lets go of connections the store holds. */
  close(): Promise<void>;
}

const KEY = /^[0-9a-f]{32}$/;

export function isStorageKey(key: string): boolean {
  return KEY.test(key);
}

export function newStorageKey(): string {
  return crypto.randomBytes(16).toString("hex");
}

/** The key a put uses: the one given (checked), or a new one. */
export function keyFor(given: string | undefined): string {
  if (given === undefined) return newStorageKey();
  if (!isStorageKey(given)) throw new AppError("VALIDATION_ERROR", "Not an attachment storage key");
  return given;
}

/** A whole blob in memory: for checks, moves and tests, never for serving a download. */
export async function readBlob(store: AttachmentStore, key: string, opts?: { db?: StoreDb }): Promise<Buffer | null> {
  const body = await store.open(key, opts);
  if (!body) return null;
  const parts: Uint8Array[] = [];
  for await (const chunk of body.chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

/** The SHA-256 of a blob, read as a stream; null when there is none. */
export async function blobChecksum(store: AttachmentStore, key: string): Promise<string | null> {
  const body = await store.open(key);
  if (!body) return null;
  const hash = crypto.createHash("sha256");
  for await (const chunk of body.chunks) hash.update(chunk);
  return hash.digest("hex");
}

/**
 * The store's own failures (a folder that cannot be written, an object store that is down or refuses the
 * credentials) reach the caller as 503 with the error envelope, and the cause goes to the log. A missing
 * blob is not a failure: open answers null.
 */
export function guarded(store: AttachmentStore): AttachmentStore {
  const fail = (operation: string) => (error: unknown) => {
    if (error instanceof AppError) throw error;
    attachmentStoreErrors.inc({ store: store.kind, operation });
    log.error("attachments.unavailable", { store: store.kind, operation, error: String(error) });
    throw new AppError("SERVICE_UNAVAILABLE", "The attachment store cannot be reached");
  };
  return {
    kind: store.kind,
    transactional: store.transactional,
    put: (data, opts) => store.put(data, opts).catch(fail("put")),
    async open(key, opts) {
      const body = await store.open(key, opts).catch(fail("open"));
      if (!body) return null;
      const chunks = body.chunks;
      return {
        size: body.size,
        chunks: (async function* () {
          try {
            yield* chunks;
          } catch (error) {
            fail("read")(error);
          }
        })(),
      };
    },
    delete: (key, opts) => store.delete(key, opts).catch(fail("delete")),
    list: () => store.list(),
    check: () => store.check(),
    close: () => store.close(),
  };
}

/** A blob's pieces as a web stream for a response: read as the client takes them, closed if it goes away. */
export function blobStream(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value instanceof Uint8Array ? next.value : new Uint8Array(next.value));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
