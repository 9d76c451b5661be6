import crypto from "node:crypto";
import type { FillWorld } from "./fill-support";

export const ORIGIN = "http://localhost:3000";
export const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

/** A signed-in session of the demo "user", as the pages' sign-in makes one: its cookie. */
export async function sessionCookie(w: FillWorld) {
  const token = await w.api.token("user");
  const identity = await w.api.ctx.verifyToken(token);
  const record = await w.db.selectFrom("users").select("id").where("sub", "=", identity.sub).executeTakeFirstOrThrow();
  const storage = w.api.ctx.sessions.forRequest(new Request(`${ORIGIN}/`));
  const session = await storage.getSession();
  session.set("identity", identity);
  session.set("surveyUserDataId", record.id);
  session.set("accessToken", token);
  session.set("accessTokenExpiresAt", Date.now() + 600_000);
  return { cookie: (await storage.commitSession(session)).split(";")[0]!, userId: record.id };
}
