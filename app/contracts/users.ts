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
  offlineKey: contract({
    method: "get",
    path: "/users/current/offline-key",
    tag: "Users",
    summary:
      "The signed-in person's key for their offline work on a device: the device seals what it keeps with it " +
      "and forgets it when another person signs in (docs/decisions/048-shared-device.md). The same person " +
      "always gets the same key; KeyId names their stores on the device and nothing more. Never cached",
    response: z.object({
      KeyId: z.string().describe("Names the person's stores on a device; tells nothing of the person"),
      Key: z.string().describe("32 random-looking bytes, base64url: the secret the device derives its keys from"),
    }),
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
