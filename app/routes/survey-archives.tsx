import { surveysApi } from "~/contracts/surveys";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { Form, Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import { SurveyDates } from "~/components/surveys/SurveyRow";
import { Initial, StatusLabel } from "~/components/surveys/StatusLabel";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { Highlight } from "~/components/ui/Highlight";
import { Menu } from "~/components/ui/Menu";
import { SearchBox } from "~/components/ui/SearchBox";
import { reportNetworkError, useOnline } from "~/offline/connectivity";
import { isNetworkError } from "~/offline/network";
import { apiClient } from "~/server/api-client.server";
import { badForm, refused } from "~/server/refusals.server";
import { parseForm } from "~/domain/forms";
import { ArchiveFormSchema } from "~/domain/page-forms";
import { hasRole, requireUser } from "~/server/auth/guards.server";
import { setFlash } from "~/server/flash.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.slice(0, 200) ?? "";
  const list = await apiClient(user.accessToken)
    .call(surveysApi.list, { query: { Archived: true, filterString: q || undefined } })
    .catch((error: unknown) => refused(request, error));
  const [kind, id] = (url.searchParams.get("confirm") ?? "").split(":");
  const target = list.Data.find((s) => String(s.Id) === id);
  return {
    surveys: list.Data,
    q,
    isEditor: hasRole(user, "SsiEditor"),
    confirm: kind === "delete" && target ? { id: target.Id, title: target.Title } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseForm(await request.formData(), ArchiveFormSchema);
  if (submission.status !== "success") return badForm(request, "/survey-archives");
  const { intent, id, q } = submission.value;
  const back = "/survey-archives" + (q ? `?q=${encodeURIComponent(q)}` : "");
  const api = apiClient(user.accessToken);
  try {
    if (intent === "restore") {
      await api.call(surveysApi.restore, { params: { id } });
      return redirect(back, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "success", key: "surveys.surveyWasRestored" }) },
      });
    }
    if (intent === "delete") {
      await api.call(surveysApi.remove, { params: { id } });
      return redirect(back, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "success", key: "surveys.surveyWasDeleted" }) },
      });
    }
  } catch (error) {
    return refused(request, error, { back, notFound: back });
  }
  return redirect(back);
}

/** Offline the archive is not available: the page says so instead of failing. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  try {
    return await serverLoader<typeof loader>();
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    reportNetworkError();
    return { surveys: [], q: "", isEditor: false, confirm: null };
  }
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "archive.title");

export default function SurveyArchives() {
  const { t } = useTranslation();
  const { surveys, q, isEditor, confirm } = useLoaderData<typeof loader>();
  const online = useOnline();
  const back = q ? `/survey-archives?q=${encodeURIComponent(q)}` : "/survey-archives";
  if (!online) {
    return (
      <section className="page page--narrow" aria-labelledby="archive-title">
        <h1 id="archive-title">{t("archive.title")}</h1>
        <p role="status">{t("archive.offline")}</p>
        <Link to="/surveys" className="btn">
          {t("archive.exit")}
        </Link>
      </section>
    );
  }
  return (
    <section className="page" aria-labelledby="archive-title">
      <div className="page__head">
        <h1 id="archive-title">{t("archive.title")}</h1>
        <Link to="/surveys" className="btn">
          <span aria-hidden="true">←</span> {t("archive.exit")}
        </Link>
      </div>
      <div className="toolbar">
        <SearchBox
          q={q}
          label={t("surveys.searchLabel")}
          placeholder={t("surveys.searchPlaceholder")}
          buttonLabel={t("surveys.searchButton")}
        />
      </div>
      {surveys.length === 0 ? (
        <p className="empty" role="status">
          {q ? t("surveys.emptySearch", { q }) : t("archive.empty")}
        </p>
      ) : (
        <ul className="rows" aria-label={t("archive.title")}>
          {surveys.map((s) => (
            <li key={s.Id} className="row" data-testid="archive-row">
              <Initial title={s.Title} />
              <div className="row__main">
                <span className="row__title">
                  <Highlight text={s.Title} query={q} />
                </span>
                <SurveyDates start={s.StartDate} end={s.EndDate} />
              </div>
              <div className="row__state">
                <StatusLabel status={s.Status} />
              </div>
              {isEditor && s.Rights.CanEdit ? (
                <Menu label={t("surveys.rowMenu", { title: s.Title })}>
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="id" value={s.Id} />
                    <input type="hidden" name="q" value={q} />
                    <button type="submit" className="menu__item">
                      {t("archive.restore")}
                    </button>
                  </Form>
                  <Link
                    to={`/survey-archives?${new URLSearchParams({ ...(q ? { q } : {}), confirm: `delete:${s.Id}` })}`}
                    className="menu__item"
                    preventScrollReset
                  >
                    {t("archive.delete")}
                  </Link>
                </Menu>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={Boolean(confirm)}
        title={t("archive.deleteTitle")}
        confirmLabel={t("archive.delete")}
        cancelLabel={t("surveys.cancel")}
        cancelHref={back}
        fields={{ intent: "delete", id: String(confirm?.id ?? ""), q }}
        danger
      >
        <p>{t("archive.deleteConfirm", { title: confirm?.title ?? "" })}</p>
      </ConfirmDialog>
    </section>
  );
}
