import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The provider's state (sessions, grants, refresh tokens, pending sign-ins), kept in memory and
 * written to one JSON file in the data directory shortly after each change, so that restarting
 * the server does not sign everybody out. Meant for the single-server embedded default only.
 */

interface Entry {
  v: unknown;
  /** Expiry, epoch milliseconds; absent when the entry does not expire. */
  exp?: number;
}

export class StateStore {
  private entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(file: string): Promise<StateStore> {
    const store = new StateStore(file);
    try {
      const raw = JSON.parse(await readFile(file, "utf8")) as { entries?: Record<string, Entry> };
      const now = Date.now();
      for (const [key, entry] of Object.entries(raw.entries ?? {})) {
        if (!entry.exp || entry.exp > now) store.entries.set(key, entry);
      }
      // Drop the indexes of grants whose tokens have all expired.
      for (const [key, entry] of store.entries) {
        if (key.startsWith("grant:") && !(entry.v as string[]).some((member) => store.entries.has(member))) {
          store.entries.delete(key);
        }
      }
    } catch (error) {
      // A missing or unreadable state file only means everybody signs in again.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        console.warn(`[idp] ignoring unreadable state file ${file}: ${(error as Error).message}`);
      }
    }
    return store;
  }

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.exp && entry.exp <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.v as T;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: unknown, expiresInSeconds?: number) {
    const exp = typeof expiresInSeconds === "number" ? Date.now() + expiresInSeconds * 1000 : undefined;
    this.entries.set(key, { v: value, exp });
    this.changed();
  }

  delete(key: string) {
    if (this.entries.delete(key)) this.changed();
  }

  /** Marks the store as changed after a value was modified in place. */
  changed() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().catch((error: unknown) => console.error("[idp] cannot save state:", error));
    }, 200);
    this.timer.unref();
  }

  /** Writes the current state now (also called when the provider stops). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const now = Date.now();
    const live = [...this.entries].filter(([, e]) => !e.exp || e.exp > now);
    const snapshot = JSON.stringify({ entries: Object.fromEntries(live) });
    const write = async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, snapshot, { mode: 0o600 });
      await rename(tmp, this.file);
    };
    this.writing = this.writing.then(write, write);
    await this.writing;
  }
}

const GRANTABLE = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PreAuthorizedCode",
]);

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string };

/** The storage adapter oidc-provider calls for each of its models. */
export class StateAdapter {
  constructor(
    private readonly model: string,
    private readonly store: StateStore,
  ) {}

  private key(id: string) {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const key = this.key(id);
    if (this.model === "Session" && payload.uid) this.store.set(`sessionUid:${payload.uid}`, id, expiresIn);
    if (payload.userCode) this.store.set(`userCode:${payload.userCode}`, id, expiresIn);
    if (GRANTABLE.has(this.model) && payload.grantId) {
      const grantKey = `grant:${payload.grantId}`;
      const members = (this.store.get<string[]>(grantKey) ?? []).filter((k) => k !== key && this.store.has(k));
      this.store.set(grantKey, [...members, key]);
    }
    this.store.set(key, payload, expiresIn);
  }

  async find(id: string): Promise<Payload | undefined> {
    return this.store.get<Payload>(this.key(id));
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const id = this.store.get<string>(`sessionUid:${uid}`);
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const id = this.store.get<string>(`userCode:${userCode}`);
    return id ? this.find(id) : undefined;
  }

  async consume(id: string): Promise<void> {
    const payload = this.store.get<Payload>(this.key(id));
    if (payload) {
      payload.consumed = Math.floor(Date.now() / 1000);
      this.store.changed();
    }
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const grantKey = `grant:${grantId}`;
    for (const key of this.store.get<string[]>(grantKey) ?? []) this.store.delete(key);
    this.store.delete(grantKey);
  }
}
