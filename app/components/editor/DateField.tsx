import { Field } from "~/components/ui/Field";
import { useId, useRef } from "react";
import { useTranslation } from "~/texts";
import { isoToWireDate, wireToIsoDate } from "~/domain/dates";

interface DateFieldProps {
  name: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** DD.MM.YYYY: the calendar offers nothing before it. */
  min?: string;
  error?: string | null;
  disabled?: boolean;
}

/** A date typed as DD.MM.YYYY, with a calendar button that opens the browser's date picker. */
export function DateField({ name, label, value, onChange, min, error, disabled }: DateFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const picker = useRef<HTMLInputElement>(null);
  return (
    <Field id={id} label={label} error={error} className="date-field">
      {(control) => (
        <div className="date-field__row">
          <input
            {...control}
            name={name}
            className="input"
            inputMode="numeric"
            placeholder={t("editor.datePlaceholder")}
            pattern="\d{2}\.\d{2}\.\d{4}"
            value={value}
            disabled={disabled}
            onChange={(e) => onChange(e.target.value)}
          />
          <input
            ref={picker}
            type="date"
            tabIndex={-1}
            aria-hidden="true"
            className="date-field__native"
            value={wireToIsoDate(value) ?? ""}
            min={min ? (wireToIsoDate(min) ?? undefined) : undefined}
            onChange={(e) => onChange(isoToWireDate(e.target.value))}
          />
          <button
            type="button"
            className="btn btn--ghost"
            disabled={disabled}
            title={t("editor.openCalendar")}
            onClick={() => picker.current?.showPicker?.()}
          >
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <rect x="3.5" y="5" width="17" height="15" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
              <path d="M3.5 10h17M8 3v4M16 3v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      )}
    </Field>
  );
}
