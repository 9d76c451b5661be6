import { useId, useState } from "react";
import { useTranslation } from "~/texts";

export interface Choice {
  value: string;
  label: string;
  disabled?: boolean;
}

/** At most this many choices are listed at once; the search narrows a longer list. */
const SHOWN = 200;

/**
 * A multi-select in a disclosure: checkboxes of one form field. Closing it applies the choice (the
 * statistics reload when a selector closes, section 4); without JavaScript the form's apply button does.
 */
export function MultiSelect({
  name,
  label,
  choices,
  selected,
  onClose,
}: {
  name: string;
  label: string;
  choices: Choice[];
  selected: string[];
  onClose?: (changed: boolean) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [filter, setFilter] = useState("");
  // Closing applies what is chosen when it differs from what the page shows now. Not from the state at the
  // opening: the opening's toggle event is a task of its own, and a busy page handles a key pressed after the
  // opening (input first) before it, so that the state read then already held the key's choice.
  const applied = [...selected].sort().join(",");
  const [chosen, setChosen] = useState(() => new Set(selected));
  const toggle = (value: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(value);
      else next.delete(value);
      return next;
    });
  const needle = filter.trim().toLocaleLowerCase();
  const matching = needle ? choices.filter((c) => c.label.toLocaleLowerCase().includes(needle)) : choices;
  // Chosen entries always stay in the form, even when the list is cut or narrowed.
  const shown = matching.slice(0, SHOWN);
  const hiddenChosen = [...chosen].filter((v) => !shown.some((c) => c.value === v));
  const summary =
    chosen.size === 0 ? t("statistics.filters.all") : t("statistics.filters.chosen", { count: chosen.size });
  return (
    <details
      className="multi"
      onToggle={(event) => {
        const details = event.currentTarget;
        if (details.open) return;
        const state = new FormData(details.closest("form") ?? undefined).getAll(name).map(String).sort().join(",");
        onClose?.(state !== applied);
      }}
    >
      <summary className="multi__summary" aria-describedby={`${id}-value`}>
        <span className="multi__label">{label}</span>
        <span id={`${id}-value`} className="multi__value">
          {summary}
        </span>
      </summary>
      <div className="multi__panel">
        {choices.length > SHOWN ? (
          <input
            type="search"
            className="multi__search"
            aria-label={t("statistics.filters.search", { label })}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        ) : null}
        <fieldset className="multi__list">
          <legend className="visually-hidden">{label}</legend>
          {shown.map((c) => (
            <label key={c.value} className="multi__choice">
              <input
                type="checkbox"
                name={name}
                value={c.value}
                checked={chosen.has(c.value)}
                onChange={(e) => toggle(c.value, e.target.checked)}
                disabled={c.disabled && !chosen.has(c.value)}
              />
              {c.label}
            </label>
          ))}
          {matching.length > SHOWN ? (
            <p className="multi__more">{t("statistics.filters.more", { count: matching.length - SHOWN })}</p>
          ) : null}
          {choices.length === 0 ? <p className="multi__more">{t("statistics.filters.none")}</p> : null}
        </fieldset>
        {hiddenChosen.map((v) => (
          <input key={v} type="hidden" name={name} value={v} />
        ))}
      </div>
    </details>
  );
}
