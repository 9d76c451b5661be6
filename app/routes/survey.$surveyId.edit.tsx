import { moveCall } from "~/contracts/moves";
import { surveysApi } from "~/contracts/surveys";
import { usersApi } from "~/contracts/users";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { data, redirect } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { useActionData, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useState } from "react";
import { PreviewModal } from "~/components/fill/PreviewModal";
import { SavingProvider } from "~/components/editor/saving";
import { questionnaireNeedsWork } from "~/components/editor/PublishCheck";
import { EditorHeader } from "~/components/editor/EditorHeader";
import { EditorTabs } from "~/components/editor/EditorTabs";
import { EditorActionSchema } from "~/domain/editor-forms";
import { parseForm } from "~/domain/forms";
import { LanguagesTab } from "~/components/editor/languages/LanguagesTab";
import { PreliminaryTab } from "~/components/editor/preliminary/PreliminaryTab";
import { QuestionnaireTab } from "~/components/editor/questionnaire/QuestionnaireTab";
import { RichTextTab } from "~/components/editor/richtext/RichTextTab";
import { StartTab } from "~/components/editor/start/StartTab";
import type { RouteHandle } from "~/components/layout/Header";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { pageTitle } from "~/components/layout/meta";
import { useHydrated } from "~/components/ui/useHydrated";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { setFlash } from "~/server/flash.server";
import { badForm, notFound, refusalMessage, refused } from "~/server/refusals.server";
import "~/components/editor/editor.css";
import "~/components/editor/languages/languages.css";

// The editor's and the statistics' texts come with the page (decision 015).
export const handle: RouteHandle & TextsHandle = { backToList: true, texts: ["authoring"] };

/** After an in-app navigation the page's texts arrive with its data; a first load has them already. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

function surveyId(params: { surveyId?: string }) {
  return positiveId(params.surveyId);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = surveyId(params);
  // Section 2: a survey that cannot be loaded sends the editor back to the list, with the reason.
  if (!id) return notFound(request, "errors.surveyNotFound", "/surveys");
  const api = apiClient(user.accessToken);
  const [survey, teams, tags] = await Promise.all([
    api.call(surveysApi.get, { params: { id } }),
    api.call(usersApi.teams),
    api.call(usersApi.tags),
  ]).catch((error: unknown) => refused(request, error, { back: "/surveys", notFound: "/surveys" }));
  if (!survey.Rights.CanEdit && !survey.Rights.CanApprove) throw redirect("/403");
  const asked = new URL(request.url).searchParams.get("confirm");
  const confirm: "publish" | "unpublish" | null = asked === "publish" || asked === "unpublish" ? asked : null;
  return {
    survey,
    teams,
    tags,
    editable: survey.Rights.CanEdit && survey.Status === "Draft",
    canApprove: survey.Rights.CanApprove,
    confirm,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = surveyId(params);
  if (!id) return notFound(request, "errors.surveyNotFound", "/surveys");
  const submission = parseForm(await request.formData(), EditorActionSchema, { keepEmpty: true });
  const api = apiClient(user.accessToken);
  const here = `/survey/${id}/edit`;
  const flash = async (kind: "success" | "error", key: string) => ({
    "Set-Cookie": await setFlash(request, { kind, key }),
  });
  if (submission.status !== "success") {
    const intent = submission.payload.intent;
    // The header form shows each field's message beside it, with and without JavaScript.
    if (intent === "save") return data(submission.reply(), { status: 400 });
    if (intent === "title") return data({ ok: false, error: titleError(submission.error) }, { status: 400 });
    return badForm(request, here);
  }
  const form = submission.value;

  if (form.intent === "move") {
    try {
      const move = moveCall(form.kind, form.id, form.newPosition, id);
      await api.call(move.contract, move.request);
    } catch (error) {
      return refused(request, error, { back: here });
    }
    return redirect(here);
  }
  if (form.intent === "title") {
    // Saved in place by the page: answer with the outcome so a failure restores the old title.
    try {
      await api.call(surveysApi.update, { params: { id }, body: { Title: form.title } });
      return { ok: true };
    } catch (error) {
      const { key, status, type } = refusalMessage(error);
      // Published or archived meanwhile (by an approver, in another tab): the answer names what it is now.
      const now =
        type === "SURVEY_INVALID_STATUS"
          ? await api.call(surveysApi.get, { params: { id } }).then(
              (survey) => survey.Status,
              () => undefined,
            )
          : undefined;
      return data({ ok: false, error: key, status: now }, { status });
    }
  }
  try {
    if (form.intent === "save") {
      const body = { StartDate: form.startDate, EndDate: form.endDate, Title: form.title };
      await api.call(surveysApi.update, { params: { id }, body });
      return redirect(here, { headers: await flash("success", "editor.saved") });
    }
    if (form.intent === "publish") {
      await api.call(surveysApi.approve, { params: { id } });
      return redirect("/surveys", { headers: await flash("success", "editor.published") });
    }
    await api.call(surveysApi.changeStatus, { params: { id }, query: { newStatusId: 1 } });
    return redirect(here, { headers: await flash("success", "editor.unpublished") });
  } catch (error) {
    // Publishing refused for its checks (section 2) says where to look for what is missing.
    const keys = form.intent === "publish" ? { VALIDATION_ERROR: "editor.publishNeeds" } : undefined;
    return refused(request, error, { back: here, keys });
  }
}

/** The in-place title's message: the title field's own, else the common one. */
function titleError(error: Record<string, string[] | null> | null | undefined): string {
  return error?.title?.[0] ?? "errors.validation";
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "editor.pageTitle", { title: loaded?.survey.Title ?? "" });

export default function SurveyEditor() {
  const { survey, teams, tags, editable, canApprove, confirm } = useLoaderData<typeof loader>();
  const answered = useActionData<typeof action>();
  // The header form's answer (a submission's reply); the in-place title's answer goes to its fetcher.
  const lastResult = answered && "initialValue" in answered ? answered : null;
  const hydrated = useHydrated();
  const [preview, setPreview] = useState(false);
  const props = { survey, teams, tags, editable };
  // The questionnaire tab is marked while it holds something that keeps the Draft from being published.
  const questionnaireMark = survey.Status === "Draft" && questionnaireNeedsWork(survey);
  return (
    <SavingProvider>
      <section className="page editor" aria-label={survey.Title}>
        <EditorHeader
          // Drawn anew when the period or the status changed on the server (its fields start from them). Not
          // for the title: the title follows its saved value itself, and a header drawn anew would drop the
          // "Gespeichert" its save has just said.
          key={`${survey.StartDate}|${survey.EndDate}|${survey.Status}`}
          survey={survey}
          editable={editable}
          canApprove={canApprove}
          confirm={confirm}
          hydrated={hydrated}
          lastResult={lastResult}
          onPreview={() => setPreview(true)}
        />
        <PreviewModal survey={survey} open={preview} onClose={() => setPreview(false)} />
        <EditorTabs
          hydrated={hydrated}
          marks={{ questionnaire: questionnaireMark }}
          panels={{
            start: <StartTab {...props} />,
            intro: <RichTextTab {...props} field="IntroText" />,
            preliminary: <PreliminaryTab {...props} />,
            questionnaire: <QuestionnaireTab {...props} />,
            outro: <RichTextTab {...props} field="OutroText" />,
            languages: <LanguagesTab {...props} />,
          }}
        />
      </section>
    </SavingProvider>
  );
}
