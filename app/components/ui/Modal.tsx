import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "~/texts";
import { focusHeading } from "~/components/layout/page-focus";

export type ModalSize = "xl" | "lg" | "s";

interface ModalProps {
  open: boolean;
  title: ReactNode;
  size?: ModalSize;
  /** A closable modal closes on Escape and has a close button. */
  closable?: boolean;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
}

/**
 * Where focus goes back when a modal closes: what opened it, or, for an item of a menu (which closes when the
 * item is chosen, hiding it), the menu's own button.
 */
function returnTarget(active: Element | null): Element | null {
  const menu = active?.closest("details.menu");
  return menu?.querySelector("summary") ?? active;
}

/**
 * Gives focus back on closing. What opened the modal may be gone by then (the unpublish link, once the survey
 * is unpublished, became the publish link): the page's heading takes it, never the page's body.
 */
function giveBack(target: Element | null) {
  if (target instanceof HTMLElement && target.isConnected) target.focus();
  else if (target) focusHeading(document.querySelector("main h1"));
}

/**
 * The one modal of the app, on the native dialog element: the rest of the page is inert while it is
 * open, so focus stays inside; focus starts on the control marked `data-autofocus` (a destructive
 * confirmation marks its safe choice); Escape closes a closable modal; focus returns to where it was.
 */
export function Modal({ open, title, size = "lg", closable = true, onClose, children, footer }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<Element | null>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.matches(":modal")) {
      returnFocus.current = returnTarget(document.activeElement);
      // Rendered open by the server (so it shows without JavaScript): make it a real modal now.
      if (dialog.open) dialog.close();
      dialog.showModal();
      // The control marked to start on (the safe choice of a destructive confirmation), else the browser's
      // choice: the dialog's first control.
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  useEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
      giveBack(returnFocus.current);
    };
  }, []);

  useEffect(() => {
    if (!open && returnFocus.current) {
      giveBack(returnFocus.current);
      returnFocus.current = null;
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      // The server renders an open modal as an open dialog, so it shows without JavaScript; in the browser
      // the dialog is only ever opened with showModal(), never through the attribute.
      {...(typeof document === "undefined" && open ? { open: true } : {})}
      className={`modal modal--${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        // Escape belongs to the topmost modal: a modal opened from another one is drawn inside it, and
        // the event would otherwise reach the one under it too and close both.
        event.stopPropagation();
        if (closable) onClose();
      }}
    >
      <div className="modal__head">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {closable ? (
          <button type="button" className="modal__close" onClick={onClose} aria-label={t("modal.close")}>
            ×
          </button>
        ) : null}
      </div>
      <div className="modal__body">{children}</div>
      {footer ? <div className="modal__foot">{footer}</div> : null}
    </dialog>
  );
}
