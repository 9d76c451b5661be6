import crypto from "node:crypto";
import type { Context } from "hono";
import { AppError } from "~/domain/errors";
import { IdempotencyKeySchema } from "~/domain/offline-sync";
import { isUniqueViolation } from "~/server/db/db.server";
import { asDatabase } from "~/server/db/nested.server";
import type { DB } from "~/server/db/types.server";
import { bodyBytes } from "./body.server";
import type { ApiDeps, Caller } from "./types.server";

/**
 * Writes that create something accept an Idempotency-Key (docs/decisions/018). The first request with a key
 * runs in one transaction together with the record of its answer; a repeat (the answer was lost to a proxy
 * timeout or a killed copy, a double click, a resubmitted form) finds that record and gets the same answer
 * without writing again. A repeat that arrives while the first still runs waits for it (the record's row is
 * locked until the first commits). A key reused for a different request is refused with 422. A refusal
 * (an error thrown by the handler) is not kept: its writes are undone, so a retry may try again.
 */

export const IDEMPOTENCY_HEADER_NAME = "idempotency-key";
/** How long a first answer is kept for its repeats. */
export const IDEMPOTENT_KEEP_MS = 24 * 60 * 60 * 1000;

/**
 * sha256 of what makes the request this request: method, path, query and body. A multipart body counts by
 * its fields and files, not its bytes: a browser sending the same form again picks another boundary.
 */
async function fingerprint(c: Context): Promise<string> {
  const url = new URL(c.req.url);
  const query = [...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const hash = crypto.createHash("sha256").update(`${c.req.method}\n${url.pathname}\n${JSON.stringify(query)}\n`);
  const bytes = await bodyBytes(c);
  const type = c.req.header("content-type") ?? "";
  const form = type.toLowerCase().startsWith("multipart/form-data")
    ? await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": type } })
        .formData()
        .catch(() => null)
    : null;
  if (!form) return hash.update(bytes).digest("hex");
  for (const [name, value] of form) {
    hash.update(`\n${name}\n`);
    if (typeof value === "string") hash.update(value);
    else hash.update(`${value.name}\n`).update(new Uint8Array(await value.arrayBuffer()));
  }
  return hash.digest("hex");
}

function replay(row: { status: number; content_type: string | null; body: string }): Response {
  const headers = new Headers({ "Idempotent-Replayed": "true", "Cache-Control": "no-store" });
  if (row.content_type) headers.set("Content-Type", row.content_type);
  return new Response(row.status === 204 ? null : row.body, { status: row.status, headers });
}

async function stored(db: DB, surveyUserDataId: number, key: string, hash: string): Promise<Response> {
  const row = await db
    .selectFrom("idempotent_requests")
    .select(["request_hash", "status", "content_type", "body"])
    .where("user_id", "=", surveyUserDataId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  if (!row) throw new AppError("SERVICE_UNAVAILABLE", "The first request with this Idempotency-Key did not finish");
  if (row.request_hash !== hash) {
    throw new AppError("IDEMPOTENCY_KEY_REUSED", "This Idempotency-Key was already used for another request");
  }
  return replay(row);
}

/**
 * Runs a write once per Idempotency-Key of the caller: `run` gets the request's transaction as its database
 * and answers the response to keep.
 */
export async function idempotent(
  c: Context,
  deps: ApiDeps,
  caller: Caller,
  rawKey: string,
  run: (deps: ApiDeps) => Promise<Response>,
): Promise<Response> {
  const parsed = IdempotencyKeySchema.safeParse(rawKey);
  if (!parsed.success) {
    throw new AppError("VALIDATION_ERROR", `header.Idempotency-Key: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  }
  const key = parsed.data;
  const hash = await fingerprint(c);
  try {
    return await deps.db.transaction().execute(async (trx) => {
      // Taken first: a concurrent repeat waits here until this transaction ends.
      const claim = await trx
        .insertInto("idempotent_requests")
        .values({ user_id: caller.surveyUserDataId, idempotency_key: key, request_hash: hash, status: 0, body: "" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const response = await run({ ...deps, db: asDatabase(trx) });
      const body = response.status === 204 ? "" : await response.clone().text();
      await trx
        .updateTable("idempotent_requests")
        .set({ status: response.status, content_type: response.headers.get("content-type"), body })
        .where("id", "=", claim.id)
        .execute();
      return response;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return stored(deps.db, caller.surveyUserDataId, key, hash);
    throw error;
  }
}

/** Forgets first answers older than IDEMPOTENT_KEEP_MS; returns how many. */
export async function purgeIdempotentRequests(db: DB, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENT_KEEP_MS).toISOString();
  const result = await db.deleteFrom("idempotent_requests").where("created_at", "<", cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
