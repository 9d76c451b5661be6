import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { positiveId } from "~/domain/ids";
import { useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useState } from "react";
import { PreviewModal } from "~/components/fill/PreviewModal";
import { EditorHeader } from "~/components/editor/EditorHeader";
import { EditorTabs } from "~/components/editor/EditorTabs";
import { isMoveKind, movePath } from "~/components/editor/moves";
import { PreliminaryTab } from "~/components/editor/preliminary/PreliminaryTab";
import { QuestionnaireTab } from "~/components/editor/questionnaire/QuestionnaireTab";
import { RichTextTab } from "~/components/editor/richtext/RichTextTab";
import { StartTab } from "~/components/editor/start/StartTab";
import type { RouteHandle } from "~/components/layout/Header";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { pageTitle } from "~/components/layout/meta";
import { useHydrated } from "~/components/ui/useHydrated";
import { SurveySchema } from "~/domain/survey";
import type { Tag, Team } from "~/domain/user";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { setFlash } from "~/server/flash.server";
import { notFound, refusal, refused } from "~/server/refusals.server";

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
    api.get(`/surveys/${id}`, { schema: SurveySchema }),
    api.get<Team[]>("/teams"),
    api.get<Tag[]>("/tags"),
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
  const form = await request.formData();
  const intent = form.get("intent");
  const api = apiClient(user.accessToken);
  const here = `/survey/${id}/edit`;
  const flash = async (kind: "success" | "error", key: string) => ({
    "Set-Cookie": await setFlash(request, { kind, key }),
  });

  if (intent === "move") {
    // Move up / move down without JavaScript (with it, the page calls the API itself).
    const kind = form.get("kind");
    const itemId = Number(form.get("id"));
    const to = Number(form.get("newPosition"));
    if (isMoveKind(kind) && Number.isInteger(itemId) && Number.isInteger(to)) {
      try {
        await api.post(movePath(kind, itemId, to, id));
      } catch (error) {
        return refused(request, error, { back: here });
      }
    }
    return redirect(here);
  }
  if (intent === "title") {
    // Saved in place by the page: answer with the outcome so a failure restores the old title.
    try {
      await api.put(`/surveys/${id}`, { body: { Title: String(form.get("title") ?? "") } });
      return { ok: true };
    } catch (error) {
      const { key, status } = refusal(error);
      return data({ ok: false, error: key }, { status });
    }
  }
  try {
    if (intent === "save") {
      const body: Record<string, string> = {
        StartDate: String(form.get("startDate") ?? "").trim(),
        EndDate: String(form.get("endDate") ?? "").trim(),
      };
      if (form.has("title")) body.Title = String(form.get("title"));
      await api.put(`/surveys/${id}`, { body });
      return redirect(here, { headers: await flash("success", "editor.saved") });
    }
    if (intent === "publish") {
      await api.post(`/surveys/${id}/approve`);
      return redirect("/surveys", { headers: await flash("success", "editor.published") });
    }
    if (intent === "unpublish") {
      await api.put(`/surveys/${id}/change-status`, { query: { newStatusId: 1 } });
      return redirect(here, { headers: await flash("success", "editor.unpublished") });
    }
  } catch (error) {
    // Publishing refused for its checks (section 2) says where to look for what is missing.
    const keys = intent === "publish" ? { VALIDATION_ERROR: "editor.publishNeeds" } : undefined;
    return refused(request, error, { back: here, keys });
  }
  return redirect(here);
}

export const meta: MetaFunction<typeof loader> = ({ matches, data: loaded }) =>
  pageTitle(matches, "editor.pageTitle", { title: loaded?.survey.Title ?? "" });

export default function SurveyEditor() {
  const { survey, teams, tags, editable, canApprove, confirm } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const [preview, setPreview] = useState(false);
  const props = { survey, teams, tags, editable };
  const missingQuestions = survey.Categories.length === 0 || survey.Categories.some((c) => c.Questions.length === 0);
  return (
    <section className="page editor" aria-label={survey.Title}>
      <EditorHeader
        key={`${survey.Title}|${survey.StartDate}|${survey.EndDate}|${survey.Status}`}
        survey={survey}
        editable={editable}
        canApprove={canApprove}
        confirm={confirm}
        hydrated={hydrated}
        onPreview={() => setPreview(true)}
      />
      <PreviewModal survey={survey} open={preview} onClose={() => setPreview(false)} />
      <EditorTabs
        hydrated={hydrated}
        marks={{ questionnaire: missingQuestions }}
        panels={{
          start: <StartTab {...props} />,
          intro: <RichTextTab {...props} field="IntroText" />,
          preliminary: <PreliminaryTab {...props} />,
          questionnaire: <QuestionnaireTab {...props} />,
          outro: <RichTextTab {...props} field="OutroText" />,
        }}
      />
    </section>
  );
}
