import { AppError } from "~/domain/errors";
import { caseQuery, linkEndpoints, obj, type Check } from "./link-routes.server";
import type { AnyRoute, RouteInput } from "./route.server";
import type { Caller } from "./types.server";

/**
 * The staff API while a session is handed over to the patient (docs/decisions/058-hand-over.md): the
 * endpoints a patient's link may call (each naming the hand-over's case), its preliminary answers to read,
 * the case's language, its offline
 * sync, what every page asks of the signed-in person, and the mode's own end. Everything else is refused.
 */
export const handoverEndpoints: Record<string, Check> = {
  ...linkEndpoints,
  "POST /patients/language": caseQuery,
  // The fill page reads the preliminary answers staff gave before the hand-over (to know where the case is).
  "GET /attribute-responses": caseQuery,
  "GET /attribute-responses/": caseQuery,
  "POST /survey-offline-sync/:surveyId": (i, s) =>
    obj(i.params).surveyId === s.surveyId && obj(i.body).PatientId === s.patientId,
  "GET /users/current": () => true,
  "GET /users/current/offline-key": () => true,
  "GET /handover/current": () => true,
  "POST /handover/end": () => true,
};

const keyOf = (r: AnyRoute) => `${r.method.toUpperCase()} ${r.path}`;

/** Whether a call is answered while its session is handed over. */
export function allowedInHandover(
  route: AnyRoute,
  input: Pick<RouteInput<unknown, unknown, unknown>, "params" | "query" | "body">,
  caller: Caller,
) {
  if (!caller.handover) return true;
  const check = handoverEndpoints[keyOf(route)];
  return Boolean(check?.(input, caller.handover));
}

/** The routes, each refusing a call of a handed-over session that is not for its case. */
export function handoverGate(routes: AnyRoute[]): AnyRoute[] {
  return routes.map((r) =>
    r.public
      ? r
      : {
          ...r,
          handler: (input: RouteInput<unknown, unknown, unknown> & { caller: Caller }) => {
            if (!allowedInHandover(r, input, input.caller)) {
              throw new AppError("FORBIDDEN", "The device is handed to the patient: only their case answers");
            }
            return r.handler(input);
          },
        },
  );
}
