import { useTranslation } from "~/texts";
import { Modal } from "~/components/ui/Modal";

/**
 * Asks before a chart is deleted (it cannot be brought back). The focus starts on "Cancel", so Enter or
 * Space right away keeps the chart; Escape keeps it too.
 */
export function DeleteChartDialog({
  name,
  onCancel,
  onConfirm,
}: {
  name: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      size="s"
      title={t("statistics.graphs.deleteTitle")}
      onClose={onCancel}
      footer={
        <>
          <button type="button" className="btn" onClick={onCancel} data-autofocus>
            {t("statistics.graphs.cancel")}
          </button>
          <button type="button" className="btn btn--danger" onClick={onConfirm}>
            {t("statistics.graphs.delete")}
          </button>
        </>
      }
    >
      <p>{t("statistics.graphs.deleteText", { name })}</p>
    </Modal>
  );
}
