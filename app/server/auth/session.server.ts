import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Cookie, type Session, type SessionStorage } from "@remix-run/node";
import type { HandoverScope } from "~/domain/handover";
import type { Identity } from "~/domain/user";
import { prepared } from "~/server/db/prepared.server";
import type { DB, Row } from "~/server/db/types.server";
import { forgetRequestReads, oncePerRequest } from "~/server/log.server";
import { readOrCreateSecret } from "~/server/secrets.server";

/** What the server keeps for a signed-in person. Tokens never leave the server. */
export interface AuthSessionData {
  identity: Identity;
  surveyUserDataId: number;
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Epoch milliseconds at which the access token expires. */
  accessTokenExpiresAt: number;
  /** Epoch milliseconds from which the access token is renewed (renewal.server.ts). */
  renewAfter?: number;
  /** The device is handed to the patient for one case (docs/decisions/058-hand-over.md). */
  handover?: HandoverScope;
  /** The way back from a hand-over by a fresh sign-in, on its way at the provider (handover-return.server.ts). */
  handoverReturn?: { state: string; nonce: string; codeVerifier: string; startedAt: number };
}

/**
 * A stored session's data. Sessions written before the person's record id was named surveyUserDataId kept
 * it as userId: they are read as they are meant, so nobody is signed out by an update.
 */
export function storedData(json: string): Partial<AuthSessionData> {
  const data = JSON.parse(json) as Partial<AuthSessionData> & { userId?: number };
  if (data.surveyUserDataId === undefined && typeof data.userId === "number") {
    const { userId, ...rest } = data;
    return { ...rest, surveyUserDataId: userId };
  }
  return data;
}

export const SESSION_COOKIE = "sv_session";

const sessionById = prepared<[string], Pick<Row<"sessions">, "data" | "expires_at">>((db, $) =>
  db.selectFrom("sessions").select(["data", "expires_at"]).where("id", "=", $(0)),
);

/** A session row as it stands in the database right now. */
export interface StoredSession {
  data: Partial<AuthSessionData>;
  /** Until when another copy holds the renewal lease, if one does. */
  renewingUntil: number | null;
}

export interface SessionStores {
  /** The storage for a request: its cookie is Secure when the request came over https. */
  forRequest(request: Request): SessionStorage<AuthSessionData>;
  /** The session id the request's cookie names, if any (also when the session no longer exists). */
  cookieSessionId(request: Request): Promise<string | null>;
  /** The session's row read afresh, or null once it has ended or expired. */
  read(id: string): Promise<StoredSession | null>;
  /** Takes the renewal lease for leaseMs unless another copy holds it; true when taken. */
  claimRenewal(id: string, leaseMs: number): Promise<boolean>;
  /** Stores renewed tokens and releases the lease. The session's end stays where it was. */
  saveRenewal(id: string, data: AuthSessionData): Promise<void>;
  /** Releases the lease without a change (the provider could not be reached). */
  releaseRenewal(id: string): Promise<void>;
  /** Ends the session: every request naming it finds it gone. */
  end(id: string): Promise<void>;
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
  const nowIso = () => new Date().toISOString();

  const data = {
    async createData(value: Partial<AuthSessionData>, expires?: Date) {
      const id = crypto.randomBytes(24).toString("base64url");
      const now = nowIso();
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
      // A page's root loader and its route's loader each ask for the session: read once per request that
      // only reads (a renewal or a write of the session forgets it).
      const row = await oncePerRequest(`session:${id}`, () => sessionById.first(db, id));
      if (!row) return null;
      if (row.expires_at < nowIso()) {
        await db.deleteFrom("sessions").where("id", "=", id).execute();
        return null;
      }
      return storedData(row.data);
    },
    // A session lasts SESSION_TTL_HOURS from its sign-in: writing it again does not move its end.
    async updateData(id: string, value: Partial<AuthSessionData>) {
      forgetRequestReads();
      await db
        .updateTable("sessions")
        .set({ data: JSON.stringify(value), updated_at: nowIso() })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id: string) {
      forgetRequestReads();
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
    return { cookie, storage: createSessionStorage<AuthSessionData>({ cookie: checkedOnce(cookie), ...data }) };
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
    async read(id) {
      const row = await db
        .selectFrom("sessions")
        .select(["data", "expires_at", "renewing_until"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row || row.expires_at < nowIso()) return null;
      return {
        data: storedData(row.data),
        renewingUntil: row.renewing_until ? Date.parse(row.renewing_until) : null,
      };
    },
    async claimRenewal(id, leaseMs) {
      const now = nowIso();
      const result = await db
        .updateTable("sessions")
        .set({ renewing_until: new Date(Date.now() + leaseMs).toISOString() })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("renewing_until", "is", null), eb("renewing_until", "<", now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async saveRenewal(id, value) {
      forgetRequestReads();
      await db
        .updateTable("sessions")
        .set({ data: JSON.stringify(value), renewing_until: null, updated_at: nowIso() })
        .where("id", "=", id)
        .execute();
    },
    async releaseRenewal(id) {
      await db.updateTable("sessions").set({ renewing_until: null }).where("id", "=", id).execute();
    },
    async end(id) {
      forgetRequestReads();
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
  };
}

export type AuthSession = Session<AuthSessionData>;

/** More Cookie headers than the people signed in at once send: the table cannot grow without end. */
const MAX_CHECKED_HEADERS = 5_000;

/**
 * The session cookie, its signature checked once per Cookie header: a page asks for the session in its
 * root's and its route's loaders and in each read of the in-process API, each check an HMAC of the
 * header's value. The same header holds the same signed id for as long as the secret is the same (the
 * server's whole run); a header seen for the first time is checked as before.
 */
function checkedOnce(cookie: Cookie): Cookie {
  let checked = new Map<string, Promise<unknown>>();
  return {
    get name() {
      return cookie.name;
    },
    get isSigned() {
      return cookie.isSigned;
    },
    get expires() {
      return cookie.expires;
    },
    parse(header, options) {
      if (!header || options) return cookie.parse(header, options);
      let id = checked.get(header);
      if (!id) {
        if (checked.size >= MAX_CHECKED_HEADERS) checked = new Map();
        id = cookie.parse(header);
        checked.set(header, id);
      }
      return id;
    },
    serialize: (value, options) => cookie.serialize(value, options),
  };
}

/** Removes sessions whose time is up; called now and then, so the table stays small. */
export async function purgeExpiredSessions(db: DB): Promise<void> {
  await db.deleteFrom("sessions").where("expires_at", "<", new Date().toISOString()).execute();
}
