import crypto from "node:crypto";
import type { Env } from "~/server/env.server";
import { readOrCreateSecret } from "~/server/secrets.server";

/**
 * A person's key for their offline work on a device (docs/decisions/048-shared-device.md): derived from
 * OFFLINE_KEY_SECRET and the person's subject, so every copy of the server hands the same person the same key
 * without storing it, and nobody else's session is ever handed it.
 */
const secrets = new Map<string, string>();

type Secrets = Pick<Env, "OFFLINE_KEY_SECRET" | "DATA_DIR">;

function secretOf(env: Secrets): string {
  if (env.OFFLINE_KEY_SECRET) return env.OFFLINE_KEY_SECRET;
  let secret = secrets.get(env.DATA_DIR);
  if (!secret) {
    secret = readOrCreateSecret(env.DATA_DIR, "offline-key-secret");
    secrets.set(env.DATA_DIR, secret);
  }
  return secret;
}

const mac = (secret: string, label: string, sub: string) =>
  crypto.createHmac("sha256", secret).update(`${label}\u0000${sub}`).digest();

const tags = new Map<string, string>();
/** The tag that names a person's stores on a device (and their kept pages): opaque, stable, short. */
export function holderTag(env: Secrets, sub: string): string {
  const secret = secretOf(env);
  const key = `${secret}\u0000${sub}`;
  let tag = tags.get(key);
  if (!tag) {
    if (tags.size > 10_000) tags.clear();
    tag = mac(secret, "offline-holder-tag", sub).subarray(0, 12).toString("hex");
    tags.set(key, tag);
  }
  return tag;
}

export function holderKey(env: Secrets, sub: string) {
  return {
    KeyId: holderTag(env, sub),
    Key: mac(secretOf(env), "offline-holder-key", sub).toString("base64url"),
  };
}
