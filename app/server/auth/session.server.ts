import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Session, type SessionStorage } from "@remix-run/node";
import type { Identity } from "~/domain/user";
import type { DB } from "~/server/db/types.server";
import { readOrCreateSecret } from "~/server/secrets.server";

/** What the server keeps for a signed-in person. Tokens never leave the server. */
export interface AuthSessionData {
  identity: Identity;
  userId: number;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Epoch milliseconds at which the access token expires. */
  accessTokenExpiresAt: number;
}

export const SESSION_COOKIE = "sv_session";

export interface SessionStores {
  /** The storage for a request: its cookie is Secure when the request came over https. */
  forRequest(request: Request): SessionStorage<AuthSessionData>;
  /** The session id the request's cookie names, if any (also when the session no longer exists). */
  cookieSessionId(request: Request): Promise<string | null>;
}

export function createSessionStores(opts: {
  db: DB;
  dataDir: string;
  secret?: string;
  ttlHours: number;
}): SessionStores {
  const secret = opts.secret ?? readOrCreateSecret(opts.dataDir, "session-secret");
  const ttlMs = opts.ttlHours * 3600_000;
  const { db } = opts;

  const data = {
    async createData(value: Partial<AuthSessionData>, expires?: Date) {
      const id = crypto.randomBytes(24).toString("base64url");
      const now = new Date().toISOString();
      await db
        .insertInto("sessions")
        .values({
          id,
          data: JSON.stringify(value),
          expires_at: (expires ?? new Date(Date.now() + ttlMs)).toISOString(),
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    },
    async readData(id: string) {
      const row = await db
        .selectFrom("sessions")
        .select(["data", "expires_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) return null;
      if (row.expires_at < new Date().toISOString()) {
        await db.deleteFrom("sessions").where("id", "=", id).execute();
        return null;
      }
      return JSON.parse(row.data) as Partial<AuthSessionData>;
    },
    async updateData(id: string, value: Partial<AuthSessionData>, expires?: Date) {
      await db
        .updateTable("sessions")
        .set({
          data: JSON.stringify(value),
          expires_at: (expires ?? new Date(Date.now() + ttlMs)).toISOString(),
          updated_at: new Date().toISOString(),
        })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id: string) {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
  };

  const make = (secure: boolean) => {
    const cookie = createCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      secrets: [secret],
      maxAge: Math.round(ttlMs / 1000),
    });
    return { cookie, storage: createSessionStorage<AuthSessionData>({ cookie, ...data }) };
  };
  const plain = make(false);
  const secure = make(true);

  return {
    forRequest(request) {
      return new URL(request.url).protocol === "https:" ? secure.storage : plain.storage;
    },
    async cookieSessionId(request) {
      const id: unknown = await plain.cookie.parse(request.headers.get("Cookie"));
      return typeof id === "string" && id.length > 0 ? id : null;
    },
  };
}

export type AuthSession = Session<AuthSessionData>;

/** Removes sessions whose time is up; called now and then, so the table stays small. */
export async function purgeExpiredSessions(db: DB): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<", new Date().toISOString()).execute();
}
