import { answerOptionsApi } from "~/contracts/answer-options";
import { categoriesApi } from "~/contracts/categories";
import { moveCall } from "~/contracts/moves";
import { questionsApi } from "~/contracts/questions";
import { useCallback, useMemo, useState } from "react";
import { problemsByQuestion, publishProblems } from "~/domain/publish-check";
import { useTranslation } from "~/texts";
import { answerText, type Category } from "~/domain/survey";
import { useRovingRow } from "~/components/ui/useRovingRow";
import { useEditorMutation } from "../editor-api";
import type { MoveKind } from "~/domain/moves";
import { SortableList, type MoveTarget } from "../SortableList";
import type { EditorTabProps } from "../types";
import { AddQuestionMenu } from "./AddQuestionMenu";
import { AnswerModal } from "./AnswerModal";
import { QuestionnaireContext, useQuestionnaire, type QuestionnaireModal } from "./context";
import { QuestionItem } from "./QuestionItem";
import { QuestionModal } from "./QuestionModal";
import { ConfirmModal, TitleModal } from "./TitleModal";

function CategoryCard({ category, handle }: { category: Category; handle: React.ReactNode }) {
  const { t } = useTranslation();
  const { editable, open, move } = useQuestionnaire();
  const [collapsed, setCollapsed] = useState(false);
  const count = category.Questions.length;
  const row = useRovingRow<HTMLDivElement>(category.Title, editable || count > 0);
  const adding = editable && !collapsed;
  const addId = `add-question-${category.Id}`;
  return (
    <div className="category" data-testid="category" data-collapsed={collapsed || undefined}>
      {adding ? (
        <a
          href={`#${addId}`}
          className="skip-link skip-link--inline"
          // The editor's tabs follow the address's hash: the jump is made here, without changing it.
          onClick={(event) => {
            event.preventDefault();
            document.getElementById(addId)?.focus();
          }}
        >
          {t("questionnaire.skipToAdd", { category: category.Title })}
        </a>
      ) : null}
      <div className="category__head" {...row}>
        {handle}
        <h3 className="category__title">{category.Title}</h3>
        {count === 0 ? (
          <span className="badge badge--warn">{t("questionnaire.noQuestions")}</span>
        ) : (
          <span className="badge">{t("questionnaire.questionCount", { count })}</span>
        )}
        <span className="item__actions">
          {count > 0 ? (
            <button
              type="button"
              className="btn btn--small"
              aria-expanded={!collapsed}
              aria-label={t(collapsed ? "questionnaire.expandCategory" : "questionnaire.collapseCategory", {
                title: category.Title,
              })}
              onClick={() => setCollapsed(!collapsed)}
            >
              <span aria-hidden="true">{collapsed ? "▸" : "▾"}</span>
            </button>
          ) : null}
          {editable ? (
            <>
              <button type="button" className="btn btn--small" onClick={() => open({ kind: "category", category })}>
                {t("questionnaire.edit")}
              </button>
              <button
                type="button"
                className="btn btn--small"
                onClick={() => open({ kind: "deleteCategory", category })}
              >
                {t("questionnaire.delete")}
              </button>
            </>
          ) : null}
        </span>
      </div>
      {collapsed ? null : (
        <SortableList
          items={category.Questions}
          getId={(q) => q.Id}
          getLabel={(q) => q.Title}
          kind="question"
          label={t("questionnaire.questionsOf", { category: category.Title })}
          disabled={!editable}
          onMove={move}
          renderItem={(q, h, index) => <QuestionItem question={q} handle={h} number={`${index + 1}`} />}
        />
      )}
      {adding ? (
        <AddQuestionMenu
          id={addId}
          label={t("questionnaire.addQuestion")}
          onPick={(type) => open({ kind: "question", mode: { kind: "create", type, categoryId: category.Id } })}
        />
      ) : null}
    </div>
  );
}

/** Categories, their questions, answers and sub-questions (section 2, Questionnaire tab). */
export function QuestionnaireTab({ survey, editable }: EditorTabProps) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const [modal, setModal] = useState<QuestionnaireModal>(null);
  const close = useCallback(() => setModal(null), []);
  // Shown where they are while a Draft is edited: the editor can fix them before an approver publishes.
  const problems = useMemo(
    () => (survey.Status === "Draft" ? problemsByQuestion(publishProblems(survey)) : new Map()),
    [survey],
  );
  const move = useCallback(
    async (target: MoveTarget) => {
      const call = moveCall(target.kind as MoveKind, target.id, target.newPosition, survey.Id);
      return (await mutate(call.contract, call.request)).ok;
    },
    [mutate, survey.Id],
  );

  return (
    <QuestionnaireContext.Provider value={{ survey, editable, open: setModal, move, problems }}>
      <div className="questionnaire">
        {survey.Categories.length === 0 ? <p className="empty">{t("questionnaire.empty")}</p> : null}
        <SortableList
          items={survey.Categories}
          getId={(c) => c.Id}
          getLabel={(c) => c.Title}
          kind="category"
          label={t("questionnaire.categories")}
          disabled={!editable}
          onMove={move}
          renderItem={(c, h) => <CategoryCard category={c} handle={h} />}
        />
        {editable ? (
          <button type="button" className="btn btn--primary" onClick={() => setModal({ kind: "category" })}>
            + {t("questionnaire.addCategory")}
          </button>
        ) : null}
      </div>

      <TitleModal
        open={modal?.kind === "category"}
        title={t(
          modal?.kind === "category" && modal.category ? "questionnaire.editCategory" : "questionnaire.addCategory",
        )}
        label={t("questionnaire.categoryTitle")}
        initial={modal?.kind === "category" ? (modal.category?.Title ?? "") : ""}
        onClose={close}
        onSave={async (title) => {
          const editing = modal?.kind === "category" ? modal.category : undefined;
          const result = editing
            ? await mutate(
                categoriesApi.update,
                { params: { id: editing.Id }, body: { SurveyId: survey.Id, Title: title } },
                "questionnaire.categorySaved",
              )
            : await mutate(
                categoriesApi.create,
                { body: { SurveyId: survey.Id, Title: title } },
                "questionnaire.categoryAdded",
              );
          return result.ok;
        }}
      />
      <ConfirmModal
        open={modal?.kind === "deleteCategory"}
        title={t("questionnaire.deleteCategory")}
        text={t("questionnaire.deleteCategoryConfirm", {
          title: modal?.kind === "deleteCategory" ? modal.category.Title : "",
        })}
        confirmLabel={t("questionnaire.delete")}
        onClose={close}
        onConfirm={() =>
          modal?.kind === "deleteCategory"
            ? mutate(categoriesApi.remove, { query: { categoryId: modal.category.Id, surveyId: survey.Id } })
            : Promise.resolve()
        }
      />
      <ConfirmModal
        open={modal?.kind === "deleteQuestion"}
        title={t("questionnaire.deleteQuestion")}
        text={t("questionnaire.deleteQuestionConfirm", {
          title: modal?.kind === "deleteQuestion" ? modal.question.Title : "",
        })}
        confirmLabel={t("questionnaire.delete")}
        onClose={close}
        onConfirm={() =>
          modal?.kind === "deleteQuestion"
            ? mutate(questionsApi.remove, { params: { id: modal.question.Id }, query: { surveyId: survey.Id } })
            : Promise.resolve()
        }
      />
      <ConfirmModal
        open={modal?.kind === "deleteAnswer"}
        title={t("questionnaire.deleteAnswer")}
        text={t("questionnaire.deleteAnswerConfirm", {
          title: modal?.kind === "deleteAnswer" ? answerText(modal.answer) : "",
        })}
        confirmLabel={t("questionnaire.delete")}
        onClose={close}
        onConfirm={() =>
          modal?.kind === "deleteAnswer"
            ? mutate(answerOptionsApi.remove, { params: { id: modal.answer.Id }, query: { surveyId: survey.Id } })
            : Promise.resolve()
        }
      />
      {modal?.kind === "question" ? <QuestionModal open survey={survey} mode={modal.mode} onClose={close} /> : null}
      {modal?.kind === "answer" ? (
        <AnswerModal open survey={survey} question={modal.question} answer={modal.answer} onClose={close} />
      ) : null}
    </QuestionnaireContext.Provider>
  );
}
