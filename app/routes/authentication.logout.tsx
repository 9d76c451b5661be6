import { type ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { getContext } from "~/server/context.server";
import { forgetCredentials } from "~/server/api/authenticate.server";
import { requireSameOrigin } from "~/server/auth/guards.server";
import { endSessionUrl } from "~/server/auth/oidc.server";
import { handoverPath } from "~/domain/handover";

/** Ends the session here and at the provider. */
export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const storage = getContext().sessions.forRequest(request);
  const session = await storage.getSession(request.headers.get("Cookie"));
  // Handed over to the patient (decision 058): no sign-out, the patient's page instead.
  const handover = session.get("handover");
  if (handover) return redirect(handoverPath(handover));
  const idToken = session.get("idToken");
  const surveyUserDataId = session.get("surveyUserDataId");
  if (surveyUserDataId) forgetCredentials((c) => c.surveyUserDataId === surveyUserDataId);
  const cookie = await storage.destroySession(session);
  const target = (await endSessionUrl(idToken)) ?? "/surveys";
  return redirect(target, { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/surveys");
}
