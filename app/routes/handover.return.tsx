import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import { handoverPath } from "~/domain/handover";
import { beginHandoverReturn, RETURN_REFUSALS, type ReturnRefusal } from "~/server/auth/handover-return.server";
import { requireUser, sessionHandover } from "~/server/auth/guards.server";
import { redirect } from "~/server/responses.server";

/**
 * The way back from a hand-over when the PIN is forgotten (docs/decisions/058-hand-over.md): "Sign in again"
 * sends the staff member to the provider for a fresh sign-in; once it ended the server's hand-over, this page
 * ends the device's (its sealed record) and opens the case for staff. A plain form, so it works without
 * JavaScript.
 */

const FILL_PATH = /^\/survey\/\d+\/fill\/[^/?#]+$/;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const url = new URL(request.url);
  const handover = await sessionHandover(request);
  if (handover) {
    const refused = url.searchParams.get("refused");
    return {
      returned: null,
      patientPage: handoverPath(handover),
      refused: (RETURN_REFUSALS as readonly string[]).includes(refused ?? "") ? (refused as ReturnRefusal) : null,
    };
  }
  const returned = url.searchParams.get("returned") ?? "";
  if (!FILL_PATH.test(returned)) throw redirect("/surveys");
  return { returned, patientPage: null, refused: null };
}

/** "Sign in again": the provider's sign-in for the hand-over's staff member. */
export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return beginHandoverReturn(request);
}

export const meta: MetaFunction<typeof loader> = ({ matches }) => pageTitle(matches, "handover.signInTitle");

export default function HandoverReturnPage() {
  const data = useLoaderData<typeof loader>();
  return data.returned ? <Returned to={data.returned} /> : <SignInAgain {...data} />;
}

/** Back with staff: the device's record of the hand-over ends too, then the case opens for staff. */
function Returned({ to }: { to: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    void (async () => {
      const [{ requireHolder }, { endDeviceHandover }] = await Promise.all([
        import("~/offline/vault"),
        import("~/offline/handover-device"),
      ]);
      await endDeviceHandover(await requireHolder());
    })()
      .catch(() => undefined)
      .finally(() => window.location.replace(to));
  }, [to]);
  return (
    <section className="page" aria-labelledby="handover-return-title">
      <h1 id="handover-return-title">{t("handover.signInTitle")}</h1>
      <p role="status" data-testid="handover-returning">
        {t("handover.returning")}
      </p>
      <noscript>
        <a href={to}>{t("handover.backToCase")}</a>
      </noscript>
    </section>
  );
}

function SignInAgain({ patientPage, refused }: { patientPage: string | null; refused: ReturnRefusal | null }) {
  const { t } = useTranslation();
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    const update = () => setOffline(!navigator.onLine);
    update();
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return (
    <section className="page" aria-labelledby="handover-return-title">
      <h1 id="handover-return-title">{t("handover.signInTitle")}</h1>
      {refused ? (
        <p className="notice notice--error" role="alert" data-testid="handover-return-refused">
          {t(`handover.returnRefused.${refused}`)}
        </p>
      ) : null}
      {offline ? (
        <p className="notice" role="status">
          {t("handover.signInOffline")}
        </p>
      ) : null}
      <p>{t("handover.signInExplain")}</p>
      <Form method="post" reloadDocument>
        <button type="submit" className="btn btn--primary" data-testid="handover-sign-in">
          {t("handover.signInSubmit")}
        </button>
      </Form>
      {patientPage ? (
        <p>
          <Link to={patientPage}>{t("handover.backToPatient")}</Link>
        </p>
      ) : null}
    </section>
  );
}
