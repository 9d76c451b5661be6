import { useTranslation } from "~/texts";
import { Menu } from "~/components/ui/Menu";
import { questionTypes, type QuestionType } from "~/domain/question-types";

/** The kinds an editor can add (MultipleChoice is only read from older surveys). */
export const addableTypes: QuestionType[] = questionTypes.filter((t) => t !== "MultipleChoice");

export function AddQuestionMenu({
  id,
  label,
  onPick,
}: {
  /** The menu button's id, which the category's skip link jumps to. */
  id?: string;
  label: string;
  onPick: (type: QuestionType) => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu id={id} label={label} icon={<span className="add-menu__label">+ {label}</span>}>
      {addableTypes.map((type) => (
        <button key={type} type="button" className="menu__item" onClick={() => onPick(type)}>
          {t(`questionType.${type}`)}
        </button>
      ))}
    </Menu>
  );
}
