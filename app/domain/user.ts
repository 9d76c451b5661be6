import { z } from "./zod";

import { cultures } from "./culture";

export { cultures, defaultCulture, isCulture, type Culture } from "./culture";
export const CultureSchema = z.enum(cultures);

export const surveyAccessRoles = ["SsiEditor", "SsiApprover"] as const;
export const SurveyAccessRoleSchema = z.enum(surveyAccessRoles);
export type SurveyAccessRole = z.infer<typeof SurveyAccessRoleSchema>;

/** User as GET /users/current answers it (section 3). */
export const UserSchema = z
  .object({
    FullName: z.string(),
    Institute: z.string(),
    UserId: z.string().describe("The identity provider's subject"),
    SurveyUserDataId: z.number().int().describe("The user's record id in this product"),
    Culture: CultureSchema,
    HasAcceptedTos: z
      .boolean()
      .describe("false: send the person to the terms page; until then every other call answers 403 TOS_NOT_ACCEPTED"),
    SurveyAccessRoles: z.array(SurveyAccessRoleSchema),
    Teams: z.array(z.object({ Id: z.number().int(), Name: z.string() })),
  })
  .meta({ id: "User" });
export type User = z.infer<typeof UserSchema>;

export const TeamSchema = z
  .object({ Id: z.number().int(), Name: z.string(), Disabled: z.boolean() })
  .meta({ id: "Team" });
export type Team = z.infer<typeof TeamSchema>;

export const TagSchema = z.object({ Id: z.number().int(), Name: z.string() }).meta({ id: "Tag" });
export type Tag = z.infer<typeof TagSchema>;

/** The identity of a signed-in person, as the identity provider's token claims state it. */
export interface Identity {
  sub: string;
  fullName: string;
  institute: string;
  email?: string;
  roles: string[];
  teams: string[];
  hasAcceptedTos: boolean;
  locale?: string;
}

export function accessRolesOf(roles: readonly string[]): SurveyAccessRole[] {
  return surveyAccessRoles.filter((r) => roles.includes(r));
}

/** Whether the person may use the tool at all: the access role, or one of the tool's own roles. */
export function hasToolAccess(roles: readonly string[], accessRole: string): boolean {
  return roles.includes(accessRole) || accessRolesOf(roles).length > 0;
}
