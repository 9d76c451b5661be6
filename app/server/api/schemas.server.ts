import { z } from "zod";
import type { SurveyCaller } from "~/server/services/surveys.server";
import type { Caller } from "./types.server";

/** A positive integer from a path or query string. */
export const idParam = z.coerce.number().int().positive().max(2_147_483_647);

/** "true" / "false" (any case) from a query string. */
export const queryBool = z
  .enum(["true", "false", "True", "False", "TRUE", "FALSE", "1", "0"])
  .transform((v) => v.toLowerCase() === "true" || v === "1");

export const SurveyIdParams = z.object({ id: idParam });

/** What the services need to know of the API's caller. */
export function surveyCaller(caller: Caller): SurveyCaller {
  return {
    surveyUserDataId: caller.surveyUserDataId,
    sub: caller.identity.sub,
    roles: caller.roles,
    teamIds: caller.teamIds,
    culture: caller.culture,
  };
}
