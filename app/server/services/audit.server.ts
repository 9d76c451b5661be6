import type { DB } from "~/server/db/types.server";
import type { Kysely, Transaction } from "kysely";
import { prepared } from "~/server/db/prepared.server";
import type { Database } from "~/server/db/types.server";

export interface Actor {
  surveyUserDataId: number | null;
  sub: string | null;
}

export interface AuditEntry {
  action: string;
  entity: string;
  entityId?: string | number | null;
  surveyId?: number | null;
  patientDataId?: number | null;
  before?: unknown;
  after?: unknown;
}

type Executor = DB | Kysely<Database> | Transaction<Database>;

const insertAudit = prepared<
  [
    string,
    number | null,
    string | null,
    string,
    string,
    string | null,
    number | null,
    number | null,
    string | null,
    string | null,
  ],
  never
>((db, $) =>
  db.insertInto("audit_log").values({
    at: $(0),
    actor_user_id: $(1),
    actor_sub: $(2),
    action: $(3),
    entity: $(4),
    entity_id: $(5),
    survey_id: $(6),
    patient_data_id: $(7),
    before: $(8),
    after: $(9),
  }),
);

/** Appends one row to the audit log: who, when, what, before and after. Use inside the write's transaction. */
export async function audit(db: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertAudit.affected(
    db,
    new Date().toISOString(),
    actor.surveyUserDataId,
    actor.sub,
    entry.action,
    entry.entity,
    entry.entityId == null ? null : String(entry.entityId),
    entry.surveyId ?? null,
    entry.patientDataId ?? null,
    entry.before === undefined ? null : JSON.stringify(entry.before),
    entry.after === undefined ? null : JSON.stringify(entry.after),
  );
}

/** Appends several rows to the audit log in one statement, in the order given. */
export async function auditAll(db: Executor, actor: Actor, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const at = new Date().toISOString();
  await db
    .insertInto("audit_log")
    .values(
      entries.map((entry) => ({
        at,
        actor_user_id: actor.surveyUserDataId,
        actor_sub: actor.sub,
        action: entry.action,
        entity: entry.entity,
        entity_id: entry.entityId == null ? null : String(entry.entityId),
        survey_id: entry.surveyId ?? null,
        patient_data_id: entry.patientDataId ?? null,
        before: entry.before === undefined ? null : JSON.stringify(entry.before),
        after: entry.after === undefined ? null : JSON.stringify(entry.after),
      })),
    )
    .execute();
}
