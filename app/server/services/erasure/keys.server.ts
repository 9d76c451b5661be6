import crypto from "node:crypto";
import type { Env } from "~/server/env.server";
import { readOrCreateSecret } from "~/server/secrets.server";

/** The file in DATA_DIR that holds the erasure key when ERASURE_KEY is unset (the demo set-up). */
const KEY_FILE = "erasure-key";

const generated = new Map<string, string>();

/** The key of the tombstones' patient hashes: ERASURE_KEY, else one generated into the data folder once. */
export function erasureKey(env: Pick<Env, "ERASURE_KEY" | "DATA_DIR">): string {
  if (env.ERASURE_KEY) return env.ERASURE_KEY;
  let key = generated.get(env.DATA_DIR);
  if (!key) {
    key = readOrCreateSecret(env.DATA_DIR, KEY_FILE);
    generated.set(env.DATA_DIR, key);
  }
  return key;
}

/**
 * A patient id as a tombstone keeps it (docs/decisions/042-retention-and-erasure.md): HMAC-SHA256 under the
 * erasure key of "<surveyId>:<patientId>", lowercase hex. The same id in the same survey always gives the
 * same key, so a repeated request and a restore find the tombstone; without the key it names nobody.
 */
export function patientKey(key: string, surveyId: number, patientId: string): string {
  return crypto.createHmac("sha256", key).update(`${surveyId}:${patientId}`, "utf8").digest("hex");
}
