import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";

/** Choosing an exit answer asks first: confirming records it and ends the survey; otherwise it is removed. */
export function ExitConfirm({
  open,
  answer,
  onConfirm,
  onReject,
}: {
  open: boolean;
  answer: string;
  onConfirm: () => void;
  onReject: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t("fill.exitTitle")}
      size="s"
      onClose={onReject}
      footer={
        <>
          <button type="button" className="btn" onClick={onReject} data-autofocus>
            {t("fill.exitReject")}
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm}>
            {t("fill.exitConfirm")}
          </button>
        </>
      }
    >
      <p>{t("fill.exitText", { answer })}</p>
    </Modal>
  );
}
