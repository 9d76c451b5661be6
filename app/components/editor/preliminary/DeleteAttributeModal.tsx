import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Modal } from "~/components/ui/Modal";
import type { PatientFormAttribute } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";

/**
 * Asks before deleting a preliminary question. The API refuses one that was already answered (409); its
 * message shows as a toast and the question stays.
 */
export function DeleteAttributeModal({
  surveyId,
  attribute,
  onClose,
}: {
  surveyId: number;
  attribute: PatientFormAttribute;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mutate = useEditorMutation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    await mutate(
      "DELETE",
      `/patient-attributes/${attribute.Id}?surveyId=${surveyId}`,
      undefined,
      "preliminary.deleted",
    );
    setBusy(false);
    onClose();
  };
  return (
    <Modal
      open
      size="s"
      title={t("preliminary.deleteTitle")}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t("preliminary.cancel")}
          </button>
          <button type="button" className="btn btn--danger" disabled={busy} onClick={() => void confirm()}>
            {t("preliminary.delete")}
          </button>
        </>
      }
    >
      <p>{t("preliminary.deleteConfirm", { title: attribute.Title })}</p>
    </Modal>
  );
}
