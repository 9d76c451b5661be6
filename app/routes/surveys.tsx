import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { UserSchema } from "~/domain/user";
import { apiClient, handleApiAuthErrors } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { pageTitle } from "~/components/layout/meta";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const me = await apiClient(user.accessToken).get("/users/current", { schema: UserSchema }).catch(handleApiAuthErrors);
  return { fullName: me.FullName, institute: me.Institute, roles: me.SurveyAccessRoles };
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "surveys.title");

export default function Surveys() {
  const { t } = useTranslation();
  const me = useLoaderData<typeof loader>();
  return (
    <section className="page" aria-labelledby="surveys-title">
      <div className="page__head">
        <h1 id="surveys-title">{t("surveys.title")}</h1>
        <p className="greeting" data-testid="greeting">
          <span className="greeting__name">{t("surveys.greeting", { name: me.fullName })}</span>
          {me.institute ? <span className="greeting__institute">{me.institute}</span> : null}
        </p>
      </div>
    </section>
  );
}
