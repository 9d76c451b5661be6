import { handoverApi as api } from "~/contracts/handover";
import { endHandover, startHandover } from "~/server/services/handover/handover.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const handoverRoutes: AnyRoute[] = [
  route(api.start, ({ c, deps, caller, body }) => startHandover(deps, c.req.raw, caller, surveyCaller(caller), body)),
  route(api.current, async ({ caller }) =>
    caller.handover ? { SurveyId: caller.handover.surveyId, PatientId: caller.handover.patientId } : null,
  ),
  route(api.end, async ({ c, deps, body }) => {
    await endHandover(deps, c.req.raw, body.ReturnToken, body.Offline === true);
  }),
];
