import { personStore, sealedGet, sealedSet } from "./sealed";
import { currentHolder } from "./vault";

/**
 * The root loader's last answer (who is signed in, the language), kept for the device's holder so pages can
 * be built offline. Sealed in the holder's own store (decision 048); it holds no token: those stay on the
 * server. Nobody's is read while nobody holds the device.
 */
const KEY = "root";

export interface CachedUser {
  fullName: string;
  institute: string;
  roles: string[];
  userId: string;
  surveyUserDataId: number;
}

export async function saveRootData<T extends { user: CachedUser | null }>(value: T): Promise<void> {
  try {
    const holder = await currentHolder();
    if (holder && value.user) await sealedSet(holder, personStore(holder, "person"), KEY, value);
  } catch {
    // Storage full or refused: the page still works online.
  }
}

export async function readRootData<T>(): Promise<T | null> {
  try {
    const holder = await currentHolder();
    return (holder && (await sealedGet<T>(holder, personStore(holder, "person"), KEY))) ?? null;
  } catch {
    return null;
  }
}

export async function cachedUser(): Promise<CachedUser | null> {
  return (await readRootData<{ user: CachedUser | null }>())?.user ?? null;
}
