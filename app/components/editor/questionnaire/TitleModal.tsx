import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormModal } from "~/components/ui/FormModal";
import { Modal } from "~/components/ui/Modal";

/** A modal with one required title field (categories). Resolves `onSave` to true to close. */
export function TitleModal({
  open,
  title,
  label,
  initial,
  onSave,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  onSave: (value: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setError(null);
      // After the dialog has opened (the modal's own effect runs first), its field takes the focus.
      field.current?.focus();
    }
  }, [open, initial]);

  const submit = async () => {
    if (!value.trim()) {
      setError(t("questionnaire.titleRequired"));
      return;
    }
    if (value.trim() === initial.trim()) return onClose();
    setBusy(true);
    const ok = await onSave(value.trim());
    setBusy(false);
    if (ok) onClose();
  };

  if (!open) return null;
  return (
    <FormModal title={title} size="s" onClose={onClose} onSubmit={() => void submit()} busy={busy}>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <input
          ref={field}
          id={id}
          className="input"
          value={value}
          maxLength={200}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
        {error ? (
          <span id={`${id}-error`} className="field__error" role="alert">
            {error}
          </span>
        ) : null}
      </div>
    </FormModal>
  );
}

/** A yes/no question before deleting something, for pages that run JavaScript. */
export function ConfirmModal({
  open,
  title,
  text,
  confirmLabel,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title={title}
      size="s"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t("surveys.cancel")}
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy}
            autoFocus
            onClick={async () => {
              setBusy(true);
              await onConfirm();
              setBusy(false);
              onClose();
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{text}</p>
    </Modal>
  );
}
