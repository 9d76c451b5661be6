// A copy of the server erasing one case and stopped before its commit (tests/server/faults-erasure.test.ts):
// it erases through the service with the store the environment selects, says "paused" once everything but the
// commit is done, and waits there until it is killed.
//   tsx tests/server/erase-child.ts <caseId> <surveyId> <patientId> [<SQLite file>]
import path from "node:path";
import { createDb } from "~/server/db/db.server";
import { getEnv } from "~/server/env.server";
import { eraseCase } from "~/server/services/erasure/erase.server";
import { erasureKey } from "~/server/services/erasure/keys.server";
import { attachmentStoreFor } from "~/server/storage/stores.server";

const [caseId, surveyId, patientId, sqliteFile] = process.argv.slice(2);
const env = getEnv();
const db = sqliteFile
  ? createDb({ dataDir: path.dirname(sqliteFile), filename: path.basename(sqliteFile) })
  : createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
const store = attachmentStoreFor(env, db);
await eraseCase(
  db,
  store,
  erasureKey(env),
  { surveyUserDataId: null, sub: "fault-test" },
  { caseId: Number(caseId), surveyId: Number(surveyId), patientId, reason: "consent" },
  {
    beforeCommit: async () => {
      process.stdout.write("paused\n");
      await new Promise(() => undefined);
    },
  },
);
