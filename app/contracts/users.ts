import { z } from "~/domain/zod";
import { CultureSchema, TagSchema, TeamSchema, UserSchema } from "~/domain/user";
import { contract } from "./contract";

export const usersApi = {
  current: contract({
    method: "get",
    path: "/users/current",
    tag: "Users",
    summary:
      "The signed-in person; answers also before the terms of service are accepted (HasAcceptedTos false: " +
      "send them to the terms page), when every other call is refused with TOS_NOT_ACCEPTED",
    beforeTerms: true,
    response: UserSchema,
  }),
  setCulture: contract({
    method: "post",
    path: "/users/current/culture",
    tag: "Users",
    summary: "Set the signed-in person's language",
    query: z.object({ culture: CultureSchema }),
    status: 204,
  }),
  teams: contract({
    method: "get",
    path: "/teams",
    tag: "Lookups",
    summary: "All teams",
    response: z.array(TeamSchema),
  }),
  tags: contract({
    method: "get",
    path: "/tags",
    tag: "Lookups",
    summary: "All tags",
    response: z.array(TagSchema),
  }),
};
