// Carries erasures across a restore (docs/operations.md, "Backups and restore"; docs/decisions/042): the
// tombstones of the database the server uses, as JSON lines without patient ids or values, and their
// erasures applied again to a restored database. ERASURE_KEY must be the one the tombstones were made with.
//   npm run erasures:export > tombstones.jsonl
//   npm run erasures:reapply -- tombstones.jsonl
import fs from "node:fs";
import { closeDb, getDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { exportTombstones, reapplyErasures, TombstoneSchema } from "~/server/services/erasure/reapply.server";
import { attachmentStoreFor } from "~/server/storage/stores.server";

const [command, file] = process.argv.slice(2);
if (command !== "export" && !(command === "reapply" && file)) {
  console.error("Usage: npm run erasures:export | npm run erasures:reapply -- <tombstones.jsonl>");
  process.exit(2);
}
const db = getDb();
const env = getEnv();
const store = attachmentStoreFor(env, db);
try {
  if (command === "export") {
    for (const tombstone of await exportTombstones(db)) console.log(JSON.stringify(tombstone));
  } else {
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    const tombstones = lines.map((line) => TombstoneSchema.parse(JSON.parse(line)));
    const erased = await reapplyErasures(db, store, erasureKey(env), tombstones);
    console.log(`${tombstones.length} tombstones read, ${erased} cases erased again.`);
  }
} finally {
  await store.close();
  await closeDb();
}
