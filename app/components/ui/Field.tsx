import type { ReactNode } from "react";

/** What a field's control carries so that a screen reader names, describes and flags it. */
export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

interface FieldProps {
  /** The control's id (a Conform field's `id`). */
  id: string;
  label: ReactNode;
  /** A line under the control that says what it takes; the control is described by it. */
  hint?: ReactNode;
  /** The message under the control, read out when it appears; the control is marked invalid and described by it. */
  error?: ReactNode;
  /** The error's and the hint's ids when a form library names them (Conform's `errorId`, `descriptionId`). */
  errorId?: string;
  hintId?: string;
  /**
   * A line under the control that is always there and read out when it changes: a check's verdict as the person
   * types. Its tone "error" makes it the field's message (the control is marked invalid, the line drawn as an
   * error); "note" draws it as a hint; "silent" keeps it for screen readers only. The control is described by it.
   */
  status?: { text: ReactNode; tone: "error" | "note" | "silent"; className?: string; testId?: string };
  /** Beside the label, on its line (a save state). */
  aside?: ReactNode;
  /**
   * "inline": the label is read out but not drawn (the control sits in a row whose heading or placeholder says
   * what it takes: a search box, a title edited in place), and nothing wraps the control.
   */
  layout?: "stacked" | "inline";
  className?: string;
  /**
   * The control. As a function it gets the id and aria-* wiring to spread on it; a Conform input that has
   * them already (getInputProps) is given as it is.
   */
  children: ReactNode | ((control: ControlProps) => ReactNode);
}

/**
 * One labelled form field: the label bound to its control, an optional hint, and the field's message, each
 * wired to the control with aria-describedby and aria-invalid, the same way on every form.
 */
export function Field({
  id,
  label,
  hint,
  error,
  errorId,
  hintId,
  status,
  aside,
  layout = "stacked",
  className,
  children,
}: FieldProps) {
  const hintAt = hint ? (hintId ?? `${id}-hint`) : undefined;
  const errorAt = error ? (errorId ?? `${id}-error`) : undefined;
  const statusAt = status ? `${id}-status` : undefined;
  const invalid = !!error || status?.tone === "error";
  const describedBy = [errorAt, hintAt, statusAt].filter(Boolean).join(" ") || undefined;
  const statusClass = { error: "field__error", note: "field__hint", silent: "visually-hidden" };
  const labelElement = (
    <label className={layout === "inline" ? "visually-hidden" : "field__label"} htmlFor={id}>
      {label}
    </label>
  );
  const parts = (
    <>
      {aside ? (
        <div className="field__head">
          {labelElement}
          {aside}
        </div>
      ) : (
        labelElement
      )}
      {typeof children === "function"
        ? children({ id, "aria-invalid": invalid ? true : undefined, "aria-describedby": describedBy })
        : children}
      {hint ? (
        <span id={hintAt} className="field__hint">
          {hint}
        </span>
      ) : null}
      {status ? (
        <p
          id={statusAt}
          className={[status.className, statusClass[status.tone]].filter(Boolean).join(" ")}
          aria-live="polite"
          data-testid={status.testId}
        >
          {status.text}
        </p>
      ) : null}
      {error ? (
        <span id={errorAt} className="field__error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
  if (layout === "inline") return parts;
  return <div className={className ? `field ${className}` : "field"}>{parts}</div>;
}

/**
 * A checkbox or radio button with its label after it, bound to it: one choice of a list or a set, or a switch
 * with a line under it that says what it does (`hint`, which then describes the control). The control is given
 * with the id (`<input id={id} type="checkbox" … />`), or as a function that gets the id and the description.
 */
export function Choice({
  id,
  label,
  hint,
  as: Tag = "div",
  className = "start-choice",
  labelClassName,
  hintClassName = "field__hint",
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  as?: "div" | "li";
  className?: string;
  labelClassName?: string;
  hintClassName?: string;
  children: ReactNode | ((control: { id: string; "aria-describedby"?: string }) => ReactNode);
}) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <Tag className={className}>
      {typeof children === "function" ? children({ id, "aria-describedby": hintId }) : children}
      <label htmlFor={id} className={labelClassName}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={hintClassName}>
          {hint}
        </p>
      ) : null}
    </Tag>
  );
}
