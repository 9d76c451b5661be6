import { Form, useNavigate, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Modal } from "./Modal";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  /** Where cancelling goes (the same page without the confirmation in its URL). */
  cancelHref: string;
  /** Hidden fields of the confirming form post (a list: one field of the name for each value). */
  fields: Record<string, string | string[]>;
  action?: string;
  danger?: boolean;
  /** The confirming button is shown but cannot be used (what stands in the way is said in the dialog). */
  confirmDisabled?: boolean;
}

/**
 * A yes/no confirmation whose open state lives in the URL, so it works without JavaScript (the server
 * renders it open) and the confirming button is a plain form post.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const navigate = useNavigate();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const close = () => navigate(props.cancelHref, { replace: true, preventScrollReset: true });
  return (
    <Modal
      open={props.open}
      title={props.title}
      size="s"
      onClose={close}
      footer={
        <>
          <a
            className="btn"
            href={props.cancelHref}
            // A destructive confirmation starts on the safe choice: a reflex Enter keeps things as they are.
            data-autofocus={props.danger ? true : undefined}
            onClick={(event) => {
              event.preventDefault();
              close();
            }}
          >
            {props.cancelLabel}
          </a>
          <Form method="post" action={props.action} preventScrollReset>
            {Object.entries(props.fields).flatMap(([name, value]) =>
              (Array.isArray(value) ? value : [value]).map((v, i) => (
                <input key={`${name}-${i}`} type="hidden" name={name} value={v} />
              )),
            )}
            <button
              type="submit"
              className={`btn ${props.danger ? "btn--danger" : "btn--primary"}`}
              disabled={busy || props.confirmDisabled}
              data-autofocus={props.danger ? undefined : true}
            >
              {props.confirmLabel}
            </button>
          </Form>
        </>
      }
    >
      {props.children}
    </Modal>
  );
}
