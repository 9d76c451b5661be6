import { type ApiResult, type AnswerSink } from "~/api-client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import { answerText } from "~/domain/answer-text";
import type { Question, Survey } from "~/domain/survey";
import { lastPlace, rememberPlace } from "~/offline/last-category";
import { ClosedNote } from "./ClosedNote";
import type { CaseClosed } from "~/offline/fill-local";
import { ExitConfirm } from "./ExitConfirm";
import { focusHeading, movedOn } from "~/components/layout/page-focus";
import { FillHeader } from "./FillHeader";
import { CONFIRMATION_DELAY_MS, Finished, OUTRO_DELAY_MS } from "./Finished";
import type { PageProblems } from "~/domain/page-problems";
import {
  askedPreliminary,
  nextPage,
  pagePosition,
  pagesOf,
  preliminaryComplete,
  previousPage,
  type FillPage,
} from "~/domain/fill-pages";
import { PreliminaryPage } from "./PreliminaryPage";
import { QuestionnairePage } from "./QuestionnairePage";
import { isPlace } from "~/domain/fill-resume";
import { useFillRules } from "./rules";
import { useAnswers } from "./useAnswers";
import { questionsById } from "~/domain/visibility";

export interface FillFlowProps {
  survey: Survey;
  patientId: string;
  initialAnswers: Answers;
  initialPreliminary: PreliminaryAnswers;
  page: FillPage;
  categoryId: number | null;
  /** Opened without a page in its address: the place came from what the case holds (decision 019). */
  resumed?: boolean;
  preview: boolean;
  hydrated: boolean;
  /** Goes to a page; `replace` takes the place of the current entry in the history. */
  go: (page: FillPage, categoryId?: number, replace?: boolean) => void;
  hrefOf: (page: FillPage, categoryId?: number) => string;
  sink: AnswerSink;
  savePreliminary: (attributeId: number, optionId: number) => Promise<ApiResult<unknown>>;
  close: () => Promise<ApiResult<unknown>>;
  /** A survey that requires a signature: submitting goes to the signing page instead (decision 029). */
  sign?: () => void;
  onRefused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void;
  attachments?: (question: Question) => React.ReactNode;
  /** Without JavaScript: what the page's form could not take, to show on the page. */
  problems?: PageProblems;
  /** Sent back with the page's form (without JavaScript). */
  formKey?: string;
  /** The case closed: when, and by whose signature (the confirmation page says so). */
  closed?: CaseClosed | null;
  /** Filled on this device: closed when it is synced. */
  local: boolean;
}

/** The whole fill flow of section 2: intro, preliminary, questionnaire, outro, confirmation. */
export function FillFlow(props: FillFlowProps) {
  const { t } = useTranslation();
  const { survey, patientId, page, preview, hydrated, go } = props;
  const pages = useMemo(() => pagesOf(survey), [survey]);
  const { index, total } = pagePosition(page, pages);
  const questions = useMemo(() => questionsById(survey), [survey]);
  // The preview keeps nothing, typed values included.
  const typedCase = useMemo(
    () => (preview ? null : { surveyId: survey.Id, patientId, questionOf: (id: number) => questions.get(id) }),
    [preview, survey.Id, patientId, questions],
  );
  const { answers, failed, states, busy, answer, flush } = useAnswers(
    props.initialAnswers,
    props.sink,
    props.onRefused,
    typedCase,
  );
  const [preliminary, setPreliminary] = useState<PreliminaryAnswers>(props.initialPreliminary);
  const latestPreliminary = useRef(preliminary);
  latestPreliminary.current = preliminary;
  const [preliminaryFailed, setPreliminaryFailed] = useState<ReadonlySet<number>>(new Set());
  const [exit, setExit] = useState<{ question: Question; value: AnswerValue; text: string } | null>(null);
  // Saves in flight: the page is busy until each answer is kept (on the server or on the device).
  const [saving, setSaving] = useState(0);
  const inFlight = useRef(new Set<Promise<unknown>>());
  const track = useCallback(async <T,>(work: Promise<T>): Promise<T> => {
    setSaving((n) => n + 1);
    inFlight.current.add(work);
    try {
      return await work;
    } finally {
      inFlight.current.delete(work);
      setSaving((n) => n - 1);
    }
  }, []);
  // The page moves on only after the saves it started have ended: the next page's loader reads what they
  // wrote (the questionnaire is refused while a preliminary answer is not yet stored), and a case is not
  // closed while one of its answers is still on its way.
  const settled = useCallback(async () => {
    await flush();
    while (inFlight.current.size > 0) await Promise.allSettled([...inFlight.current]);
  }, [flush]);
  const rules = useFillRules(survey, answers, preliminary);
  // Each fill page (a new one is this component afresh) starts with focus on the heading, which names the
  // survey and the page's place ("Seite 2 von 4"), unless it is the page the visit began on.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (movedOn() && !preview) focusHeading(root.current?.querySelector("h1"));
  }, [preview]);
  const categories = survey.Categories;

  // Where the case was left is remembered per patient and survey on this device (section 4, decision 019):
  // the page and the category chosen last. A case opened without a page in its address goes back there once
  // the page runs; a questionnaire opened without a category shows the one chosen last. The preview keeps
  // nothing; the outro and the confirmation are not places to come back to.
  const [remembered, setRemembered] = useState<number | null>(null);
  const picked = props.categoryId;
  const first = categories[0]?.Id;
  const resumed = Boolean(props.resumed);
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    if (!hydrated || preview) return;
    let live = true;
    void lastPlace(survey.Id, patientId).then((kept) => {
      if (!live) return;
      const keptCategory = kept?.categoryId;
      if (resumed && kept?.page && pages.includes(kept.page)) {
        const elsewhere =
          kept.page !== page || (page === "questionnaire" && (keptCategory ?? first) !== (picked ?? first));
        if (elsewhere) return goRef.current(kept.page, kept.page === "questionnaire" ? keptCategory : undefined, true);
      }
      if (page === "questionnaire" && picked === null && keptCategory !== undefined) setRemembered(keptCategory);
      if (isPlace(page))
        void rememberPlace(survey.Id, patientId, {
          page,
          categoryId: page === "questionnaire" ? (picked ?? keptCategory) : keptCategory,
        });
    });
    return () => {
      live = false;
    };
  }, [hydrated, preview, picked, page, pages, first, resumed, survey.Id, patientId]);
  const current =
    categories.find((c) => c.Id === picked) ?? categories.find((c) => c.Id === remembered) ?? categories[0];

  const submit = useCallback(async () => {
    await settled();
    if (!preview && survey.RequiresSignature && props.sign) return props.sign();
    if (!preview) {
      const result = await props.close();
      if (!result.ok) return props.onRefused(result);
    }
    go("done");
  }, [preview, props, go, settled, survey.RequiresSignature]);

  const onAnswer = (question: Question, value: AnswerValue | undefined, typing = false) => {
    // A typed value is saved once typing pauses; the page is busy only while it is on its way.
    if (typing) return void answer(question, value, true);
    const exitOption = value?.AnswerOptionIds?.map((id) => question.AnswerOptions.find((o) => o.Id === id)).find(
      (o) => o?.IsExitAnswer && !answers[question.Id]?.AnswerOptionIds?.includes(o.Id),
    );
    if (exitOption && value) return setExit({ question, value, text: answerText(exitOption) });
    void track(answer(question, value));
  };

  // The preliminary answers as last set (the state as the next render will show it), so that "Next" after
  // the saves ended sees a refused answer already taken back.
  const setPreliminaryNow = (next: PreliminaryAnswers) => {
    latestPreliminary.current = next;
    setPreliminary(next);
  };
  const onPreliminary = (attributeId: number, optionId: number) =>
    track(
      (async () => {
        const previous = latestPreliminary.current[attributeId];
        setPreliminaryNow({ ...latestPreliminary.current, [attributeId]: optionId });
        const result = await props.savePreliminary(attributeId, optionId);
        setPreliminaryFailed((f) => {
          const next = new Set(f);
          if (result.ok) next.delete(attributeId);
          else next.add(attributeId);
          return next;
        });
        if (!result.ok) {
          const next = { ...latestPreliminary.current };
          if (previous === undefined) delete next[attributeId];
          else next[attributeId] = previous;
          setPreliminaryNow(next);
          props.onRefused(result);
        }
      })(),
    );

  return (
    <div ref={root} className="fill" data-testid="fill" aria-busy={saving > 0 || busy || undefined}>
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
          attributes={askedPreliminary(survey)}
          answers={preliminary}
          failed={preliminaryFailed}
          onAnswer={(a, o) => void onPreliminary(a, o)}
          hydrated={hydrated}
          preview={preview}
          incomplete={Boolean(props.problems?.preliminaryIncomplete)}
          action={props.hrefOf("preliminary")}
          onBack={() => go(previousPage("preliminary", pages))}
          onContinue={() =>
            void settled().then(() => {
              if (preview || preliminaryComplete(survey, latestPreliminary.current)) go("questionnaire");
            })
          }
          onSave={() => void settled().then(() => go("outro"))}
        />
      ) : null}
      {page === "questionnaire" && current ? (
        <QuestionnairePage
          categories={categories}
          current={current}
          answers={answers}
          statuses={rules.statuses}
          isVisible={rules.isVisible}
          subQuestionsOf={rules.subQuestionsOf}
          failed={failed}
          states={preview ? undefined : states}
          onAnswer={onAnswer}
          hydrated={hydrated}
          problems={props.problems?.values}
          formKey={props.formKey}
          hrefOf={(id) => props.hrefOf("questionnaire", id)}
          onPick={(id) => void settled().then(() => go("questionnaire", id))}
          onBack={() => void settled().then(() => go(previousPage("questionnaire", pages)))}
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
      {page === "done" && !preview ? (
        <ClosedNote patientId={patientId} closed={props.closed} local={props.local} />
      ) : null}
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
