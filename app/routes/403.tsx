import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { data } from "~/server/responses.server";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { hasToolAccess } from "~/domain/user";
import { getOptionalUser } from "~/server/auth/guards.server";
import { getContext } from "~/server/context.server";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";

/**
 * Two refusals: a person without the tool's role (at sign-in), and a person of the tool on a page their roles
 * do not open (the statistics or the editor for someone who only fills): they are told so, and sent back to
 * the survey list instead of being asked to sign out.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const ofTheTool = user !== null && hasToolAccess(user.identity.roles, getContext().env.OIDC_ACCESS_ROLE);
  return data({ ofTheTool }, { status: 403 });
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "auth.forbiddenTitle");

export default function Forbidden() {
  const { t } = useTranslation();
  const ofTheTool = useLoaderData<typeof loader>()?.ofTheTool ?? false;
  return (
    <section className="page page--narrow" aria-labelledby="forbidden-title">
      <h1 id="forbidden-title">{t("auth.forbiddenTitle")}</h1>
      <p>{t(ofTheTool ? "auth.forbiddenPageText" : "auth.forbiddenText")}</p>
      {ofTheTool ? (
        <Link to="/surveys" className="btn btn--primary">
          {t("auth.toSurveyList")}
        </Link>
      ) : (
        <Form method="post" action="/authentication/logout">
          <button type="submit" className="btn btn--primary">
            {t("header.signOut")}
          </button>
        </Form>
      )}
    </section>
  );
}
