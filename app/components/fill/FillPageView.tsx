import { type ApiResult } from "~/api-client";
import { useNavigate, useRouteLoaderData } from "@remix-run/react";
import { fillPageTitle } from "~/components/layout/meta";
import { memo, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "~/texts";
import { useToast } from "~/components/ui/Toaster";
import { lazyPart } from "~/components/ui/lazy-part";
import { useHydrated } from "~/components/ui/useHydrated";
import { useRefusal } from "~/components/ui/useRefusal";
import { afterLoad } from "~/offline/after-load";
import { onCaseSynced } from "~/offline/case-synced";
import { useOnline } from "~/offline/connectivity";
import { keepCopy, type CaseClosed, type FillData } from "~/offline/fill-local";
import { fillWriters } from "~/offline/fill-sinks";
import { FillLanguage } from "./FillLanguage";
import { caseLanguages, fillWordsOf } from "~/domain/case-language";
import { translateSurvey, type ContentLanguage } from "~/domain/languages";
import { loadFillTexts } from "~/locale-files";
import { FillFlow } from "./FillFlow";
import type { PageProblems } from "~/domain/page-problems";
import type { FillPage } from "~/domain/fill-pages";

/**
 * A question's files, loaded on demand: only the questions that take files draw them (most surveys have
 * none), and the device's own copy of them only in a case continued from this device. The service worker
 * keeps their code with the rest (offline-assets.json).
 */
const Attachments = lazyPart(() => import("./Attachments").then((m) => m.Attachments));
const LocalAttachments = lazyPart(() =>
  import("~/components/offline/LocalAttachments").then((m) => m.LocalAttachments),
);

/**
 * The fill page, online (answers to the API) or from this device's copy (answers kept here), in the case's
 * language (docs/decisions/055-fill-languages.md): switched here, the page stays as it is, with everything typed
 * on it; only its words change. A page drawn anew comes with the language as stored.
 */
export const FillPageView = memo(function FillPageView({ d, problems }: { d: FillData; problems?: PageProblems }) {
  const [language, setLanguage] = useState(d.language);
  useEffect(() => setLanguage(d.language), [d]);
  // A copy kept before languages has none: it is its source language.
  const languages = useMemo(() => caseLanguages(d.survey), [d.survey]);
  const survey = useMemo(
    () => (language === languages[0] ? d.survey : translateSurvey(d.survey, language)),
    [d.survey, language, languages],
  );
  // A survey in one language only speaks the staff's words around its texts, as before surveys had languages;
  // with a choice of languages, the case's language is the page's (decision 055).
  const words = fillWordsOf(d.survey, language);
  // The document's title follows a switch made here (the route's meta names the language the page came with).
  const root = useRouteLoaderData("root") as { locale?: string } | undefined;
  useEffect(() => {
    const text = document.querySelector("head > title")?.firstChild;
    if (text) text.nodeValue = fillPageTitle(root?.locale, survey.Title, language);
  }, [language, survey.Title, root?.locale]);
  return (
    <FillLanguage lang={language} words={words} className="page" label={survey.Title}>
      <FillPageBody
        d={d}
        problems={problems}
        survey={survey}
        language={language}
        languages={languages}
        onLanguage={setLanguage}
      />
    </FillLanguage>
  );
});

/** The page inside its language's region: every word it says (notices, refusals) is in the case's language. */
function FillPageBody({
  d,
  problems,
  survey,
  language,
  languages,
  onLanguage,
}: {
  d: FillData;
  problems?: PageProblems;
  survey: FillData["survey"];
  language: ContentLanguage;
  languages: ContentLanguage[];
  onLanguage: (language: ContentLanguage) => void;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const toast = useToast();
  const refuse = useRefusal();
  const { t } = useTranslation();
  const [local, setLocal] = useState(d.offline);
  const online = useOnline();
  // After the sync put this fill on the server: the case it made, its files there, its close.
  const [patientDataId, setPatientDataId] = useState(d.patientDataId);
  const [resumed, setResumed] = useState(false);
  const [closedBySync, setClosedBySync] = useState<CaseClosed | null>(null);
  const [switching, setSwitching] = useState(false);
  // Opened online: this device's copy of the survey, and of this open case, is kept fresh once the page has
  // started, so that the case can be continued here without a network (docs/decisions/038).
  useEffect(() => {
    if (d.offline) return;
    return afterLoad(
      () =>
        void keepCopy(d.survey)
          .then(() => import("~/offline/case-copies"))
          .then((m) => m.keepCaseOpened(d))
          .catch(() => undefined),
    );
  }, [d]);
  const base = `/survey/${d.survey.Id}/fill/${encodeURIComponent(d.patientId)}`;
  const hrefOf = useCallback(
    (page: FillPage, categoryId?: number) => `${base}?page=${page}${categoryId ? `&category=${categoryId}` : ""}`,
    [base],
  );
  const writers = useMemo(
    () =>
      fillWriters({
        survey: d.survey,
        patientId: d.patientId,
        patientDataId: d.patientDataId || undefined,
        userId: d.userId,
        surveyUserDataId: d.surveyUserDataId,
        answers: d.answers,
        preliminary: d.preliminary,
        version: d.version,
        base: d.base,
        offline: d.offline,
        language: d.language,
        onLocal: () => setLocal(true),
      }),
    [d],
  );
  // The sync put this case on the server (decision 009): the page continues it there once nothing of it is
  // left on the device.
  useEffect(
    () =>
      onCaseSynced(d.survey.Id, d.patientId, (synced) => {
        writers.synced(synced);
        if (synced.patientDataId) setPatientDataId(synced.patientDataId);
        if (!synced.done) return;
        void writers.resume().then((back) => {
          if (!back) return;
          setLocal(false);
          setResumed(true);
          if (synced.closed) setClosedBySync({ at: null, signature: null });
        });
      }),
    [writers, d.survey.Id, d.patientId],
  );
  const context = useMemo(
    () => ({
      survey: d.survey,
      patientId: d.patientId,
      userId: d.userId,
      surveyUserDataId: d.surveyUserDataId,
    }),
    [d],
  );

  const onRefused = useCallback(
    (result: Extract<ApiResult<unknown>, { ok: false }>) => {
      if (result.type === "SURVEY_PATIENTID_NOT_FOUND") {
        toast("error", t("fill.patientNotFound"));
        return navigate(`/survey/${d.survey.Id}`);
      }
      if (result.type === "SURVEY_ALREADY_CLOSED") {
        toast("error", t("fill.surveyCantBeFilledAlreadyClosed"));
        return navigate(`/survey/${d.survey.Id}`);
      }
      refuse(result, { key: result.status >= 500 ? "errors.server" : "fill.saveFailed" });
    },
    [navigate, toast, t, refuse, d.survey.Id],
  );

  const switchLanguage = useCallback(
    async (next: ContentLanguage) => {
      setSwitching(true);
      try {
        // The new language's words first (offline: from the kept files), then the case keeps it.
        await loadFillTexts(next);
        const result = await writers.setLanguage(next);
        if (!result.ok) return void refuse(result, { key: "fill.languageFailed" });
        onLanguage(next);
      } catch {
        toast("error", t("fill.languageFailed"));
      } finally {
        setSwitching(false);
      }
    },
    [writers, refuse, toast, t, onLanguage],
  );
  const choice = useMemo(
    () => ({
      languages,
      current: language,
      onSwitch: (next: ContentLanguage) => void switchLanguage(next),
      busy: switching,
    }),
    [languages, language, switchLanguage, switching],
  );

  return (
    <>
      {local && !online ? (
        <p className="notice" role="status" data-testid="fill-offline-notice">
          {t("offline.fillKeptLocally")}
        </p>
      ) : null}
      <FillFlow
        key={`${d.patientId}|${d.page}`}
        survey={survey}
        language={choice}
        patientId={d.patientId}
        initialAnswers={d.answers}
        initialPreliminary={d.preliminary}
        page={d.page}
        categoryId={d.categoryId}
        resumed={d.resumed}
        preview={false}
        hydrated={hydrated}
        go={(page, categoryId, replace) =>
          navigate(hrefOf(page, categoryId), { preventScrollReset: page === "questionnaire", replace })
        }
        hrefOf={hrefOf}
        sink={writers.sink}
        savePreliminary={writers.savePreliminary}
        close={writers.close}
        sign={() => {
          // Signing is a fresh sign-in at the provider: it needs a connection (decision 029).
          if (local || !navigator.onLine) return toast("info", t("fill.signNeedsConnection"));
          window.location.assign(`/survey/${d.survey.Id}/sign/${encodeURIComponent(d.patientId)}`);
        }}
        onRefused={onRefused}
        problems={problems}
        formKey={d.formKey}
        closed={closedBySync ?? d.closed}
        toReview={d.toReview ?? null}
        local={local}
        attachments={(q) =>
          local ? (
            <LocalAttachments question={q} context={context} />
          ) : (
            <Attachments
              question={q}
              surveyId={d.survey.Id}
              patientDataId={patientDataId}
              userId={d.userId}
              surveyUserDataId={d.surveyUserDataId}
              // Back from the device, the files the sync uploaded are asked of the server.
              count={resumed ? null : (d.attachmentCounts[q.Id] ?? 0)}
              initial={resumed ? undefined : d.attachments[q.Id]}
              refused={problems?.files?.[q.Id]}
            />
          )
        }
      />
    </>
  );
}
