import { type ApiResult } from "~/api-client";
import { useNavigate } from "@remix-run/react";
import { memo, useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { LocalAttachments } from "~/components/offline/LocalAttachments";
import { useToast } from "~/components/ui/Toaster";
import { useHydrated } from "~/components/ui/useHydrated";
import { useRefusal } from "~/components/ui/useRefusal";
import { afterLoad } from "~/offline/after-load";
import { keepCopy, type FillData } from "~/offline/fill-local";
import { fillWriters } from "~/offline/fill-sinks";
import { Attachments } from "./Attachments";
import { FillFlow } from "./FillFlow";
import type { PageProblems } from "~/domain/page-problems";
import type { FillPage } from "~/domain/fill-pages";

/** The fill page, online (answers to the API) or from this device's copy (answers kept here). */
export const FillPageView = memo(function FillPageView({ d, problems }: { d: FillData; problems?: PageProblems }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const toast = useToast();
  const refuse = useRefusal();
  const { t } = useTranslation();
  const [local, setLocal] = useState(d.offline);
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
        onLocal: () => setLocal(true),
      }),
    [d],
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

  return (
    <section className="page" aria-label={d.survey.Title}>
      {local ? (
        <p className="notice" role="status" data-testid="fill-offline-notice">
          {t("offline.fillKeptLocally")}
        </p>
      ) : null}
      <FillFlow
        key={`${d.patientId}|${d.page}`}
        survey={d.survey}
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
        closed={d.closed}
        local={local}
        attachments={(q) =>
          local ? (
            <LocalAttachments question={q} context={context} />
          ) : (
            <Attachments
              question={q}
              surveyId={d.survey.Id}
              patientDataId={d.patientDataId}
              userId={d.userId}
              surveyUserDataId={d.surveyUserDataId}
              count={d.attachmentCounts[q.Id] ?? 0}
              initial={d.attachments[q.Id]}
              refused={problems?.files?.[q.Id]}
              named={!hydrated}
            />
          )
        }
      />
    </section>
  );
});
