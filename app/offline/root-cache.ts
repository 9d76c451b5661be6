/**
 * The root loader's last answer (who is signed in, the language), kept in local storage so pages can be
 * built offline. It holds no token: those stay on the server.
 */
const KEY = "offline:root";

export interface CachedUser {
  fullName: string;
  institute: string;
  roles: string[];
  userId: string;
  surveyUserDataId: number;
}

export function saveRootData(value: unknown) {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // Storage full or refused: the page still works online.
  }
}

export function readRootData<T>(): T | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function cachedUser(): CachedUser | null {
  return readRootData<{ user: CachedUser | null }>()?.user ?? null;
}
