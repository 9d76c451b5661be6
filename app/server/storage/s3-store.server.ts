import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { isStorageKey, keyFor, newStorageKey, type AttachmentStore, type StoredBlob } from "./attachments.server";

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible server's address; unset for AWS itself. */
  endpoint?: string;
  /** Addresses objects as endpoint/bucket/key rather than bucket.endpoint/key (most S3-compatible servers). */
  forcePathStyle: boolean;
  /** Prepended to every object key, so one bucket can hold more than this app's files. */
  prefix: string;
  /** Unset: the SDK's own chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Seconds before a request to the store is given up (default 30). */
  timeoutSeconds?: number;
}

/**
 * Blobs as objects in an S3-compatible store, through the AWS SDK for JavaScript v3. An object is written
 * before its row commits; objects whose row never committed are swept later (sweepOrphans).
 */
export function s3Store(settings: S3Settings): AttachmentStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Checksums only where the API requires them: S3-compatible servers differ in which they accept.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: 2,
    requestHandler: { requestTimeout: (settings.timeoutSeconds ?? 30) * 1000, connectionTimeout: 5000 },
  });
  const Bucket = settings.bucket;
  const objectKey = (key: string) => `${settings.prefix}${key}`;
  const missing = (error: unknown) =>
    error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);

  const store: AttachmentStore = {
    kind: "s3",
    transactional: false,
    async put(data, opts) {
      const key = keyFor(opts?.key);
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: objectKey(key),
          Body: data,
          ContentLength: data.length,
          ContentType: "application/octet-stream",
        }),
      );
      return key;
    },
    async open(key) {
      if (!isStorageKey(key)) return null;
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        const body = answer.Body as Readable | undefined;
        if (!body) return null;
        return { size: answer.ContentLength ?? 0, chunks: body };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return;
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }));
    },
    async *list(): AsyncIterable<StoredBlob> {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: settings.prefix || undefined, ContinuationToken }),
        );
        for (const object of page.Contents ?? []) {
          const key = (object.Key ?? "").slice(settings.prefix.length);
          if (isStorageKey(key)) yield { key, writtenAt: object.LastModified ?? null };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    async check() {
      const key = newStorageKey();
      try {
        await store.put(Buffer.from("ready"), { key });
        const body = await store.open(key);
        const parts: Uint8Array[] = [];
        for await (const chunk of body?.chunks ?? []) parts.push(chunk);
        if (Buffer.concat(parts).toString() !== "ready") throw new Error("The attachment store read back other bytes");
      } finally {
        await store.delete(key).catch(() => undefined);
      }
    },
    async close() {
      client.destroy();
    },
  };
  return store;
}
