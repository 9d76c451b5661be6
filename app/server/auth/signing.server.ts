import { redirect } from "@remix-run/node";
import type { SignatureMeaningName, SigningRefusal } from "~/domain/signatures";
import { accessRolesOf } from "~/domain/user";
import { getContext } from "~/server/context.server";
import { localeFromRequest } from "~/server/i18n.server";
import { log } from "~/server/log.server";
import {
  checkSigning,
  claimSigningIntent,
  recordSignature,
  startSigning,
  type SigningIntent,
} from "~/server/services/fill/signatures.server";
import type { SurveyCaller } from "~/server/services/surveys.server";
import { syncUser } from "~/server/services/users.server";
import { verifyIdToken } from "./discovery.server";
import type { SignedIn } from "./guards.server";
import { assertProviderReachable, getOidc } from "./oidc.server";

/**
 * The signing's two requests (docs/decisions/029-signed-close.md): the signing page's "Sign" keeps an intent
 * and sends the person to the provider for a fresh sign-in; the provider sends them back to the sign-in's
 * callback, which finds the intent by its state and records the signature. The app session is never
 * replaced by the signing's sign-in: its tokens are read for who signed in and when, then revoked.
 */

/** The person of a page request as the services take them (teams and roles from their record). */
export async function surveyCallerOf(user: SignedIn): Promise<SurveyCaller> {
  const record = await syncUser(getContext().db, user.identity);
  return {
    surveyUserDataId: record.id,
    sub: user.identity.sub,
    roles: accessRolesOf(user.identity.roles),
    teamIds: record.teamIds,
    culture: record.culture,
  };
}

export const signPath = (surveyId: number, patientId: string) =>
  `/survey/${surveyId}/sign/${encodeURIComponent(patientId)}`;

/** Starts a signing: keeps its intent and answers the redirect to the provider's sign-in. */
export async function beginSigning(
  request: Request,
  user: SignedIn,
  target: {
    surveyId: number;
    patientId: string;
    meaning: SignatureMeaningName;
    /** The survey's title as the case's pages show it, and their language. */
    surveyTitle: string;
    surveyLanguage: string;
  },
): Promise<Response> {
  const { db, sessions } = getContext();
  const sessionId = await sessions.cookieSessionId(request);
  if (!sessionId) throw redirect("/401");
  const { surveyTitle, surveyLanguage, ...case_ } = target;
  const intent = await startSigning(db, await surveyCallerOf(user), { ...case_, sessionId });
  const oidc = await getOidc();
  await assertProviderReachable();
  const location = oidc.strategy.signingUrl({
    state: intent.id,
    codeVerifier: intent.code_verifier,
    nonce: intent.nonce,
    locale: localeFromRequest(request),
    loginHint: user.identity.sub,
    signing: { patientId: target.patientId, surveyTitle, surveyLanguage, meaning: target.meaning },
  });
  log.info("case.signing_started", { surveyId: target.surveyId, patientDataId: intent.patient_data_id });
  return redirect(location, { headers: { "Cache-Control": "no-store" } });
}

/**
 * The callback of a signing's sign-in: the intent is claimed once, the ID token verified (nonce, audience),
 * the fresh authentication and the subject checked against the session, and the signature recorded with the
 * case's close. Answers where the person goes: the confirmation, or the signing page with the reason.
 */
export async function finishSigning(request: Request, intent: SigningIntent): Promise<Response> {
  const { db, env, sessions } = getContext();
  const url = new URL(request.url);
  const patient = await db
    .selectFrom("patient_data")
    .select("patient_id")
    .where("id", "=", intent.patient_data_id)
    .executeTakeFirst();
  const patientId = patient?.patient_id ?? "";
  const back = (refusal: SigningRefusal) => {
    log.info("case.signing_refused", { surveyId: intent.survey_id, patientDataId: intent.patient_data_id, refusal });
    return redirect(`/survey/${intent.survey_id}/sign/${encodeURIComponent(patientId)}?refused=${refusal}`);
  };
  const now = new Date();
  if (!(await claimSigningIntent(db, intent.id, now))) return back("expired");

  const session = await sessions.forRequest(request).getSession(request.headers.get("Cookie"));
  const identity = session.get("identity");
  const surveyUserDataId = session.get("surveyUserDataId");
  const code = url.searchParams.get("code");
  if (url.searchParams.get("error") || !code) return back("failed");

  const oidc = await getOidc();
  let facts;
  try {
    const tokens = await oidc.strategy.signingTokens(code, intent.code_verifier);
    if (tokens.hasRefreshToken()) await oidc.strategy.revokeQuietly(tokens.refreshToken());
    await oidc.strategy.revokeQuietly(tokens.accessToken());
    facts = await verifyIdToken(tokens.idToken(), {
      issuer: env.issuer,
      clientId: env.OIDC_CLIENT_ID,
      nonce: intent.nonce,
    });
  } catch (error) {
    log.info("case.signing_token_refused", { error: String(error) });
    return back("failed");
  }
  const refusal = checkSigning(
    intent,
    {
      sub: facts.sub,
      authTime: facts.authTime,
      session:
        identity && surveyUserDataId ? { id: session.id, sub: identity.sub, surveyUserDataId: surveyUserDataId } : null,
    },
    now,
  );
  if (refusal) return back(refusal);
  const recorded = await recordSignature(
    db,
    intent,
    { surveyUserDataId: intent.user_id, sub: facts.sub, name: identity!.fullName },
    new Date(facts.authTime! * 1000),
    now,
  );
  if (!recorded.ok) return back(recorded.refusal);
  log.info("case.signed", { surveyId: intent.survey_id, patientDataId: intent.patient_data_id });
  return redirect(`/survey/${intent.survey_id}/fill/${encodeURIComponent(patientId)}?page=done`);
}
