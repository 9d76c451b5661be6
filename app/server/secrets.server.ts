import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** A random secret kept in a file under the data folder, made on first use. */
export function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing) return existing;
  } catch {
    // made below
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString("base64url");
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
