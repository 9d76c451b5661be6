import { useId, type FormEventHandler, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
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

/** A modal holding one form, with Cancel and Save in its footer: the editor's add and edit dialogs. */
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
  return (
    <Modal
      open
      size={size}
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
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
    </Modal>
  );
}
