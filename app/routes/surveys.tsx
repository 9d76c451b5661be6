import { surveysApi } from "~/contracts/surveys";
import { usersApi } from "~/contracts/users";
import { keyForWrite, newIdempotencyKey } from "~/domain/idempotency";
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type SerializeFrom,
} from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ClientLoaderFunctionArgs,
} from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useGivenBeforeStart } from "~/components/ui/useGivenBeforeStart";
import { useTranslation } from "~/texts";
import { pageTitle } from "~/components/layout/meta";
import { SurveyRow } from "~/components/surveys/SurveyRow";
import { ConfirmDialog } from "~/components/ui/ConfirmDialog";
import { Menu } from "~/components/ui/Menu";
import { SearchBox } from "~/components/ui/SearchBox";
import { useToast } from "~/components/ui/Toaster";
import { useOnline } from "~/offline/connectivity";
import { useDownloads } from "~/offline/downloads";
import { afterLoad } from "~/offline/after-load";
import { keepDrawnList, listClientLoader } from "~/offline/list-local";
import { apiClient } from "~/server/api-client.server";
import { badForm, refused } from "~/server/refusals.server";
import { parseForm } from "~/domain/forms";
import { SurveyListFormSchema } from "~/domain/page-forms";
import { requireUser } from "~/server/auth/guards.server";
import { setFlash } from "~/server/flash.server";
import { importFromForm, ImportFormSchema, importLabels } from "~/server/fhir-import-page.server";
import { localeFromRequest } from "~/server/i18n.server";

/** The FHIR import, loaded when it is opened (its texts come with it from the server). */
const ImportDialog = lazy(() => import("~/components/surveys/ImportDialog").then((m) => ({ default: m.ImportDialog })));

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.slice(0, 200) ?? "";
  const api = apiClient(user.accessToken);
  const [me, list] = await Promise.all([
    api.call(usersApi.current),
    api.call(surveysApi.list, { query: { filterString: q || undefined } }),
  ]).catch((error: unknown) => refused(request, error));
  const [kind, id] = (url.searchParams.get("confirm") ?? "").split(":");
  const target = list.Data.find((s) => String(s.Id) === id);
  return {
    me: { fullName: me.FullName, institute: me.Institute, roles: me.SurveyAccessRoles },
    surveys: list.Data,
    q,
    confirm: target && (kind === "clone" || kind === "archive") ? { kind, id: target.Id, title: target.Title } : null,
    // The Import dialog's texts, only while it is open (the list's language file stays small).
    importTexts:
      url.searchParams.get("import") === "1" && me.SurveyAccessRoles.includes("SsiEditor")
        ? importLabels(localeFromRequest(request))
        : null,
    // Sent back with the page's forms: the same form sent twice creates one survey (decision 018).
    formKey: newIdempotencyKey(),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const data = await request.formData();
  const intent = data.get("intent");
  if (intent === "import-preview" || intent === "import") {
    // The Import dialog (a FHIR Questionnaire): its answer is drawn in the dialog; a new survey opens, at
    // once when everything was kept, else after the dialog has said once more what was not.
    const parsed = ImportFormSchema.safeParse(Object.fromEntries(data));
    if (!parsed.success) return badForm(request, "/surveys?import=1");
    try {
      const answer = await importFromForm(apiClient(user.accessToken), parsed.data, localeFromRequest(request));
      if (answer.import !== "created" || answer.notKept.length > 0) return answer;
      return redirect(`/survey/${answer.surveyId}/edit#start`, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "success", key: "surveys.import.done" }) },
      });
    } catch (error) {
      return refused(request, error, { back: "/surveys?import=1" });
    }
  }
  const submission = parseForm(data, SurveyListFormSchema);
  if (submission.status !== "success") return badForm(request, "/surveys");
  const form = submission.value;
  const api = apiClient(user.accessToken);
  const back = "/surveys" + (form.q ? `?q=${encodeURIComponent(form.q)}` : "");
  try {
    if (form.intent === "create") {
      const idempotencyKey = keyForWrite(form.formKey, "create");
      const survey = await api.call(surveysApi.create, { body: {} }, { idempotencyKey });
      return redirect(`/survey/${survey.Id}/edit#start`);
    }
    if (form.intent === "clone") {
      await api.call(
        surveysApi.clone,
        { params: { id: form.id } },
        { idempotencyKey: keyForWrite(form.formKey, "clone", form.id) },
      );
      return redirect(back, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "success", key: "surveys.surveyWasCloned" }) },
      });
    }
    if (form.intent === "archive") {
      await api.call(surveysApi.archive, { params: { id: form.id } });
      return redirect(back, {
        headers: { "Set-Cookie": await setFlash(request, { kind: "success", key: "surveys.surveyWasArchived" }) },
      });
    }
  } catch (error) {
    return refused(request, error, { back, notFound: back });
  }
  return redirect(back);
}

export async function clientLoader(args: ClientLoaderFunctionArgs) {
  return listClientLoader<SerializeFrom<typeof loader>>(args);
}

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "surveys.title");

export default function Surveys() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const { me, surveys: all, q, confirm, formKey, importTexts } = loaded;
  const imported = useActionData<typeof action>();
  useEffect(() => afterLoad(() => keepDrawnList(loaded)), [loaded]);
  const downloads = useDownloads();
  const toast = useToast();
  const [readyOnly, setReadyOnly] = useState(false);
  const readyBox = useRef<HTMLInputElement>(null);
  // Ticked before the page's script ran, the box filters once it runs.
  useGivenBeforeStart(readyBox, (box) => setReadyOnly(box.checked));
  const surveys = readyOnly ? all.filter((s) => downloads.ids.has(s.Id)) : all;
  const navigation = useNavigation();
  const online = useOnline();
  const isEditor = me.roles.includes("SsiEditor");
  const creating = navigation.state !== "idle" && navigation.formData?.get("intent") === "create";
  const listHref = q ? `/surveys?q=${encodeURIComponent(q)}` : "/surveys";
  const confirmHref = (value: string) => `/surveys?${new URLSearchParams({ ...(q ? { q } : {}), confirm: value })}`;

  return (
    <section className="page" aria-labelledby="surveys-title">
      <div className="page__head">
        <h1 id="surveys-title">{t("surveys.title")}</h1>
        <p className="greeting" data-testid="greeting">
          <span className="greeting__name">{t("surveys.greeting", { name: me.fullName })}</span>
          {me.institute ? <span className="greeting__institute">{me.institute}</span> : null}
        </p>
      </div>
      {surveys.length > 0 ? (
        <a
          href="#survey-list"
          className="skip-link skip-link--inline"
          onClick={(event) => {
            event.preventDefault();
            document.getElementById("survey-list")?.focus();
          }}
        >
          {t("surveys.skipToList")}
        </a>
      ) : null}
      <div className="toolbar">
        <SearchBox
          q={q}
          label={t("surveys.searchLabel")}
          placeholder={t("surveys.searchPlaceholder")}
          buttonLabel={t("surveys.searchButton")}
        />
        <label className="check toolbar__ready">
          <input
            type="checkbox"
            ref={readyBox}
            checked={readyOnly}
            onChange={(e) => setReadyOnly(e.target.checked)}
            data-testid="ready-filter"
          />{" "}
          {t("offline.readyFilter")}
        </label>
        <div className="toolbar__actions">
          {isEditor ? (
            <Form method="post">
              <input type="hidden" name="intent" value="create" />
              <input type="hidden" name="formKey" value={formKey} />
              <button type="submit" className="btn btn--primary" disabled={creating || !online}>
                {creating ? t("surveys.adding") : t("surveys.add")}
              </button>
            </Form>
          ) : null}
          {isEditor ? (
            <Link
              to={`/surveys?${new URLSearchParams({ ...(q ? { q } : {}), import: "1" })}`}
              className="btn"
              aria-disabled={!online || undefined}
              onClick={(e) => !online && e.preventDefault()}
              preventScrollReset
              data-testid="import-open"
            >
              {t("surveys.import.open")}
            </Link>
          ) : null}
          <Menu label={t("surveys.moreActions")}>
            <Link
              to="/survey-archives"
              className="menu__item"
              aria-disabled={!online || undefined}
              onClick={(e) => !online && e.preventDefault()}
            >
              {t("surveys.archive")}
            </Link>
          </Menu>
        </div>
      </div>
      {surveys.length === 0 && readyOnly ? (
        // Offline, only what was downloaded can be filled: say that nothing is yet, and how it gets here.
        <div className="empty" role="status" data-testid="ready-empty">
          <p>{q ? t("offline.readyEmptySearch", { q }) : t("offline.readyEmpty")}</p>
          <p>{t("offline.readyHowTo", { action: t("offline.download") })}</p>
        </div>
      ) : surveys.length === 0 ? (
        <p className="empty" role="status">
          {q ? t("surveys.emptySearch", { q }) : t("surveys.empty")}
        </p>
      ) : (
        <ul id="survey-list" className="rows" tabIndex={-1} aria-label={t("surveys.count", { count: surveys.length })}>
          {surveys.map((s) => (
            <SurveyRow
              key={s.Id}
              survey={s}
              q={q}
              isEditor={isEditor}
              confirmHref={confirmHref}
              offline={{
                downloaded: downloads.ids.has(s.Id),
                downloading: downloads.busy.has(s.Id),
                download: async () => {
                  const ok = await downloads.download(s.Id);
                  toast(ok ? "success" : "error", t(ok ? "offline.downloadDone" : "offline.downloadFailed"));
                },
              }}
            />
          ))}
        </ul>
      )}
      {importTexts ? (
        <Suspense fallback={null}>
          <ImportDialog
            texts={importTexts}
            state={imported ?? null}
            closeHref={listHref}
            againHref={`/surveys?${new URLSearchParams({ ...(q ? { q } : {}), import: "1" })}`}
            formKey={formKey}
          />
        </Suspense>
      ) : null}
      <ConfirmDialog
        open={confirm?.kind === "clone"}
        title={t("surveys.cloneTitleConfirm")}
        confirmLabel={t("surveys.confirmClone")}
        cancelLabel={t("surveys.cancel")}
        cancelHref={listHref}
        fields={{ intent: "clone", id: String(confirm?.id ?? ""), q, formKey }}
      >
        <p>{t("surveys.cloneConfirm", { title: confirm?.title ?? "" })}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm?.kind === "archive"}
        title={t("surveys.archiveTitleConfirm")}
        confirmLabel={t("surveys.yes")}
        cancelLabel={t("surveys.no")}
        cancelHref={listHref}
        fields={{ intent: "archive", id: String(confirm?.id ?? ""), q }}
      >
        <p>{t("surveys.archiveConfirm", { title: confirm?.title ?? "" })}</p>
      </ConfirmDialog>
    </section>
  );
}
