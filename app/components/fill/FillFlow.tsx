import { useCallback, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApiResult } from "~/components/editor/editor-api";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import { answerText, type Question, type Survey } from "~/domain/survey";
import { lastCategory, rememberCategory } from "~/offline/last-category";
import { ExitConfirm } from "./ExitConfirm";
import { FillHeader } from "./FillHeader";
import { CONFIRMATION_DELAY_MS, Finished, OUTRO_DELAY_MS } from "./Finished";
import { nextPage, pagePosition, pagesOf, previousPage, type FillPage } from "./pages";
import { PreliminaryPage } from "./PreliminaryPage";
import { QuestionnairePage } from "./QuestionnairePage";
import { useFillRules } from "./rules";
import { useAnswers, type AnswerSink } from "./useAnswers";

export interface FillFlowProps {
  survey: Survey;
  patientId: string;
  initialAnswers: Answers;
  initialPreliminary: PreliminaryAnswers;
  page: FillPage;
  categoryId: number | null;
  preview: boolean;
  hydrated: boolean;
  go: (page: FillPage, categoryId?: number) => void;
  hrefOf: (page: FillPage, categoryId?: number) => string;
  sink: AnswerSink;
  savePreliminary: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>;
  close: () => Promise<ApiResult<unknown>>;
  onRefused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void;
  attachments?: (question: Question) => React.ReactNode;
}

/** The whole fill flow of section 2: intro, preliminary, questionnaire, outro, confirmation. */
export function FillFlow(props: FillFlowProps) {
  const { t } = useTranslation();
  const { survey, patientId, page, preview, hydrated, go } = props;
  const pages = useMemo(() => pagesOf(survey), [survey]);
  const { index, total } = pagePosition(page, pages);
  const { answers, failed, answer } = useAnswers(props.initialAnswers, props.sink, props.onRefused);
  const [preliminary, setPreliminary] = useState<PreliminaryAnswers>(props.initialPreliminary);
  const [preliminaryFailed, setPreliminaryFailed] = useState<ReadonlySet<number>>(new Set());
  const [exit, setExit] = useState<{ question: Question; value: AnswerValue; text: string } | null>(null);
  // Saves in flight: the page is busy until each answer is kept (on the server or on the device).
  const [saving, setSaving] = useState(0);
  const track = useCallback(async <T,>(work: Promise<T>): Promise<T> => {
    setSaving((n) => n + 1);
    try {
      return await work;
    } finally {
      setSaving((n) => n - 1);
    }
  }, []);
  const rules = useFillRules(survey, answers, preliminary);
  const categories = survey.Categories;

  // The last chosen category is remembered per patient and survey (section 4): a category picked (it is in
  // the address) is kept; the page opened without one goes back to it once it runs. The preview keeps nothing.
  const [remembered, setRemembered] = useState<number | null>(null);
  const picked = props.categoryId;
  useEffect(() => {
    if (!hydrated || preview) return;
    if (picked !== null) return void rememberCategory(survey.Id, patientId, picked);
    let live = true;
    void lastCategory(survey.Id, patientId).then((id) => {
      if (live && id !== undefined) setRemembered(id);
    });
    return () => {
      live = false;
    };
  }, [hydrated, preview, picked, survey.Id, patientId]);
  const current =
    categories.find((c) => c.Id === picked) ?? categories.find((c) => c.Id === remembered) ?? categories[0];

  const submit = useCallback(async () => {
    if (!preview) {
      const result = await props.close();
      if (!result.ok) return props.onRefused(result);
    }
    go("done");
  }, [preview, props, go]);

  const onAnswer = (question: Question, value: AnswerValue | undefined) => {
    const exitOption = value?.AnswerOptionIds?.map((id) => question.AnswerOptions.find((o) => o.Id === id)).find(
      (o) => o?.IsExitAnswer && !answers[question.Id]?.AnswerOptionIds?.includes(o.Id),
    );
    if (exitOption && value) return setExit({ question, value, text: answerText(exitOption) });
    void track(answer(question, value));
  };

  const onPreliminary = async (attributeId: number, optionId: number) => {
    const previous = preliminary[attributeId];
    setPreliminary((p) => ({ ...p, [attributeId]: optionId }));
    const result = await track(props.savePreliminary(attributeId, optionId));
    setPreliminaryFailed((f) => {
      const next = new Set(f);
      if (result.ok) next.delete(attributeId);
      else next.add(attributeId);
      return next;
    });
    if (!result.ok) {
      setPreliminary((p) => {
        const next = { ...p };
        if (previous === undefined) delete next[attributeId];
        else next[attributeId] = previous;
        return next;
      });
      props.onRefused(result);
    }
  };

  return (
    <div className="fill" data-testid="fill" aria-busy={saving > 0 || undefined}>
      <FillHeader title={survey.Title} patientId={patientId} index={index} total={total} preview={preview} />
      {page === "intro" ? (
        <div className="fill-intro">
          <div className="rich" dangerouslySetInnerHTML={{ __html: survey.IntroText }} />
          <div className="fill-actions">
            <a
              className="btn btn--primary"
              href={props.hrefOf(nextPage("intro", pages))}
              onClick={(e) => (e.preventDefault(), go(nextPage("intro", pages)))}
            >
              {t("fill.continueIntro")}
            </a>
          </div>
        </div>
      ) : null}
      {page === "preliminary" ? (
        <PreliminaryPage
          attributes={survey.PatientForm.filter((a) => a.Enabled)}
          answers={preliminary}
          failed={preliminaryFailed}
          onAnswer={(a, o) => void onPreliminary(a, o)}
          hydrated={hydrated}
          preview={preview}
          onBack={() => go(previousPage("preliminary", pages))}
          onContinue={() => go("questionnaire")}
          onSave={() => go("outro")}
        />
      ) : null}
      {page === "questionnaire" && current ? (
        <QuestionnairePage
          categories={categories}
          current={current}
          answers={answers}
          statuses={rules.statuses}
          isVisible={rules.isVisible}
          failed={failed}
          onAnswer={onAnswer}
          hydrated={hydrated}
          hrefOf={(id) => props.hrefOf("questionnaire", id)}
          onPick={(id) => go("questionnaire", id)}
          onBack={() => go(previousPage("questionnaire", pages))}
          onSubmit={() => void submit()}
          attachments={props.attachments}
        />
      ) : null}
      {page === "outro" ? (
        <Finished
          delayMs={OUTRO_DELAY_MS}
          surveyId={survey.Id}
          html={survey.OutroText}
          hydrated={hydrated}
          preview={preview}
        />
      ) : null}
      {page === "done" ? (
        <Finished delayMs={CONFIRMATION_DELAY_MS} surveyId={survey.Id} hydrated={hydrated} preview={preview} />
      ) : null}
      {page === "done" && !preview ? <p className="hint">{t("fill.autoClose")}</p> : null}
      <ExitConfirm
        open={exit !== null}
        answer={exit?.text ?? ""}
        onReject={() => setExit(null)}
        onConfirm={async () => {
          if (!exit) return;
          setExit(null);
          if (await answer(exit.question, exit.value)) await submit();
        }}
      />
    </div>
  );
}
