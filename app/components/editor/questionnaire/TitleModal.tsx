import { Field } from "~/components/ui/Field";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/texts";
import { FormModal } from "~/components/ui/FormModal";
import { Modal } from "~/components/ui/Modal";
import { CategoryTitleFormSchema } from "~/domain/editor-forms";
import { parseForm } from "~/domain/forms";

interface TitleModalProps {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  onSave: (value: string) => Promise<boolean>;
  onClose: () => void;
}

/** A modal with one required title field (categories). Resolves `onSave` to true to close. */
export function TitleModal(props: TitleModalProps) {
  // Each opening starts from the saved title.
  return props.open ? <TitleForm {...props} /> : null;
}

const constraint = getZodConstraint(CategoryTitleFormSchema);

/** The title checked by its schema before it is sent: a bad one is named beside the field. */
function TitleForm({ title, label, initial, onSave, onClose }: TitleModalProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const save = async (value: string) => {
    if (value === initial.trim()) return onClose();
    setBusy(true);
    const ok = await onSave(value);
    setBusy(false);
    if (ok) onClose();
  };
  const [form, fields] = useForm({
    defaultValue: { title: initial },
    constraint,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, CategoryTitleFormSchema),
    onSubmit: (event, { submission }) => {
      // Saved through the API from the page (section 7), not posted.
      event.preventDefault();
      if (submission?.status === "success") void save(submission.value.title);
    },
  });
  // After the dialog has opened (the modal's own effect runs first), its field takes the focus.
  useEffect(() => field.current?.focus(), []);
  const { key, ...input } = getInputProps(fields.title, { type: "text" });
  const error = fields.title.errors?.[0];

  return (
    <FormModal title={title} size="s" onClose={onClose} form={getFormProps(form)} busy={busy}>
      <Field id={fields.title.id} errorId={fields.title.errorId} label={label} error={error ? t(error) : null}>
        <input key={key} ref={field} className="input" {...input} />
      </Field>
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
          <button type="button" className="btn" onClick={onClose} data-autofocus>
            {t("surveys.cancel")}
          </button>
          <button
            type="button"
            className="btn btn--danger"
            disabled={busy}
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
