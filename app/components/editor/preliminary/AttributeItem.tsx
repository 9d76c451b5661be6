import { useId, useState, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { useRovingRow } from "~/components/ui/useRovingRow";
import type { PatientFormAttribute } from "~/domain/survey";
import { SortableList, type MoveTarget } from "../SortableList";

type Answer = PatientFormAttribute["AnswerOptions"][number];

const answerId = (a: Answer) => a.Id;
const answerLabel = (a: Answer) => a.Text;

/** One answer of a preliminary question: its handle and move buttons are one Tab stop (useRovingRow). */
function AnswerRow({ answer, handle }: { answer: Answer; handle: ReactNode }) {
  const { t } = useTranslation();
  const row = useRovingRow<HTMLDivElement>(answer.Text, handle != null);
  return (
    <div className="prelim-answer" data-testid="preliminary-answer" {...row}>
      {handle}
      <span className="prelim-answer__text">{answer.Text}</span>
      {answer.IsExitAnswer ? <span className="prelim-answer__exit">{t("preliminary.exitAnswer")}</span> : null}
    </div>
  );
}

interface AttributeItemProps {
  attribute: PatientFormAttribute;
  handle: ReactNode;
  /** Answers can be reordered (an editor of a draft). */
  sortable: boolean;
  /** Edit and delete are offered (sortable, and the page runs JavaScript). */
  changeable: boolean;
  hydrated: boolean;
  onMove: (target: MoveTarget) => Promise<boolean>;
  onEdit: (attribute: PatientFormAttribute) => void;
  onDelete: (attribute: PatientFormAttribute) => void;
}

/**
 * One preliminary question: its title and number of entries, a disclosure for its answers (always open
 * without JavaScript), and the edit and delete actions.
 */
export function AttributeItem({
  attribute,
  handle,
  sortable,
  changeable,
  hydrated,
  onMove,
  onEdit,
  onDelete,
}: AttributeItemProps) {
  const { t } = useTranslation();
  const answersId = useId();
  const [open, setOpen] = useState(false);
  const expanded = open || !hydrated;
  const count = t("preliminary.entries", { count: attribute.AnswerOptions.length });
  const row = useRovingRow<HTMLDivElement>(attribute.Title, hydrated || changeable || sortable);

  return (
    <div className="prelim" data-testid="preliminary-question">
      <div className="prelim__head" {...row}>
        {handle}
        {hydrated ? (
          <button
            type="button"
            className="prelim__toggle"
            aria-expanded={open}
            aria-controls={answersId}
            onClick={() => setOpen((o) => !o)}
          >
            <span className={`prelim__chevron${open ? " prelim__chevron--open" : ""}`} aria-hidden="true">
              ▸
            </span>
            <span className="prelim__title">{attribute.Title}</span>
          </button>
        ) : (
          <h4 className="prelim__title prelim__title--static">{attribute.Title}</h4>
        )}
        <span className="prelim__count">{count}</span>
        {changeable ? (
          <span className="prelim__actions">
            <button
              type="button"
              className="btn prelim__action"
              aria-label={t("preliminary.editNamed", { title: attribute.Title })}
              onClick={() => onEdit(attribute)}
            >
              {t("preliminary.edit")}
            </button>
            <button
              type="button"
              className="btn prelim__action"
              aria-label={t("preliminary.deleteNamed", { title: attribute.Title })}
              onClick={() => onDelete(attribute)}
            >
              {t("preliminary.delete")}
            </button>
          </span>
        ) : null}
      </div>
      <div id={answersId} className="prelim__answers" hidden={!expanded}>
        {expanded ? (
          <SortableList
            items={attribute.AnswerOptions}
            getId={answerId}
            getLabel={answerLabel}
            kind="attributeAnswer"
            label={t("preliminary.answersOf", { title: attribute.Title })}
            disabled={!sortable}
            onMove={onMove}
            renderItem={(answer, answerHandle) => <AnswerRow answer={answer} handle={answerHandle} />}
          />
        ) : null}
      </div>
    </div>
  );
}
