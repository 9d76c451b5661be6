import { useId, useState, type FormEventHandler, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { useUnsavedMark } from "~/components/editor/saving";
import { Modal, type ModalSize } from "./Modal";

interface FormModalProps {
  title: ReactNode;
  size?: ModalSize;
  onClose: () => void;
  /** Called on Save (the button or Enter); the form's own validation decides what to send. */
  onSubmit?: () => void;
  /** The form's own properties from Conform's getFormProps (id, onSubmit, noValidate), in place of onSubmit. */
  form?: { id: string; onSubmit: FormEventHandler<HTMLFormElement>; noValidate: boolean };
  busy?: boolean;
  className?: string;
  testId?: string;
  children: ReactNode;
}

/**
 * A modal holding one form, with Cancel and Save in its footer: the editor's add and edit dialogs. What is
 * typed in it is guarded (decision 035): closing it (Cancel, Escape, ×) with changes asks first, starting on
 * "go on editing", and the page's leave guard asks while it holds changes.
 */
export function FormModal({
  title,
  size = "lg",
  onClose,
  onSubmit,
  form,
  busy,
  className,
  testId,
  children,
}: FormModalProps) {
  const { t } = useTranslation();
  const ownId = `${useId()}-form`;
  const formId = form?.id ?? ownId;
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  useUnsavedMark(`modal:${formId}`, dirty);
  const close = () => (dirty ? setAsking(true) : onClose());
  return (
    <Modal
      open
      size={size}
      title={title}
      onClose={close}
      footer={
        <>
          <button type="button" className="btn" onClick={close}>
            {t("modal.cancel")}
          </button>
          <button type="submit" form={formId} className="btn btn--primary" disabled={busy}>
            {t("modal.save")}
          </button>
        </>
      }
    >
      <form
        id={formId}
        className={className}
        noValidate
        data-testid={testId}
        onInput={() => setDirty(true)}
        onSubmit={
          form?.onSubmit ??
          ((event) => {
            event.preventDefault();
            onSubmit?.();
          })
        }
      >
        {children}
      </form>
      <Modal
        open={asking}
        size="s"
        title={t("modal.discardTitle")}
        onClose={() => setAsking(false)}
        footer={
          <>
            <button type="button" className="btn btn--primary" data-autofocus onClick={() => setAsking(false)}>
              {t("modal.keepEditing")}
            </button>
            <button type="button" className="btn btn--danger" onClick={onClose}>
              {t("modal.discard")}
            </button>
          </>
        }
      >
        <p>{t("modal.discardText")}</p>
      </Modal>
    </Modal>
  );
}
