import { afterAll, beforeAll } from "vitest";
import type { StoreKind } from "~/server/storage/attachments.server";
import { dialects, type DialectName } from "./databases";
import { startTestS3, type TestS3 } from "./s3";

/**
 * The attachment stores the attachment tests run against, each over a database it is used with: the file
 * store (SQLite's default), the database store on both databases (PostgreSQL's default), and an S3-compatible
 * server on loopback through the AWS SDK.
 */
export interface StoreSetup {
  name: string;
  db: DialectName;
  store: StoreKind;
}

const postgres = dialects.includes("postgres");

export const storeSetups: StoreSetup[] = [
  { name: "file store on sqlite", db: "sqlite", store: "file" },
  { name: "database store on sqlite", db: "sqlite", store: "database" },
  ...(postgres
    ? ([
        { name: "database store on postgres", db: "postgres", store: "database" },
        { name: "s3 store on postgres", db: "postgres", store: "s3" },
      ] as const)
    : ([{ name: "s3 store on sqlite", db: "sqlite", store: "s3" }] as const)),
];

/**
 * For one describe block: the environment that selects the setup's store (starting the object store server
 * for s3), and the server itself for tests that stop it.
 */
export function useStoreEnv(setup: StoreSetup): { env: () => Record<string, string>; s3: () => TestS3 | null } {
  let s3: TestS3 | null = null;
  beforeAll(async () => {
    if (setup.store === "s3") s3 = await startTestS3();
  });
  afterAll(async () => {
    await s3?.close();
  });
  return {
    env: (): Record<string, string> => {
      if (setup.store !== "s3") return { ATTACHMENT_STORE: setup.store };
      const s = s3!.settings;
      return {
        ATTACHMENT_STORE: "s3",
        S3_BUCKET: s.bucket,
        S3_REGION: s.region,
        S3_ENDPOINT: s.endpoint!,
        S3_FORCE_PATH_STYLE: "true",
        S3_PREFIX: s.prefix,
        S3_ACCESS_KEY_ID: s.credentials!.accessKeyId,
        S3_SECRET_ACCESS_KEY: s.credentials!.secretAccessKey,
      };
    },
    s3: () => s3,
  };
}
