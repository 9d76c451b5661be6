import { useTranslation } from "~/texts";
import type { PatientFormAttribute } from "~/domain/survey";
import { toggleDependence, type DependenceDraft } from "./question-form";

/**
 * Dependence on preliminary answers (section 4, Visibility): the answers of each preliminary question as a
 * group of checkboxes, and whether a chosen answer shows or hides the question.
 */
export function DependenceField({
  id,
  attributes,
  value,
  onChange,
}: {
  id: string;
  attributes: readonly PatientFormAttribute[];
  value: DependenceDraft;
  onChange: (next: DependenceDraft) => void;
}) {
  const { t } = useTranslation();
  const none = value.ids.length === 0;
  return (
    <fieldset className="choice-list qmodal__dependence" aria-describedby={`${id}-hint`}>
      <legend className="field__label">{t("questionModal.dependence")}</legend>
      <p id={`${id}-hint`} className="hint">
        {t(attributes.length > 0 ? "questionModal.dependenceHint" : "questionModal.dependenceNoAttributes")}
      </p>
      {attributes.map((attribute) => (
        <fieldset key={attribute.Id} className="qmodal__group" data-testid="dependence-group">
          <legend>{attribute.Title}</legend>
          <ul className="choice-list__items">
            {attribute.AnswerOptions.map((option) => (
              <li key={option.Id}>
                <label className="choice">
                  <input
                    type="checkbox"
                    checked={value.ids.includes(option.Id)}
                    onChange={(e) => onChange(toggleDependence(value, option.Id, e.target.checked))}
                  />
                  {option.Text}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
      {attributes.length > 0 ? (
        <fieldset className="qmodal__group" disabled={none} aria-describedby={none ? `${id}-type-hint` : undefined}>
          <legend>{t("questionModal.dependenceType")}</legend>
          <div className="qmodal__inline">
            {(["SHOW", "HIDE"] as const).map((type) => (
              <label key={type} className="choice">
                <input
                  type="radio"
                  name={`${id}-type`}
                  value={type}
                  checked={value.type === type}
                  onChange={() => onChange({ ...value, type })}
                />
                {t(`questionModal.dependence${type}`)}
              </label>
            ))}
          </div>
          {none ? (
            <p id={`${id}-type-hint`} className="hint">
              {t("questionModal.dependenceTypeHint")}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {!none ? (
        <button
          type="button"
          className="btn btn--small qmodal__clear"
          onClick={() => onChange({ type: null, ids: [] })}
        >
          {t("questionModal.dependenceClear")}
        </button>
      ) : null}
    </fieldset>
  );
}
