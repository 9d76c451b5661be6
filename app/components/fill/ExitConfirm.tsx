import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";

interface Asked {
  open: boolean;
  onConfirm: () => void;
  onReject: () => void;
}

/** Choosing an exit answer asks first: confirming records it and ends the survey; otherwise it is removed. */
export function ExitConfirm({ answer, ...asked }: Asked & { answer: string }) {
  const { t } = useTranslation();
  return (
    <AskBeforeTheEnd
      {...asked}
      title={t("fill.exitTitle")}
      text={t("fill.exitText", { answer })}
      keep={t("fill.exitReject")}
      end={t("fill.exitConfirm")}
    />
  );
}

/**
 * A patient's submit while questions are still unanswered asks first (decision 067): sending closes the case
 * for good, and a patient alone has no one to ask.
 */
export function SubmitConfirm(asked: Asked) {
  const { t } = useTranslation();
  return (
    <AskBeforeTheEnd
      {...asked}
      title={t("fill.submitOpenTitle")}
      text={t("fill.submitOpenText")}
      keep={t("fill.submitOpenContinue")}
      end={t("fill.submitOpenConfirm")}
      endTestId="submit-anyway"
    />
  );
}

/** A question before the case ends: the choice that keeps it open first, where the focus starts. */
function AskBeforeTheEnd(
  props: Asked & { title: string; text: string; keep: string; end: string; endTestId?: string },
) {
  return (
    <Modal
      open={props.open}
      title={props.title}
      size="s"
      onClose={props.onReject}
      footer={
        <>
          <button type="button" className="btn" onClick={props.onReject} data-autofocus>
            {props.keep}
          </button>
          <button type="button" className="btn btn--danger" onClick={props.onConfirm} data-testid={props.endTestId}>
            {props.end}
          </button>
        </>
      }
    >
      <p>{props.text}</p>
    </Modal>
  );
}
