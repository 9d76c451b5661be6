import { usersApi } from "~/contracts/users";
import { listTags, listTeams, setCulture, toUserDto } from "~/server/services/users.server";
import { holderKey } from "~/server/services/offline-holder.server";
import { forgetCredentials } from "../authenticate.server";
import { route } from "../route.server";

export const userRoutes = [
  route(usersApi.current, async ({ caller }) =>
    toUserDto(caller.identity, {
      id: caller.surveyUserDataId,
      culture: caller.culture,
      teamIds: caller.teamIds,
      teams: caller.teams,
    }),
  ),
  route(usersApi.offlineKey, async ({ deps, caller }) => holderKey(deps.env, caller.identity.sub)),
  route(usersApi.setCulture, async ({ deps, caller, query }) => {
    await setCulture(deps.db, { surveyUserDataId: caller.surveyUserDataId, sub: caller.identity.sub }, query.culture);
    forgetCredentials((c) => c.surveyUserDataId === caller.surveyUserDataId);
    return null;
  }),
  route(usersApi.teams, async ({ deps }) => listTeams(deps.db)),
  route(usersApi.tags, async ({ deps }) => listTags(deps.db)),
];
