import type { ApiResult } from "~/api-client";
import type { AnswerSink } from "~/answer-sink";
import { useNavigate, useRouteLoaderData } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { backFromQuestionnaire as backFromQuestionnaireOf } from "~/domain/handover";
import type { AnswerValue, Answers, PreliminaryAnswers } from "~/domain/answers";
import { answerText } from "~/domain/answer-text";
import type { Question, Survey } from "~/domain/survey";
import type { CaseClosed } from "~/offline/fill-local";
import { focusHeading, movedOn } from "~/components/layout/page-focus";
import { FillHeader } from "./FillHeader";
import { lazyPart } from "~/components/ui/lazy-part";
import type { LanguageChoice } from "./LanguageSwitch";
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
import { StaffWords } from "./StaffWords";
import { QuestionnairePage } from "./QuestionnairePage";
import { useFillRules } from "./rules";
import { IntroPage } from "./IntroPage";
import { useAnswers } from "./useAnswers";
import { usePreliminaryAnswers } from "./usePreliminaryAnswers";
import { useRememberedPlace } from "./useRememberedPlace";
import { useTrackedSaves } from "./useTrackedSaves";
import { questionsById } from "~/domain/visibility";

/** Outro delay 1.5 s, confirmation delay 2 s (section 9). */
const OUTRO_DELAY_MS = 1500;
const CONFIRMATION_DELAY_MS = 2000;

/**
 * The pages after the questions, loaded when a case comes to them (kept offline with the other scripts; a
 * page drawn on them by the server has them with it): a fill page starts with less code.
 */
const Finished = lazyPart(() => import("./Finished").then((m) => m.Finished));
const ClosedNote = lazyPart(() => import("./ClosedNote").then((m) => m.ClosedNote));
/** The question an exit answer asks, loaded the first time one is chosen; kept then, to close as a modal closes. */
const ExitConfirm = lazy(() => import("./ExitConfirm").then((m) => ({ default: m.ExitConfirm })));
/** The question a patient's early submit asks (decision 067), loaded the first time it is asked. */
const SubmitConfirm = lazy(() => import("./ExitConfirm").then((m) => ({ default: m.SubmitConfirm })));

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
  /** The editor's preview: each question's number as the editor shows it. */
  numbers?: ReadonlyMap<number, string>;
  /** The case's language and its switch in the header (docs/decisions/055-fill-languages.md). */
  language?: LanguageChoice;
  /** The patient fills through their link (decision 057): the header names no patient id. */
  byPatient?: boolean;
  /** Submitted by the patient, for staff to review and close (decision 057): when. */
  toReview?: string | null;
}

/** The whole fill flow of section 2: intro, preliminary, questionnaire, outro, confirmation. */
export function FillFlow(props: FillFlowProps) {
  const { survey, patientId, page, preview, hydrated, go } = props;
  const pages = useMemo(() => pagesOf(survey), [survey]);
  // Handed over (decision 058): the patient's way back ends where the pages staff keep begin.
  const handedOver = Boolean((useRouteLoaderData("root") as { handover?: unknown } | undefined)?.handover);
  // Back from the questionnaire, where there is a page before it that is not staff's (none for a questionnaire
  // that is the first page: "Back" there only drew the same page again).
  const patientAlone = handedOver || Boolean(props.byPatient);
  const backFromQuestionnaire = useMemo(() => backFromQuestionnaireOf(survey, patientAlone), [survey, patientAlone]);
  // Back from the case's first page: staff's start page of the survey (a patient alone has no page before it).
  const navigate = useNavigate();
  const toStart =
    patientAlone || preview ? undefined : () => void settled().then(() => navigate(`/survey/${survey.Id}`));
  // A patient answering alone (a link, or a device handed over) is asked before an early submit (decision 067).
  const asksEarlySubmit = !preview && (Boolean(props.byPatient) || handedOver);
  const [submitAsked, setSubmitAsked] = useState<boolean | null>(null);
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
  const prelim = usePreliminaryAnswers(props.initialPreliminary, props.savePreliminary, props.onRefused);
  const preliminary = prelim.answers;
  // An answer that ends the survey, waiting for its confirmation: a question's, or a preliminary question's.
  const [exit, setExit] = useState<
    | { question: Question; value: AnswerValue; text: string }
    | { attributeId: number; optionId: number; text: string }
    | null
  >(null);
  // Once asked, the question stays drawn (closed), so that closing it gives the focus back as a modal does.
  const exitAsked = useRef(false);
  if (exit !== null) exitAsked.current = true;
  const { saving, track, settled } = useTrackedSaves(flush);
  const rules = useFillRules(survey, answers, preliminary);
  // Each fill page (a new one is this component afresh) starts with focus on the heading, which names the
  // survey and the page's place ("Seite 2 von 4"), unless it is the page the visit began on.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (movedOn() && !preview) focusHeading(root.current?.querySelector("h1"));
  }, [preview]);
  const categories = survey.Categories;

  const picked = props.categoryId;
  const remembered = useRememberedPlace({
    surveyId: survey.Id,
    patientId,
    page,
    pages,
    picked,
    first: categories[0]?.Id,
    resumed: Boolean(props.resumed),
    hydrated,
    preview,
    go,
  });
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

  const onPreliminary = (attributeId: number, optionId: number) => {
    const option = survey.PatientForm.find((a) => a.Id === attributeId)?.AnswerOptions.find((o) => o.Id === optionId);
    if (option?.IsExitAnswer && preliminary[attributeId] !== optionId)
      return setExit({ attributeId, optionId, text: option.Text });
    void track(prelim.answer(attributeId, optionId));
  };

  return (
    <div ref={root} className="fill" data-testid="fill" aria-busy={saving || busy || undefined}>
      <FillHeader
        title={survey.Title}
        patientId={props.byPatient ? null : patientId}
        toReview={props.byPatient ? null : props.toReview}
        index={index}
        total={total}
        preview={preview}
        language={
          // Sent, the case's language is settled: its last page offers no switch, which would only be refused.
          props.language && page !== "done"
            ? {
                choice: props.language,
                // Without JavaScript the switch sends the page's answers with it, on the pages that have a form.
                formId: page === "preliminary" || (page === "questionnaire" && current) ? "page-form" : undefined,
                action: props.hrefOf(page, page === "questionnaire" ? current?.Id : undefined),
              }
            : undefined
        }
      />
      {page === "intro" ? (
        <IntroPage
          html={survey.IntroText}
          href={props.hrefOf(nextPage("intro", pages))}
          onContinue={() => go(nextPage("intro", pages))}
        />
      ) : null}
      {page === "preliminary" ? (
        <PreliminaryPage
          attributes={askedPreliminary(survey)}
          answers={preliminary}
          failed={prelim.failed}
          onAnswer={onPreliminary}
          hydrated={hydrated}
          preview={preview}
          incomplete={Boolean(props.problems?.preliminaryIncomplete)}
          exitAsked={props.problems?.exit}
          action={props.hrefOf("preliminary")}
          formKey={props.formKey}
          onBack={pages.indexOf("preliminary") > 0 ? () => go(previousPage("preliminary", pages)) : toStart}
          onContinue={() =>
            void settled().then(() => {
              if (preview || preliminaryComplete(survey, prelim.latest.current)) go(nextPage("preliminary", pages));
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
          exitAsked={props.problems?.questionExit}
          formKey={props.formKey}
          hrefOf={(id) => props.hrefOf("questionnaire", id)}
          onPick={(id) => void settled().then(() => go("questionnaire", id))}
          onBack={backFromQuestionnaire ? () => void settled().then(() => go(backFromQuestionnaire)) : toStart}
          onSubmit={() =>
            asksEarlySubmit && !Object.values(rules.statuses).every((status) => status === "complete")
              ? setSubmitAsked(true)
              : void submit()
          }
          submitOpen={Boolean(props.problems?.submitOpen)}
          attachments={props.attachments}
          numbers={props.numbers}
        />
      ) : null}
      {page === "outro" ? (
        <Finished key="outro" delayMs={OUTRO_DELAY_MS} surveyId={survey.Id} html={survey.OutroText} preview={preview} />
      ) : page === "done" ? (
        <Finished key="done" delayMs={CONFIRMATION_DELAY_MS} surveyId={survey.Id} preview={preview} />
      ) : null}
      {/* Staff's note on the case (its id, when it closed): not for a patient handed the device. */}
      {page === "done" && !preview && !handedOver ? (
        <StaffWords>
          <ClosedNote patientId={patientId} closed={props.closed} local={props.local} />
        </StaffWords>
      ) : null}
      {exitAsked.current ? (
        <Suspense fallback={null}>
          <ExitConfirm
            open={exit !== null}
            answer={exit?.text ?? ""}
            onReject={() => setExit(null)}
            onConfirm={async () => {
              if (!exit) return;
              setExit(null);
              // Confirmed: the answer is recorded, and the survey ends as a submit ends it (offline alike).
              const recorded =
                "question" in exit
                  ? await answer(exit.question, exit.value)
                  : await track(prelim.answer(exit.attributeId, exit.optionId));
              if (recorded) await submit();
            }}
          />
        </Suspense>
      ) : null}
      {submitAsked !== null ? (
        <Suspense fallback={null}>
          <SubmitConfirm
            open={submitAsked}
            onReject={() => setSubmitAsked(false)}
            onConfirm={() => {
              setSubmitAsked(false);
              void submit();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
