import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Settings } from "~/server/storage/s3-store.server";

/** The credentials the S3-compatible test server accepts; any other key is refused (403). */
export const S3_TEST_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export interface TestS3 {
  /** Settings of a store in the test server's bucket. */
  settings: S3Settings;
  /** The same bucket with credentials the server refuses. */
  refusing: S3Settings;
  /** Stops the server (a store that is down); start() brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An S3-compatible object store on loopback (s3rver), driven by the app through the real AWS SDK: a bucket
 * in a temporary folder, removed on close.
 */
export async function startTestS3(bucket = "attachments"): Promise<TestS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "survey-s3-"));
  let port = 0;
  let server: S3rver | null = null;
  const start = async () => {
    server = new S3rver({
      port,
      address: "127.0.0.1",
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    port = (await server.run()).port;
  };
  await start();
  const settings: S3Settings = {
    bucket,
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    prefix: "survey/",
    credentials: S3_TEST_CREDENTIALS,
    timeoutSeconds: 5,
  };
  const stop = async () => {
    await server?.close();
    server = null;
  };
  return {
    settings,
    refusing: { ...settings, credentials: { accessKeyId: "SOMEONE", secretAccessKey: "ELSE" } },
    stop,
    start,
    async close() {
      await stop();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
