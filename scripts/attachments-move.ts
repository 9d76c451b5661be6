// Copies every attachment's bytes from one store to another and verifies each by checksum
// (docs/operations.md, "Moving attachments between stores"). Both stores are configured as for the server:
// ATTACHMENTS_DIR for file, DATABASE_URL (or the SQLite file) for database, S3_* for s3.
//   npm run attachments:move -- --from file --to database
import { parseArgs } from "node:util";
import { closeDb, getDb } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { getEnv } from "~/server/env.server";
import type { StoreKind } from "~/server/storage/attachments.server";
import { moveAttachments } from "~/server/storage/move.server";
import { attachmentStoreFor } from "~/server/storage/stores.server";

const kinds: StoreKind[] = ["file", "database", "s3"];
const { values } = parseArgs({ options: { from: { type: "string" }, to: { type: "string" } } });
const from = values.from as StoreKind;
const to = values.to as StoreKind;
if (!kinds.includes(from) || !kinds.includes(to) || from === to) {
  console.error(
    "Usage: npm run attachments:move -- --from file|database|s3 --to file|database|s3 (two different stores)",
  );
  process.exit(2);
}

const env = getEnv();
const db = getDb();
await migrateToLatest(db);
const source = attachmentStoreFor({ ...env, attachmentStore: from }, db);
const target = attachmentStoreFor({ ...env, attachmentStore: to }, db);
await target.check();
const report = await moveAttachments(db, source, target, (r) =>
  console.log(`${r.rows} attachments: ${r.copied} copied, ${r.present} already there`),
);
console.log(
  `Done: ${report.rows} attachments, ${report.copied} copied and verified, ${report.present} already in the ${to} store.`,
);
if (report.missing.length > 0)
  console.error(`Not in the ${from} store (nothing to copy), attachment ids: ${report.missing.join(", ")}`);
if (report.mismatched.length > 0)
  console.error(`Read back with another checksum, attachment ids: ${report.mismatched.join(", ")}`);
await Promise.all([source.close(), target.close()]);
await closeDb();
process.exit(report.missing.length > 0 || report.mismatched.length > 0 ? 1 : 0);
