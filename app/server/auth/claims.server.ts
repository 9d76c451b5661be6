import type { JWTPayload } from "jose";
import type { Identity } from "~/domain/user";

function stringList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  if (typeof value === "string" && value.length > 0) return value.split(/[\s,]+/).filter(Boolean);
  return [];
}

/**
 * Whether an access token grants the API's scope. A token that names its scopes (`scope`, space-separated, or
 * Entra's `scp`) must name the configured one; Entra names it by its last part ("access" for
 * "api://survey-api/access"). A provider that puts no scopes in its tokens is trusted by audience alone.
 */
export function grantsScope(claims: JWTPayload & Record<string, unknown>, wanted: string): boolean {
  if (claims.scope === undefined && claims.scp === undefined) return true;
  const scopes = [...stringList(claims.scope), ...stringList(claims.scp)];
  return scopes.includes(wanted) || scopes.includes(wanted.slice(wanted.lastIndexOf("/") + 1));
}

/**
 * Reads a person from token claims. The embedded provider issues `name`, `institute`, `roles`,
 * `teams` and `tos_accepted`; Keycloak's `realm_access.roles` and `groups` are understood too,
 * so a provider that maps the same facts to these claims works without code changes.
 */
export function identityFromClaims(claims: JWTPayload & Record<string, unknown>): Identity {
  if (typeof claims.sub !== "string" || claims.sub.length === 0) {
    throw new Error("The token has no subject");
  }
  const realmRoles = stringList((claims.realm_access as { roles?: unknown } | undefined)?.roles);
  const roles = [...new Set([...stringList(claims.roles), ...realmRoles])];
  const teams = [
    ...new Set([...stringList(claims.teams), ...stringList(claims.groups).map((g) => g.replace(/^\//, ""))]),
  ];
  const fullName =
    typeof claims.name === "string"
      ? claims.name
      : [claims.given_name, claims.family_name].filter((p) => typeof p === "string").join(" ") ||
        String(claims.preferred_username ?? claims.sub);
  const tos = claims.tos_accepted;
  return {
    sub: claims.sub,
    fullName,
    institute: typeof claims.institute === "string" ? claims.institute : "",
    email: typeof claims.email === "string" ? claims.email : undefined,
    roles,
    teams,
    // A provider that says nothing about terms has no terms to accept.
    hasAcceptedTos: tos === undefined ? true : tos === true || tos === "true",
    locale: typeof claims.locale === "string" ? claims.locale : undefined,
  };
}
