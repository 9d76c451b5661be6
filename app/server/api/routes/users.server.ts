import { z } from "zod";
import { CultureSchema, TagSchema, TeamSchema, UserSchema } from "~/domain/user";
import { listTags, listTeams, setCulture, toUserDto } from "~/server/services/users.server";
import { forgetCredentials } from "../authenticate.server";
import { route } from "../route.server";

export const userRoutes = [
  route({
    method: "get",
    path: "/users/current",
    tag: "Users",
    summary:
      "The signed-in person; answers also before the terms of service are accepted (HasAcceptedTos false: " +
      "send them to the terms page), when every other call is refused with TOS_NOT_ACCEPTED",
    beforeTerms: true,
    response: UserSchema,
    handler: async ({ caller }) =>
      toUserDto(caller.identity, {
        id: caller.surveyUserDataId,
        culture: caller.culture,
        teamIds: caller.teamIds,
        teams: caller.teams,
      }),
  }),
  route({
    method: "post",
    path: "/users/current/culture",
    tag: "Users",
    summary: "Set the signed-in person's language",
    query: z.object({ culture: CultureSchema }),
    status: 204,
    handler: async ({ deps, caller, query }) => {
      await setCulture(deps.db, { surveyUserDataId: caller.surveyUserDataId, sub: caller.identity.sub }, query.culture);
      forgetCredentials((c) => c.surveyUserDataId === caller.surveyUserDataId);
      return null;
    },
  }),
  route({
    method: "get",
    path: "/teams",
    tag: "Lookups",
    summary: "All teams",
    response: z.array(TeamSchema),
    handler: async ({ deps }) => listTeams(deps.db),
  }),
  route({
    method: "get",
    path: "/tags",
    tag: "Lookups",
    summary: "All tags",
    response: z.array(TagSchema),
    handler: async ({ deps }) => listTags(deps.db),
  }),
];
