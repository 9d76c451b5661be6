import crypto from "node:crypto";
import { AppError } from "~/domain/errors";
import type { HandoverEndedBy, HandoverScope } from "~/domain/handover";
import type { Executor } from "~/server/db/types.server";
import { forgetCredentials } from "~/server/api/authenticate.server";
import type { ApiDeps, Caller } from "~/server/api/types.server";
import { log } from "~/server/log.server";
import { audit } from "../audit.server";
import { requireFillableSurvey } from "../fill/access.server";
import { findCase, requireOpen } from "../fill/cases.server";
import type { SurveyCaller } from "../surveys.server";

/**
 * The patient mode on the server (docs/decisions/058-hand-over.md): a flag on the staff member's session
 * naming the case, with the SHA-256 of the return token the device keeps sealed under the PIN.
 */

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

async function sessionOf(deps: ApiDeps, request: Request) {
  if (request.headers.get("authorization")) {
    throw new AppError("FORBIDDEN", "A hand-over belongs to a signed-in session, not to a bearer token");
  }
  const storage = deps.sessions.forRequest(request);
  const session = await storage.getSession(request.headers.get("cookie"));
  if (!session.get("identity")) throw new AppError("UNAUTHORIZED", "Sign in first");
  return { storage, session };
}

/**
 * A row of the case's history and the survey's trail for the mode's start or end (decision 058), written as the
 * staff member who handed the device over; the end says how it came (the PIN, a fresh sign-in, or the PIN typed
 * without a network and sent later).
 */
export function auditHandover(db: Executor, scope: HandoverScope, endedBy?: HandoverEndedBy) {
  return audit(
    db,
    { surveyUserDataId: scope.staffUserId, sub: scope.staffSub },
    {
      action: endedBy ? "handover.end" : "handover.start",
      entity: "handover",
      entityId: scope.patientDataId,
      surveyId: scope.surveyId,
      patientDataId: scope.patientDataId,
      after: endedBy ? { EndedBy: endedBy } : null,
    },
  );
}

/** Sets the flag for an Open case the caller may fill. */
export async function startHandover(
  deps: ApiDeps,
  request: Request,
  caller: Caller,
  person: SurveyCaller,
  body: { SurveyId: number; PatientId: string; ReturnHash: string },
) {
  const { storage, session } = await sessionOf(deps, request);
  await requireFillableSurvey(deps.db, person, body.SurveyId);
  const kase = requireOpen(await findCase(deps.db, body.SurveyId, body.PatientId), body.PatientId);
  const scope: HandoverScope = {
    surveyId: body.SurveyId,
    patientId: body.PatientId,
    patientDataId: kase.id,
    staffUserId: caller.surveyUserDataId,
    staffSub: caller.identity.sub,
    returnHash: body.ReturnHash,
    startedAt: new Date().toISOString(),
  };
  await auditHandover(deps.db, scope);
  session.set("handover", scope);
  await storage.commitSession(session);
  forgetCredentials((c) => c.surveyUserDataId === caller.surveyUserDataId);
  log.info("handover.started", { surveyId: body.SurveyId, patientDataId: kase.id });
  return { SurveyId: body.SurveyId, PatientId: body.PatientId, PatientDataId: kase.id };
}

/** Clears the flag of a session (the right return token, or the same person's fresh sign-in). */
export async function clearHandover(
  deps: ApiDeps,
  request: Request,
  check: (scope: HandoverScope) => boolean,
  endedBy: HandoverEndedBy,
) {
  const { storage, session } = await sessionOf(deps, request);
  const scope = session.get("handover");
  if (!scope) return;
  if (!check(scope)) throw new AppError("FORBIDDEN", "Not the hand-over's return token");
  await auditHandover(deps.db, scope, endedBy);
  session.unset("handover");
  await storage.commitSession(session);
  forgetCredentials((c) => c.surveyUserDataId === scope.staffUserId);
  log.info("handover.ended", { surveyId: scope.surveyId, patientDataId: scope.patientDataId });
}

/** Ends the mode with the token the right PIN opened on the device (`offline`: typed without a network). */
export function endHandover(deps: ApiDeps, request: Request, token: string, offline = false) {
  return clearHandover(deps, request, (scope) => sameHex(sha256(token), scope.returnHash), offline ? "offline" : "pin");
}
