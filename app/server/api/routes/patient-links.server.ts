import { patientLinksApi as api } from "~/contracts/patient-links";
import { createLink, listLinks, renewLink, revokeLink } from "~/server/services/links/links.server";
import { route, type AnyRoute } from "../route.server";
import { surveyCaller } from "../schemas.server";

export const patientLinkRoutes: AnyRoute[] = [
  route(api.create, ({ deps, caller, body }) => createLink(deps.db, surveyCaller(caller), body)),
  route(api.list, ({ deps, caller, query }) => listLinks(deps.db, surveyCaller(caller), query)),
  route(api.revoke, ({ deps, caller, params }) => revokeLink(deps.db, surveyCaller(caller), params.id)),
  route(api.renew, ({ deps, caller, params, body }) => renewLink(deps.db, surveyCaller(caller), params.id, body)),
];
