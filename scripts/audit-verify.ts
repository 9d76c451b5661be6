// Checks the hash chains of the audit log (docs/decisions/027-audit-chain.md, docs/operations.md, "Verifying
// the audit log") in the database the server uses (DATABASE_URL, else DATA_DIR/survey.sqlite): one line per
// chain, exit code 1 when a chain is broken. It only reads; the schema is the running server's (migration 0011).
//   npm run audit:verify -- --all
//   npm run audit:verify -- --survey 12
import { parseArgs } from "node:util";
import { closeDb, getDb } from "~/server/db/db.server";
import { chainKeys, verifyStoredChain } from "~/server/services/audit-verify.server";

const { values } = parseArgs({ options: { survey: { type: "string" }, all: { type: "boolean" } } });
if (
  Boolean(values.all) === (values.survey !== undefined) ||
  (values.survey !== undefined && !/^\d+$/.test(values.survey))
) {
  console.error("Usage: npm run audit:verify -- --survey <id> | --all");
  process.exit(2);
}
const db = getDb();
let broken = 0;
try {
  const keys = values.all ? await chainKeys(db) : [values.survey!];
  for (const key of keys) {
    const verdict = await verifyStoredChain(db, key);
    const name = key === "global" ? "global" : `survey ${key}`;
    if (verdict.ok) {
      const erased = "erased" in verdict && verdict.erased ? `, ${verdict.erased} of them erased` : "";
      console.log(`${name}: ok, ${verdict.rows} rows${erased}`);
    } else {
      broken += 1;
      const bad = verdict.firstBad;
      const signed = "patientId" in bad ? `: the signed case ${bad.patientId ?? `#${bad.patientDataId}`} changed` : "";
      console.log(`${name}: BROKEN at row ${bad.id} (${bad.kind}${signed}), ${verdict.rows} rows`);
    }
  }
  if (keys.length === 0) console.log("No audit rows.");
} finally {
  await closeDb();
}
process.exitCode = broken > 0 ? 1 : 0;
