import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/server/responses.server";
import { positiveId } from "~/domain/ids";
import { Link, useLoaderData, type ClientLoaderFunctionArgs } from "@remix-run/react";
import { useTranslation } from "~/texts";
import type { RouteHandle } from "~/components/layout/Header";
import { ensureTexts, type TextsHandle } from "~/locale-files";
import { pageTitle } from "~/components/layout/meta";
import { AttachmentsModal } from "~/components/statistics/AttachmentsModal";
import { BenchmarkModal } from "~/components/statistics/BenchmarkModal";
import { FilterPanel } from "~/components/statistics/FilterPanel";
import { LabelLanguage, LanguageChoice } from "~/components/statistics/LanguageChoice";
import { FreeTextModal } from "~/components/statistics/FreeTextModal";
import { GraphsTab } from "~/components/statistics/graphs/GraphsTab";
import { ResultsTab } from "~/components/statistics/ResultsTab";
import { StatisticsHeader } from "~/components/statistics/StatisticsHeader";
import { viewHref } from "~/domain/statistics-view";
import { HashTabs } from "~/components/ui/HashTabs";
import { useHydrated } from "~/components/ui/useHydrated";
import type { QuestionStatistics, Statistics } from "~/domain/statistics";
import { apiClient } from "~/server/api-client.server";
import { requireUser } from "~/server/auth/guards.server";
import { statisticsAction } from "~/server/graphs-actions.server";
import { loadStatisticsPage } from "~/server/statistics-page.server";
import "~/components/statistics/statistics.css";

// The editor's and the statistics' texts come with the page (decision 015).
export const handle: RouteHandle & TextsHandle = { backToList: true, texts: ["authoring"] };

/** After an in-app navigation the page's texts arrive with its data; a first load has them already. */
export async function clientLoader({ serverLoader }: ClientLoaderFunctionArgs) {
  const [loaded] = await Promise.all([serverLoader<typeof loader>(), ensureTexts(["authoring"])]);
  return loaded;
}

const tabs = ["results", "graphs"] as const;

function surveyIdOf(params: { surveyId?: string }) {
  return positiveId(params.surveyId);
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = surveyIdOf(params);
  if (!id) throw redirect("/surveys");
  return loadStatisticsPage(request, apiClient(user.accessToken), id);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!surveyIdOf(params)) throw redirect("/surveys");
  return statisticsAction(request, apiClient(user.accessToken));
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageTitle(matches, "statistics.pageTitle", { title: data?.survey.Title ?? "" });

function findQuestion(statistics: Statistics, id: number): QuestionStatistics | undefined {
  const walk = (list: QuestionStatistics[]): QuestionStatistics | undefined => {
    for (const q of list) {
      if (q.QuestionId === id) return q;
      const below = walk(q.AnswerStatistics.flatMap((a) => a.SubQuestionStatistics));
      if (below) return below;
    }
    return undefined;
  };
  return walk(statistics.CategoryStatistics.flatMap((c) => c.QuestionStatistics));
}

export default function StatisticsPage() {
  const { survey, languages, several, view, filterData, patientIds, statistics, dashboard, benchmarkDashboard, modal } =
    useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const benchmarkTitle = statistics.Benchmark?.Title ?? null;
  const modalQuestion = modal && "questionId" in modal ? findQuestion(statistics, modal.questionId) : undefined;
  return (
    <LabelLanguage.Provider value={languages.chosen}>
      <section className="page stats">
        <StatisticsHeader
          survey={survey}
          completed={statistics.NumSurveyResponses}
          benchmarkTitle={benchmarkTitle}
          benchmarkHref={benchmarkTitle ? viewHref(view, { benchmark: null }) : `${viewHref(view, {})}&modal=benchmark`}
        />
        <LanguageChoice view={view} languages={languages} />
        <FilterPanel key={JSON.stringify(view.filters)} view={view} filterData={filterData} patientIds={patientIds} />
        <HashTabs
          tabs={tabs}
          label={t("statistics.tabs")}
          titleKey={(tab) => `statistics.tab.${tab}`}
          hydrated={hydrated}
          panels={{
            results: <ResultsTab statistics={statistics} view={view} several={several} />,
            graphs: <GraphsTab dashboard={dashboard} benchmark={benchmarkDashboard} filters={view.filters} />,
          }}
        />
        {/* After the figures: what an approver opens now and then, out of the way of the charts' drag and drop. */}
        {survey.Rights.CanApprove ? (
          <nav className="audit__links" aria-label={t("statistics.auditLinks")}>
            <Link to={`/survey/${survey.Id}/history`}>{t("statistics.caseHistory")}</Link>
            <Link to={`/survey/${survey.Id}/trail`}>{t("statistics.surveyTrail")}</Link>
          </nav>
        ) : null}
        {modal?.kind === "benchmark" ? <BenchmarkModal view={view} q={modal.q} entries={modal.entries} /> : null}
        {modal?.kind === "freetext" && modalQuestion ? (
          <FreeTextModal
            key={`${modal.questionId}:${modal.q}:${modal.take}`}
            view={view}
            surveyId={survey.Id}
            questionId={modal.questionId}
            title={modalQuestion.QuestionTitle}
            q={modal.q}
            take={modal.take}
            page={modal.page}
            historyLinks={survey.Rights.CanApprove}
          />
        ) : null}
        {modal?.kind === "files" && modalQuestion ? (
          <AttachmentsModal
            surveyId={survey.Id}
            view={view}
            questionId={modal.questionId}
            title={modalQuestion.QuestionTitle}
            type={modal.type}
            files={modal.files}
          />
        ) : null}
      </section>
    </LabelLanguage.Provider>
  );
}
