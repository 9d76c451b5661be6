import { generateKeyPairSync, randomBytes, type JsonWebKey } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { calculateJwkThumbprint, type JWK } from "jose";

export interface IdpKeys {
  /** The private signing keys (RS256), the first one signs. */
  jwks: { keys: JWK[] };
  /** Keys that sign the provider's cookies, the first one signs. */
  cookieKeys: string[];
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

async function writeSecretJson(file: string, value: unknown): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(value, null, 2), { mode: 0o600 });
  await rename(tmp, file);
}

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" }) as JsonWebKey as JWK;
  const kid = await calculateJwkThumbprint({ kty: jwk.kty, n: jwk.n, e: jwk.e });
  return { ...jwk, kid, alg: "RS256", use: "sig" };
}

function isUsableJwks(value: unknown): value is { keys: JWK[] } {
  const keys = (value as { keys?: unknown } | undefined)?.keys;
  return Array.isArray(keys) && keys.length > 0 && keys.every((k) => typeof k === "object" && k && "d" in k);
}

/**
 * Loads the provider's signing and cookie keys from the data directory, creating them on the
 * first start. Both files hold secrets and are written readable by the owner only.
 */
export async function loadOrCreateKeys(dataDir: string): Promise<IdpKeys> {
  await mkdir(dataDir, { recursive: true });
  const jwksFile = path.join(dataDir, "idp-jwks.json");
  const cookieFile = path.join(dataDir, "idp-cookie-keys.json");

  let jwks = await readJson<unknown>(jwksFile);
  if (!isUsableJwks(jwks)) {
    jwks = { keys: [await newSigningKey()] };
    await writeSecretJson(jwksFile, jwks);
  }

  let cookies = await readJson<{ keys?: unknown }>(cookieFile);
  const cookieKeys = Array.isArray(cookies?.keys) ? cookies.keys.filter((k): k is string => typeof k === "string") : [];
  if (cookieKeys.length === 0) {
    cookieKeys.push(randomBytes(32).toString("base64url"));
    cookies = { keys: cookieKeys };
    await writeSecretJson(cookieFile, cookies);
  }

  return { jwks: jwks as { keys: JWK[] }, cookieKeys };
}
