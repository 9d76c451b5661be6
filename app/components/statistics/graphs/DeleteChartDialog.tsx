import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
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
  const keep = useRef<HTMLButtonElement>(null);
  // The modal's own effect (a child's) has opened the dialog by now, which focused its first control.
  useEffect(() => keep.current?.focus(), []);
  return (
    <Modal
      open
      size="s"
      title={t("statistics.graphs.deleteTitle")}
      onClose={onCancel}
      footer={
        <>
          <button ref={keep} type="button" className="btn" onClick={onCancel}>
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
