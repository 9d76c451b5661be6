import { useId } from "react";
import { Choice } from "~/components/ui/Field";
import { useTranslation } from "~/texts";
import { canToggle, toggleId } from "./fields";

export interface Choice {
  Id: number;
  Name: string;
  Disabled?: boolean;
}

interface ChoiceListProps {
  legend: string;
  hint?: string;
  choices: readonly Choice[];
  chosen: readonly number[];
  readOnly: boolean;
  onChange: (next: number[]) => void;
}

/**
 * A group of checkboxes under a legend. A disabled choice (a disabled team) cannot be chosen; when it is
 * chosen already it can still be removed.
 */
export function ChoiceList({ legend, hint, choices, chosen, readOnly, onChange }: ChoiceListProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const inputId = useId();
  return (
    <fieldset className="choice-list" aria-describedby={hint ? hintId : undefined}>
      <legend className="field__label">{legend}</legend>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <ul className="choice-list__items">
        {choices.map((choice) => {
          const checked = chosen.includes(choice.Id);
          const id = `${inputId}-${choice.Id}`;
          return (
            <Choice
              key={choice.Id}
              as="li"
              id={id}
              className={`start-choice${choice.Disabled ? " start-choice--disabled" : ""}`}
              label={choice.Disabled ? t("startTab.disabledTeam", { name: choice.Name }) : choice.Name}
            >
              <input
                id={id}
                type="checkbox"
                checked={checked}
                disabled={readOnly || !canToggle(choice, checked)}
                onChange={(event) => onChange(toggleId(chosen, choice.Id, event.target.checked))}
              />
            </Choice>
          );
        })}
      </ul>
    </fieldset>
  );
}
