// What the audit chain (docs/decisions/027-audit-chain.md) adds to an audited write: the same small write
// transactions (group commits on SQLite, a transaction each on PostgreSQL, 100 in flight) once with a bare
// insert into audit_log, as before the chain, and once through audit(), which locks the chain's head,
// hashes the row and moves the head. The writes go to BENCH_SURVEYS surveys (3 by default: the worst case,
// since one survey's writers queue behind its head), alternately, three rounds each.
// Usage: npx tsx bench/audit-write.ts   (BENCH_DIALECTS=sqlite,postgres; BENCH_WRITES per round)
import { writeTransaction } from "~/server/db/group-commit.server";
import type { DB } from "~/server/db/types.server";
import { audit, type Actor, type AuditEntry } from "~/server/services/audit.server";
import { dialects, openBenchDatabase } from "./database";

const SURVEYS = Number(process.env.BENCH_SURVEYS ?? 3);
const IN_FLIGHT = 100;
const actor: Actor = { surveyUserDataId: 1, sub: "bench" };

const entry = (i: number): AuditEntry => ({
  action: "response.record",
  entity: "question_response",
  entityId: i,
  surveyId: 1 + (i % SURVEYS),
  patientDataId: i,
  before: { answer: null },
  after: { answer: { AnswerOptionIds: [i] } },
});

/** The insert audit() made before the chain. */
async function bareInsert(db: DB, i: number) {
  const e = entry(i);
  await db
    .insertInto("audit_log")
    .values({
      at: new Date().toISOString(),
      actor_user_id: actor.surveyUserDataId,
      actor_sub: actor.sub,
      action: e.action,
      entity: e.entity,
      entity_id: String(e.entityId),
      survey_id: e.surveyId,
      patient_data_id: e.patientDataId,
      before: JSON.stringify(e.before),
      after: JSON.stringify(e.after),
    })
    .execute();
}

async function microsPerWrite(db: DB, writes: number, write: (trx: DB, i: number) => Promise<void>) {
  const start = process.hrtime.bigint();
  for (let k = 0; k < writes; k += IN_FLIGHT) {
    await Promise.all(
      Array.from({ length: Math.min(IN_FLIGHT, writes - k) }, (_, j) =>
        writeTransaction(db, (trx) => write(trx, k + j)),
      ),
    );
  }
  return Number(process.hrtime.bigint() - start) / 1000 / writes;
}

for (const kind of dialects) {
  const writes = Number(process.env.BENCH_WRITES ?? (kind === "sqlite" ? 20_000 : 3_000));
  const { db, cleanup } = await openBenchDatabase(kind, "bench-audit");
  try {
    const rows: { round: number; "bare insert, µs/write": string; "chained audit(), µs/write": string }[] = [];
    for (let round = 1; round <= 3; round++) {
      const bare = await microsPerWrite(db, writes, bareInsert);
      const chained = await microsPerWrite(db, writes, (trx, i) => audit(trx, actor, entry(i)));
      rows.push({
        round,
        "bare insert, µs/write": bare.toFixed(1),
        "chained audit(), µs/write": chained.toFixed(1),
      });
    }
    console.log(`${kind}: ${writes} audited writes per round across ${SURVEYS} surveys, ${IN_FLIGHT} in flight`);
    console.table(rows);
  } finally {
    await cleanup();
  }
}
