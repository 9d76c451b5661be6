import type { DB } from "~/server/db/types.server";
import type { Kysely, Transaction } from "kysely";
import { prepared } from "~/server/db/prepared.server";
import type { Database } from "~/server/db/types.server";

export interface Actor {
  userId: number | null;
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

/** Appends one row to the audit log: who, when, what, before and after. Use inside the write's transaction. */
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

export async function audit(db: Executor, actor: Actor, entry: AuditEntry): Promise<void> {
  await insertAudit.affected(
    db,
    new Date().toISOString(),
    actor.userId,
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
