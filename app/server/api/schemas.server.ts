import type { SurveyCaller } from "~/server/services/surveys.server";
import type { Caller } from "./types.server";

/** What the services need to know of the API's caller. */
export function surveyCaller(caller: Caller): SurveyCaller {
  return {
    surveyUserDataId: caller.surveyUserDataId,
    sub: caller.identity.sub,
    roles: caller.roles,
    teamIds: caller.teamIds,
    culture: caller.culture,
    ...(caller.link ? { link: caller.link } : {}),
    ...(caller.handover ? { handover: caller.handover } : {}),
  };
}
